package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The book's pages as a reader sees them, parsed by a real CommonMark parser with GitHub's tables (commonmark-java).
 * The trap it guards: a page that looks right in its source and renders wrong — a value marker inside a table cell
 * whose format ({@code |%.0f}) is a pipe, which GitHub takes for a cell border, so the reader sees
 * {@code <!--v:…} and {@code %.0f-->575} as text and the columns after it shift; a row with a cell more or fewer than its
 * header, whose extra cell GitHub drops without a word.
 *
 * <p>What counts as visible: the text of the parsed page (not raw HTML, not code), where no {@code <!--} or {@code -->}
 * may be left. A table's rows are counted from their source lines, split on the pipes GitHub splits on (every pipe
 * not escaped with a backslash, code spans included).
 */
class RenderedPagesTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();

    private static final Parser GFM = Parser.builder().extensions(List.of(TablesExtension.create()))
            .includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

    @Test
    @DisplayName("no page of the book (authoring.md, which shows the markers' syntax, aside), rendered as GitHub renders it, shows marker text (<!-- or -->) outside code")
    void noMarkerTextIsVisible() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path page : pages().stream().filter(p -> !p.getFileName().toString().equals("authoring.md")).toList()) {
            visibleMarkerText(Files.readString(page, StandardCharsets.UTF_8))
                    .forEach(text -> wrong.add(page.getFileName() + ": " + text));
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    @DisplayName("every table row of every page has as many cells as its header, and no table is wider than 8 columns")
    void tableRowsMatchTheirHeader() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Path page : pages()) {
            tableProblems(Files.readString(page, StandardCharsets.UTF_8)).forEach(p -> wrong.add(page.getFileName() + ":" + p));
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    @DisplayName("the checks see what GitHub shows: a value marker with a pipe in a table cell is visible text and a row with an extra cell, a marker in a paragraph or in code is not")
    void theChecksCatchWhatTheyClaim() {
        String broken = "| a | b |\n| --- | --- |\n| x | <!--v:f.json:rows[tool=x].p50|%.0f-->575<!--/v--> |\n";
        assertThat(visibleMarkerText(broken)).isNotEmpty();
        assertThat(tableProblems(broken)).singleElement().asString().contains("3 cells, its header 2");
        String fine = "Text <!--v:f.json:x|%.0f-->5<!--/v--> and `<!-- code -->`.\n\n<!-- holds: a > b -->\n\n"
                + "| a | b |\n| --- | --- |\n| `x \\| y` | 5 |\n";
        assertThat(visibleMarkerText(fine)).isEmpty();
        assertThat(tableProblems(fine)).isEmpty();
        assertThat(cells("| a \\| b | `c` | d |")).isEqualTo(3);
        assertThat(cells("| a \\\\| b |")).as("a backslash before an escaped pipe: still an escaped pipe").isEqualTo(1);
        assertThat(tableProblems("| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |\n|---|---|---|---|---|---|---|---|---|\n| a | b | c | d | e | f | g | h | i |\n"))
                .singleElement().asString().contains("a table of 9 columns");
    }

    /** The book's pages: every Markdown file of book/ (authoring.md's subject is the markers' syntax: it shows them). */
    private static List<Path> pages() throws IOException {
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            return md.filter(f -> f.toString().endsWith(".md")).sorted().toList();
        }
    }

    /** @return each text node of the rendered page that shows marker syntax */
    static List<String> visibleMarkerText(String markdown) {
        List<String> found = new ArrayList<>();
        GFM.parse(markdown).accept(new AbstractVisitor() {
            @Override
            public void visit(Text text) {
                String s = text.getLiteral();
                if (s.contains("<!--") || s.contains("-->")) {
                    found.add(s.length() > 120 ? s.substring(0, 120) + "…" : s);
                }
            }

            @Override
            public void visit(Code code) {
                // code is shown as written: a marker quoted in code is meant to be seen
            }
        });
        return found;
    }

    /** @return for each table row whose cells differ from its header's, or table wider than the book's limit, where and why */
    static List<String> tableProblems(String markdown) {
        String[] lines = markdown.split("\n", -1);
        List<String> problems = new ArrayList<>();
        GFM.parse(markdown).accept(new AbstractVisitor() {
            @Override
            public void visit(CustomBlock block) {
                if (block instanceof TableBlock table) {
                    check(table, lines, problems);
                }
                visitChildren(block);
            }
        });
        return problems;
    }

    private static void check(Node table, String[] lines, List<String> problems) {
        int first = table.getSourceSpans().get(0).getLineIndex();
        int last = table.getSourceSpans().get(table.getSourceSpans().size() - 1).getLineIndex();
        int header = cells(lines[first]);
        if (header > ResultLookups.WIDEST_TABLE) {
            problems.add((first + 1) + " a table of " + header + " columns");
        }
        for (int i = first + 2; i <= last; i++) {
            int n = cells(lines[i]);
            if (n != header) {
                problems.add((i + 1) + " a row of " + n + " cells, its header " + header);
            }
        }
    }

    /** @return the cells GitHub splits a table row into: every pipe not escaped is a border */
    static int cells(String row) {
        String s = row.strip();
        int borders = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '|') {
                i++; // an escaped pipe is text, whatever comes before the backslash
            } else if (s.charAt(i) == '|') {
                borders++;
            }
        }
        boolean leading = s.startsWith("|");
        boolean trailing = s.endsWith("|") && !s.endsWith("\\|") && s.length() > 1;
        return borders + 1 - (leading ? 1 : 0) - (trailing ? 1 : 0);
    }
}
