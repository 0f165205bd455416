package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.HeadlessChromium;
import archlab.loadgen.testing.MultiSecondCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML book ({@link BookHtml}) in a real browser: headless Chromium, offline, opens every page, and this test reads
 * what each page's script marked on {@code <body>}: images that did not load, marker text left visible outside code,
 * tables drawn. It leaves a screenshot of 12.1's page, {@code target/reports/book-12-1.png}, for a person to look at.
 */
@MultiSecondCheck
class BookHtmlInBrowserTest {

    private static final Path BOOK = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath();

    @Test
    @DisplayName("in headless Chromium, offline, every page of the HTML book shows all its images and no marker text outside code, 12.3 draws its tables; a page with a broken marker or image is caught")
    void everyPageShowsWhatItShould(@TempDir Path dir) throws Exception {
        Optional<HeadlessChromium> browser = HeadlessChromium.find();
        Assumptions.assumeTrue(browser.isPresent(), HeadlessChromium.MISSING);
        BookHtml.Written book = BookHtml.write(BOOK, dir.resolve("html"));
        List<String> wrong = new ArrayList<>();
        for (BookHtml.Page p : book.pages()) {
            String dom = browser.get().dom(book.dir().resolve(p.html()), dir);
            if (!HeadlessChromium.bodyAttribute(dom, "marker-text").equals("false")
                    || !HeadlessChromium.bodyAttribute(dom, "images-broken").isEmpty()) {
                wrong.add(p.html() + ": " + HeadlessChromium.bodyAttributes(dom).strip());
            }
        }
        assertThat(wrong).isEmpty();
        String chapter = browser.get().dom(book.dir().resolve("12-3-fault-scenarios.html"), dir);
        assertThat(HeadlessChromium.bodyAttribute(chapter, "tables")).as("12.3's tables drawn").isNotIn("", "0");
        assertThat(HeadlessChromium.bodyAttribute(chapter, "images")).as("12.3's figures").isNotIn("", "0");

        Path broken = book.dir().resolve("broken.html");
        Files.writeString(broken, Files.readString(book.dir().resolve("12-1-baseline.html"))
                .replaceFirst("<p>", "<p>&lt;!--v:x.json:y|%.0f--&gt;575 <img src=\"figures/none.png\">"));
        String caught = browser.get().dom(broken, dir);
        assertThat(HeadlessChromium.bodyAttribute(caught, "marker-text")).isEqualTo("true");
        assertThat(HeadlessChromium.bodyAttribute(caught, "images-broken")).isEqualTo("figures/none.png");

        Path reports = Path.of(System.getProperty("archlab.reports.dir", "target/reports")).toAbsolutePath();
        Files.createDirectories(reports);
        browser.get().screenshot(book.dir().resolve("12-1-baseline.html"), dir, reports.resolve("book-12-1.png"));
        assertThat(reports.resolve("book-12-1.png")).isNotEmptyFile();
    }
}
