package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The book's words about its sources are the sources' words. A quote of the book section or the article is written in
 * corner brackets, 「…」, and must be found, character for character, in the source documents
 * ({@code ../shared/seeds}, beside the clone); a sentence that names a source ("原书", "文章", 《延迟优化实战复盘》)
 * may not put words in curly quotes (“…”), where a paraphrase would pass for a quote — only the lab's own short
 * terms (three characters or fewer, such as “原书” or “1ms”) may stay there.
 *
 * <p>The trap it catches: a figure or phrase remembered rather than copied ("1 万条、±20 %" where the article says
 * 「设置最大条目数和 5 秒过期时间」), which no other check sees. Skipped, saying so, where the sources are not beside
 * the clone.
 */
class SourceQuotesTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Path SEEDS = ROOT.resolveSibling("shared").resolve("seeds");
    private static final Pattern CORNER = Pattern.compile("「([^」]*)」");
    private static final Pattern CURLY = Pattern.compile("“([^”]*)”");
    private static final Pattern NAMES_A_SOURCE = Pattern.compile("文章|原文|原书|《延迟优化实战复盘》");
    /** Code fences, comments (markers and conditions) and inline code: none of them is the book's prose. */
    private static final Pattern HIDDEN = Pattern.compile("```.*?```|<!--.*?-->|`[^`\n]*`", Pattern.DOTALL);
    private static final int LONGEST_OWN_TERM = 3;

    /** @return the chapters, appendices and guide, as (file, text without code fences and markers' comments) */
    private static List<String[]> bookText() throws IOException {
        List<String[]> files = new ArrayList<>();
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            for (Path p : md.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                String text = HIDDEN.matcher(Files.readString(p, StandardCharsets.UTF_8)).replaceAll(" ");
                files.add(new String[] {ROOT.relativize(p).toString(), text});
            }
        }
        return files;
    }

    private static String seeds() throws IOException {
        if (!Files.isDirectory(SEEDS)) {
            String why = "the source documents are not beside this clone (" + SEEDS + "): quotes not checked";
            System.out.println("[book] skipped: " + why);
            Assumptions.abort(why);
        }
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.list(SEEDS)) {
            for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
                all.append(Files.readString(p, StandardCharsets.UTF_8)).append('\n');
            }
        }
        return all.toString();
    }

    @Test
    @DisplayName("every quote in corner brackets in the book is found, character for character, in the source documents")
    void everyCornerQuoteIsInTheSources() throws IOException {
        String seeds = seeds();
        List<String> notFound = new ArrayList<>();
        int quotes = 0;
        for (String[] file : bookText()) {
            Matcher m = CORNER.matcher(file[1]);
            while (m.find()) {
                quotes++;
                if (m.group(1).isBlank() || !seeds.contains(m.group(1))) {
                    notFound.add(file[0] + ": 「" + m.group(1) + "」");
                }
            }
        }
        assertThat(quotes).as("quotes checked").isPositive();
        assertThat(notFound).as("quotes not in ../shared/seeds (copy them from the source, or drop the brackets and say it is the lab's)")
                .isEmpty();
    }

    @Test
    @DisplayName("a sentence that names a source puts no words of more than three characters in curly quotes: the source's words go in corner brackets, the lab's own are not quoted")
    void aSentenceNamingASourceQuotesOnlyInCornerBrackets() throws IOException {
        seeds();
        List<String> curly = new ArrayList<>();
        for (String[] file : bookText()) {
            for (String sentence : file[1].split("(?<=[。！？\n])")) {
                if (!NAMES_A_SOURCE.matcher(sentence).find()) {
                    continue;
                }
                Matcher m = CURLY.matcher(sentence);
                while (m.find()) {
                    if (m.group(1).codePointCount(0, m.group(1).length()) > LONGEST_OWN_TERM) {
                        curly.add(file[0] + ": “" + m.group(1) + "” in: " + sentence.strip());
                    }
                }
            }
        }
        assertThat(curly).isEmpty();
    }
}
