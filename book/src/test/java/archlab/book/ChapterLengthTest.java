package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A chapter is a chapter, not a lab report: each of 12.1, 12.2 and 12.3 holds at most {@value #MOST_HAN} Han characters
 * of prose (the original section 12.1 has about 1,700). What the lab adds beyond the section's path — HTTP and wrk,
 * PostgreSQL, Redis, two instances, SIGKILL, the article's incident, the scenario table's other rows, the paired
 * cache runs — lives in the appendices, each reached from its chapter by one short paragraph.
 *
 * <p>Counted: CJK ideographs outside fenced code, inline code and HTML comments (the markers), so quoted code, report
 * excerpts and the conditions a sentence carries do not count; table cells and headings do.
 */
class ChapterLengthTest {

    /** The most Han characters of prose a chapter may hold. */
    static final int MOST_HAN = 4_500;

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\n]*`");

    @Test
    @DisplayName("each chapter (book/12-*.md) holds at most 4,500 Han characters outside code and comments")
    void chaptersAreChapterLength() throws IOException {
        Map<String, Integer> han = new LinkedHashMap<>();
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            for (Path p : md.filter(f -> f.getFileName().toString().matches("12-\\d-.*\\.md")).sorted().toList()) {
                han.put(p.getFileName().toString(), han(Files.readString(p, StandardCharsets.UTF_8)));
            }
        }
        assertThat(han).as("the three chapters").hasSize(3);
        assertThat(han).allSatisfy((page, n) -> assertThat(n).as(page + ": Han characters of prose").isLessThanOrEqualTo(MOST_HAN));
    }

    @Test
    @DisplayName("the count leaves out fenced code, inline code and comments, and counts headings and table cells")
    void countsProseOnly() {
        assertThat(han("# 标题\n\n正文三字 `代码` <!-- 注释 -->\n\n```java\n// 中文注释\n```\n\n| 表头 |\n| --- |\n| 单元 |\n"))
                .isEqualTo(2 + 4 + 2 + 2);
    }

    /** @return the Han characters of {@code markdown} outside code and comments */
    static int han(String markdown) {
        String prose = INLINE_CODE.matcher(Prose.withoutFencesAndComments(markdown)).replaceAll("");
        return (int) prose.codePoints().filter(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN
                && Character.isIdeographic(c)).count();
    }
}
