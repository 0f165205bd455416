package archlab.book;

import archlab.compare.SavedReports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Copies the runs' saved reports into {@code book/results/}, where the chapters quote them from:
 * each module's {@code target/reports/*} to {@code book/results/<module>/}, the root's
 * {@code target/reports/*} (cross-module tables) to {@code book/results/}. Text, JSON and Markdown are
 * committed; {@code .jfr} recordings are copied for the flame graphs but ignored by git (they are large). A module's
 * {@code tests.json} (its test run's list of tests, which the claims tables read where it is) is not a result and
 * is not copied.
 *
 * <p>The trap: a module's {@code target/} keeps reports of earlier Maven sessions (a run that was not repeated
 * this time). Copying them would put figures of two different machine states side by side in one chapter. Only
 * the reports of one session are copied — the newest session found — with their {@code .txt}, {@code .md} and
 * {@code .jfr} siblings; every report of another session is listed as skipped.
 *
 * <p>Thread-safety: stateless.
 */
public final class BookResults {

    private BookResults() {
    }

    /** The module whose own reports (its grader's runs, its test list) are never results a page quotes. */
    static final String BOOK_MODULE = "book";

    /**
     * Copies the newest session's reports.
     *
     * @param skipped receives one line per report left out because another session wrote it
     * @return the files copied
     */
    public static List<Path> collect(Path root, Consumer<String> skipped) {
        String session = newestSession(root);
        List<Path> copied = new ArrayList<>();
        Path results = root.resolve("book/results");
        try {
            // the book module's own reports (its grader's runs, its test list) are not results a page quotes
            for (Path module : SavedReports.moduleFolders(root).stream().filter(p -> Files.isDirectory(p.resolve("target/reports")))
                    .filter(p -> !p.getFileName().toString().equals(BOOK_MODULE)).toList()) {
                Path target = results.resolve(SavedReports.resultsName(module));
                for (Path saved : copyReports(module.resolve("target/reports"), target, session, skipped)) {
                    if (copied.contains(saved)) { // two harness modules save into one folder: a report each, by name
                        throw new IllegalStateException(module + " wrote " + saved.getFileName() + ", which another module"
                                + " of " + SavedReports.resultsName(module) + " wrote in the same session: rename one");
                    }
                    copied.add(saved);
                }
            }
            if (Files.isDirectory(root.resolve("target/reports"))) {
                copied.addAll(copyReports(root.resolve("target/reports"), results, session, skipped));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot collect reports under " + root, e);
        }
        return copied;
    }

    /** @return the newest Maven session id among the modules' reports ("" when none has one) */
    static String newestSession(Path root) {
        String newest = "";
        for (Path f : SavedReports.jsonFiles(root)) {
            if (f.toAbsolutePath().normalize().startsWith(root.resolve(BOOK_MODULE).toAbsolutePath().normalize())) {
                continue; // as in collect: the book module's own reports are not the runs' session
            }
            String s = SavedReports.sessionOf(f);
            if (s.compareTo(newest) > 0) {
                newest = s;
            }
        }
        return newest;
    }

    private static List<Path> copyReports(Path from, Path to, String session, Consumer<String> skipped) throws IOException {
        List<Path> copied = new ArrayList<>();
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).filter(BookResults::isReport).sorted().toList()) {
                String written = sessionOfReport(f);
                if (written != null && !written.equals(session)) {
                    skipped.accept("skipped " + f + ": session " + written + ", not " + session);
                    continue;
                }
                Path dest = to.resolve(f.getFileName().toString());
                Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING);
                copied.add(dest);
            }
        }
        return copied;
    }

    /**
     * @return the session of a report file (its own, or its {@code .json} sibling's for {@code .txt}/{@code .md}/{@code .jfr});
     *         {@code null} when no sibling says (a table without a session, such as scenarios.json: copied as is)
     */
    private static String sessionOfReport(Path f) {
        String n = f.getFileName().toString();
        Path json = f.resolveSibling(n.substring(0, n.lastIndexOf('.')) + ".json");
        if (!Files.isRegularFile(json)) {
            return null;
        }
        String s = SavedReports.sessionOf(json);
        return s.isEmpty() ? null : s;
    }

    private static boolean isReport(Path f) {
        String n = f.getFileName().toString();
        return !n.equals("tests.json") && (n.endsWith(".txt") || n.endsWith(".json") || n.endsWith(".md") || n.endsWith(".jfr"));
    }
}
