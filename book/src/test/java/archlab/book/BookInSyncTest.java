package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The real book: every code excerpt, report line and figure in {@code book/*.md} equals what the lab's
 * sources and saved results say now. A code change that the chapters quote fails this test until
 * {@code bash book/refresh.sh} (or {@code BookSync refresh}) is run.
 */
class BookInSyncTest {

    @Test
    @DisplayName("the chapters' code excerpts, report lines and figures match the current sources and book/results")
    void chaptersMatchTheirSources() {
        Path root = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        assumeThat(Files.isDirectory(root.resolve("book"))).as("the project has a book/ folder").isTrue();
        assertThat(new BookSync(root).check()).isEmpty();
    }
}
