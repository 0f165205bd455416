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
 * What a reader sees of a table: a real Markdown table, not rows in a code fence (a fence keeps every character and a
 * printed page cuts it off), and on no page wider than {@value ResultLookups#WIDEST_TABLE} columns. A wider table is read
 * in its saved file under {@code book/results/}, which a page links to.
 */
class PageTablesTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();

    @Test
    @DisplayName("no page of the book shows a table inside a code fence or one wider than 8 columns")
    void tablesAreRealAndFitAPage() throws IOException {
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> md = Files.list(ROOT.resolve("book"))) {
            for (Path p : md.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                String name = p.getFileName().toString();
                List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
                boolean fenced = false;
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i).strip();
                    if (l.startsWith("```")) {
                        fenced = !fenced;
                        continue;
                    }
                    if (!isTableSeparator(l)) {
                        continue;
                    }
                    int columns = l.split("\\|", -1).length - 2;
                    if (fenced) {
                        wrong.add(name + ":" + (i + 1) + " a table inside a code fence");
                    } else if (columns > ResultLookups.WIDEST_TABLE) {
                        wrong.add(name + ":" + (i + 1) + " a table of " + columns + " columns");
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    @DisplayName("a table's separator row is told from other lines: pipes around dashes, colons allowed")
    void separatorRows() {
        assertThat(isTableSeparator("| --- | ---: | :---: |")).isTrue();
        assertThat(isTableSeparator("|---|---|")).isTrue();
        assertThat(isTableSeparator("| a | b |")).isFalse();
        assertThat(isTableSeparator("----")).isFalse();
        assertThat(isTableSeparator("x | --- |")).isFalse();
    }

    /** A Markdown table's second row: {@code | --- | ---: |}, each cell dashes with optional colons. */
    static boolean isTableSeparator(String line) {
        return line.matches("\\|(\\s*:?-{3,}:?\\s*\\|)+");
    }
}
