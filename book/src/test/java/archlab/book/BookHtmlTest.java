package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline HTML book ({@link BookHtml}) written from this clone's book/, read back without a browser. */
class BookHtmlTest {

    private static final Path BOOK = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath();
    private static final Pattern HREF = Pattern.compile("(?:href|src)=\"([^\"]+)\"");
    private static final Pattern ID = Pattern.compile(" id=\"([^\"]+)\"");

    @Test
    @DisplayName("the HTML book has a page per chapter, appendix and the guide in reading order, a contents page naming each, and every link to a page, a section or a file of the clone lands on something that exists")
    void everyPageAndLinkLands(@TempDir Path out) throws Exception {
        BookHtml.Written book = BookHtml.write(BOOK, out);

        assertThat(book.pages()).extracting(BookHtml.Page::source).startsWith("12-1-baseline.md", "12-2-cache-outbox-ratelimit.md",
                "12-3-fault-scenarios.md").contains("appendix-beyond-one-jvm.md", "guide.md").endsWith("carried-forward.md");
        String index = Files.readString(book.index(), StandardCharsets.UTF_8);
        book.pages().forEach(p -> assertThat(index).contains("href=\"" + p.html() + "\""));
        assertThat(index).contains("12-1-baseline.html#证据一中位数贴着超时线");

        List<String> broken = new ArrayList<>();
        List<String> written = new ArrayList<>(book.pages().stream().map(BookHtml.Page::html).toList());
        written.add("index.html");
        for (String page : written) {
            String html = Files.readString(out.resolve(page), StandardCharsets.UTF_8);
            assertThat(html).as(page).doesNotContain("href=\"12-1-baseline.md");
            Matcher m = HREF.matcher(html);
            while (m.find()) {
                String link = m.group(1);
                if (link.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // the web
                }
                String file = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
                String anchor = link.contains("#") ? decode(link.substring(link.indexOf('#') + 1)) : null;
                Path target = file.isEmpty() ? out.resolve(page) : out.resolve(decode(file)).normalize();
                if (!Files.exists(target)) {
                    broken.add(page + " -> " + link + " (no such file)");
                } else if (anchor != null && target.toString().endsWith(".html") && !ids(target).contains(anchor)) {
                    broken.add(page + " -> " + link + " (no such section)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    @DisplayName("a page's tables are HTML tables, its markers comments, its figures copied beside it")
    void tablesMarkersAndFigures(@TempDir Path out) throws Exception {
        BookHtml.write(BOOK, out);
        String chapter = Files.readString(out.resolve("12-3-fault-scenarios.html"), StandardCharsets.UTF_8);
        assertThat(chapter).contains("<table>").contains("<!--v:").doesNotContain("&lt;!--v:");
        assertThat(out.resolve("figures/scenarios.png")).isNotEmptyFile();
    }

    /** Percent-decoding as a browser reads an href (a '+' stays a '+'). */
    private static String decode(String s) {
        return java.net.URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static Set<String> ids(Path html) throws java.io.IOException {
        Matcher m = ID.matcher(Files.readString(html, StandardCharsets.UTF_8));
        Set<String> ids = new java.util.HashSet<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
