package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The book's refresh step, run by {@code book/refresh.sh} after the load runs: copies every module's
 * saved reports into {@code book/results/}, renders the charts and flame graphs the pages link to into
 * {@code book/figures/} ({@link archlab.figures.Figures}), rewrites the chapters' code excerpts, report lines and
 * values, and checks that every sentence's holds condition is still true of the new results. Not a test
 * of behaviour: a task that must leave the chapters in sync.
 */
@EnabledIfSystemProperty(named = "book", matches = ".*", disabledReason = "refreshes book/: bash book/refresh.sh")
class BookRefreshTask {

    @Test
    @DisplayName("refreshing the book leaves every chapter marker in sync with the sources and results")
    void refresh() throws Exception {
        Path root = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        List<Path> copied = BookResults.collect(root, System.out::println);
        copied.forEach(p -> System.out.println("result " + root.relativize(p)));
        writeIncidentTable(root);
        writeBaselineTable(root);
        // only the figures a page links to: a file nobody reads is not drawn (BookSync.check lists any left over)
        archlab.figures.Figures.run(root.resolve("book/results"), root.resolve("book/figures"), System.out::println,
                FigureReferences.referenced(root)::contains);
        BookSync sync = new BookSync(root);
        sync.notChecked().forEach(System.out::println);
        sync.refresh().forEach(p -> System.out.println("refreshed " + root.relativize(p)));
        List<String> problems = sync.check();
        // one problem a line, for book/refresh.sh to show a reader (and, in a reader's refresh, to keep)
        Path list = root.resolve("book/target/refresh-problems.txt");
        java.nio.file.Files.createDirectories(list.getParent());
        java.nio.file.Files.write(list, problems.stream().map(p -> p.replace('\n', ' ')).toList());
        assertThat(problems).isEmpty();
    }

    /**
     * A step between two Maven sessions of the refresh (over HTTP on platform threads, then on virtual threads, then in
     * process): copies the reports the session just written into {@code book/results/}, as {@link #refresh} does, and
     * nothing else; the last session's {@link #refresh} checks every sentence.
     */
    @Test
    @DisplayName("collecting one Maven session's reports copies them into book/results")
    void collect() throws Exception {
        Path root = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        BookResults.collect(root, System.out::println).forEach(p -> System.out.println("result " + root.relativize(p)));
        writeIncidentTable(root);
        writeStoresTable(root);
        writeBaselineTable(root);
    }

    @Test
    @DisplayName("the baseline table is rewritten from the saved long runs (-Dlong's <module>/baseline-long.json)")
    void baselineTable() {
        Path root = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        assertThat(writeBaselineTable(root)).as("a saved long run").isTrue();
    }

    /** Rewrites {@code book/results/baseline-table.md} (+ .json) from the saved long runs; @return whether there were any */
    private static boolean writeBaselineTable(Path root) {
        archlab.compare.BaselineTable.Table table = archlab.compare.BaselineTable.read(root.resolve("book/results"));
        if (table.rows().isEmpty()) {
            return false;
        }
        System.out.println("result " + root.relativize(archlab.compare.BaselineTable.write(root.resolve("book/results"), table)));
        return true;
    }

    /** The saved baselines in memory and on PostgreSQL, each checkpoint's pair side by side: {@code book/results/stores.md} (+ .json). */
    private static void writeStoresTable(Path root) {
        List<Path> pairs = new java.util.ArrayList<>();
        for (String module : List.of("ch12-1-baseline", "ch12-2-cache-outbox-ratelimit", "ch12-3-fault-scenarios")) {
            Path memory = root.resolve("book/results/" + module + "/baseline.json");
            Path postgres = root.resolve("book/results/" + module + "/baseline-postgres.json");
            if (java.nio.file.Files.isRegularFile(memory) && java.nio.file.Files.isRegularFile(postgres)) {
                pairs.add(memory);
                pairs.add(postgres);
            }
        }
        if (!pairs.isEmpty()) {
            System.out.println("result " + root.relativize(archlab.compare.SideBySide.of(pairs).write(root.resolve("book/results"), "stores")));
        }
    }

    /** Rewrites {@code book/results/incident.md} (+ .json) from the saved incident reports, when there are any. */
    private static void writeIncidentTable(Path root) {
        List<archlab.compare.IncidentTable.Row> rows = archlab.compare.IncidentTable.read(root.resolve("book/results"));
        if (!rows.isEmpty()) {
            System.out.println("result " + root.relativize(archlab.compare.IncidentTable.write(root.resolve("book/results"), rows)));
        }
    }

    /**
     * The refresh's first step, before the load runs: brings the chapters' code excerpts up to date with the
     * sources (and their figures with the results already saved), so that the fast tests the load runs go
     * through, {@code BookInSyncTest} among them, do not fail on an excerpt of code that was just edited. The claims
     * tables of modules whose tests have not run since their sources changed are left as they are, and listed
     * ({@code refresh.sh} runs every module's fast tests first, which write their {@code target/reports/tests.json}).
     */
    @Test
    @DisplayName("syncing the chapters with the current sources and saved results leaves every marker in sync")
    void syncText() {
        Path root = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        BookSync sync = new BookSync(root);
        sync.notChecked().forEach(System.out::println);
        sync.refresh().forEach(p -> System.out.println("refreshed " + root.relativize(p)));
        assertThat(sync.check()).isEmpty();
    }
}
