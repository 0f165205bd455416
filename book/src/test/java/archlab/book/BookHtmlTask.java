package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The command that writes the offline HTML book: {@code mvn -pl book test -Dbook.html} → {@code book/target/html/index.html}. */
@EnabledIfSystemProperty(named = "book.html", matches = ".*", disabledReason = "writes the HTML book: mvn -pl book test -Dbook.html")
class BookHtmlTask {

    @Test
    @DisplayName("mvn -pl book test -Dbook.html writes the book's pages and contents under book/target/html")
    void writeTheBook() throws Exception {
        Path book = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath();
        BookHtml.Written written = BookHtml.write(book, book.resolve("target/html"));
        System.out.println("the book: " + written.index().toUri() + " (" + written.pages().size() + " pages)");
        assertThat(written.index()).isNotEmptyFile();
    }
}
