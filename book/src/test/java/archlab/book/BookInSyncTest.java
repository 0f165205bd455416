package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The real book: every code excerpt, report line, value and claims table in {@code book/*.md} equals what the
 * lab's sources, the modules' test runs ({@code target/reports/tests.json}) and saved results say now, every sentence's holds condition is true of the saved
 * results, and every figure is linked from a page and present. A code change that the chapters quote fails this
 * test until {@code bash book/refresh.sh} (or {@code BookSync refresh}) is run; a refresh after which a sentence
 * says the opposite of its numbers fails it until the sentence is rewritten. A claims table whose module's tests
 * have not run (say {@code mvn -pl book test} on a fresh clone) is not checked, and the second test says so
 * as a skipped test; the root {@code mvn test} builds the book last, so there every table is checked (the book's
 * own table too: its run writes its {@code tests.json} before this test starts).
 */
class BookInSyncTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();

    @Test
    @DisplayName("the chapters' code excerpts, report lines, values and claims tables match the current sources, tests and book/results; every holds condition is true; every figure is linked and present")
    void chaptersMatchTheirSources() {
        assumeThat(Files.isDirectory(ROOT.resolve("book"))).as("the project has a book/ folder").isTrue();
        BookSync sync = new BookSync(ROOT);
        sync.notChecked().forEach(System.out::println);
        assertThat(sync.check()).isEmpty();
    }

    @Test
    @DisplayName("every claims table was checked against its module's test run (skipped, saying which, when some module's tests have not run)")
    void everyClaimsTableWasChecked() {
        assumeThat(Files.isDirectory(ROOT.resolve("book"))).as("the project has a book/ folder").isTrue();
        assumeThat(new BookSync(ROOT).notChecked()).as("claims tables not checked").isEmpty();
    }
}
