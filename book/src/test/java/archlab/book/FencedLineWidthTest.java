package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What a page can print: no line inside a code fence of the book is wider than {@value ResultLookups#WIDEST_FENCED_LINE}
 * characters. A fenced line is never wrapped by the renderer, so a wider one runs off a printed page; report excerpts
 * are wrapped at spaces when they are rendered ({@link ResultLookups#reportLines}), tables narrowed to the columns the
 * text reads, code excerpts kept narrow in their source.
 */
class FencedLineWidthTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();

    @Test
    @DisplayName("no line inside a code fence of a chapter, appendix, the guide or the book's README is wider than 200 characters")
    void fencedLinesFitAPage() throws IOException {
        List<String> wide = new ArrayList<>();
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            for (Path p : md.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
                boolean fenced = false;
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i);
                    if (l.startsWith("```")) {
                        fenced = !fenced;
                        continue;
                    }
                    int width = l.codePointCount(0, l.length());
                    if (fenced && width > ResultLookups.WIDEST_FENCED_LINE) {
                        wide.add(ROOT.relativize(p) + ":" + (i + 1) + " (" + width + " characters)");
                    }
                }
            }
        }
        assertThat(wide).isEmpty();
    }

    @Test
    @DisplayName("a report line wider than a page is wrapped at spaces, its continuations indented, no word lost")
    void reportLinesAreWrapped() {
        String line = "op=create " + "figure=12345 ".repeat(30).strip();
        List<String> pieces = ResultLookups.wrapped(line);
        assertThat(pieces).hasSizeGreaterThan(1).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(200));
        assertThat(pieces.subList(1, pieces.size())).allSatisfy(p -> assertThat(p).startsWith("    "));
        assertThat(String.join(" ", pieces.stream().map(String::strip).toList())).isEqualTo(line);
        assertThat(ResultLookups.wrapped("short line")).containsExactly("short line");
    }
}
