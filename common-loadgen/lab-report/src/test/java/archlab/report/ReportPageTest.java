package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.RepoRoot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report page and its verdict, from the book's saved ch12-1 baseline report (a real run's JSON). */
class ReportPageTest {

    /** A script, style sheet or font the page would fetch: none may be remote. */
    private static final Pattern REMOTE = Pattern.compile(
            "<(script|link|img|iframe)[^>]+(src|href)\\s*=\\s*[\"']?https?:|@import|url\\(\\s*[\"']?https?:|@font-face",
            Pattern.CASE_INSENSITIVE);

    static Path savedBaseline(Path dir) throws Exception {
        Path root = RepoRoot.path();
        Path saved = root.resolve("book/results/ch12-1-baseline");
        Files.copy(saved.resolve("baseline.json"), dir.resolve("baseline.json"));
        Files.copy(saved.resolve("baseline.txt"), dir.resolve("baseline.txt"));
        return dir.resolve("baseline.json");
    }

    @Test
    @DisplayName("the page of a saved report is self-contained (no script, style or font fetched), carries the run's offered count, its verdict, its data and uPlot")
    void pageIsSelfContained(@TempDir Path dir) throws Exception {
        Path json = savedBaseline(dir);
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        List<String> verdict = RunVerdict.lines(report, Optional.empty());

        Path page = ReportPage.write(json, verdict);

        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(page.getFileName()).hasToString("baseline.html");
        assertThat(Files.size(page)).as("uPlot, the data and the report inlined").isGreaterThan(20_000);
        assertThat(REMOTE.matcher(html).find()).as("a remote script, style or font").isFalse();
        assertThat(html).contains(String.valueOf(report.path("run").path("offered").asLong()))
                .contains("<li>outcome: ").contains("const REPORT = {").contains("uPlot");
        assertThat(html.split("</script>", -1)).as("no data ends a script early: three scripts, three ends").hasSize(4);
    }

    @Test
    @DisplayName("the verdict of ch12-1's saved baseline names the lock wait as the limit, pay as the lock's holder, the money left charged but not PAID, and whether the machine disturbed the run")
    void verdictOfTheLockedBaseline(@TempDir Path dir) throws Exception {
        JsonNode report = new ObjectMapper().readTree(savedBaseline(dir).toFile());

        List<String> lines = RunVerdict.lines(report, Optional.of(report));

        assertThat(lines).hasSizeBetween(4, 6);
        assertThat(lines.get(0)).startsWith("outcome: ").contains("of 4500 requests completed");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("limited by: lock.wait, "));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("held: pay held the lock "));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("money: ").contains("charged but not PAID (nothing reconciles them)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("machine: (not )?disturbed: hiccup p99 .*"));
        assertThat(lines).last().asString().startsWith("book: its saved run of this report completed ");
    }

    @Test
    @DisplayName("a report whose names and text hold markup or a placeholder injects nothing: the page holds them as text, once")
    void hostileReportStaysText(@TempDir Path dir) throws Exception {
        String hostile = "x{{data}}</script><img src=x onerror=alert(1)>\u2028";
        com.fasterxml.jackson.databind.node.ObjectNode report = (com.fasterxml.jackson.databind.node.ObjectNode)
                new ObjectMapper().readTree(savedBaseline(dir).toFile());
        report.put("module", hostile);
        ((com.fasterxml.jackson.databind.node.ObjectNode) report.path("run").path("segments").get(0)).put("segment", hostile);

        String html = ReportPage.html(report, RunVerdict.lines(report, Optional.empty()), hostile, java.util.Map.of());

        assertThat(html).doesNotContain("<img").doesNotContain("{{data}}</").contains("x{{data}}&lt;/script&gt;");
        assertThat(html.split("</script>", -1)).as("three scripts, three ends").hasSize(4);
        assertThat(html.indexOf("const REPORT")).as("the data is inlined once").isEqualTo(html.lastIndexOf("const REPORT"));
    }

    @Test
    @DisplayName("text that would end a script or an attribute early is escaped: a report cannot inject markup into its page")
    void escaping() {
        assertThat(ReportPage.script("x</script><script>alert(1)</script>")).doesNotContain("</");
        assertThat(ReportPage.attribute("\"><script>")).isEqualTo("&quot;&gt;&lt;script&gt;");
        assertThat(ReportPage.text("<b>&")).isEqualTo("&lt;b&gt;&amp;");
    }

    @Test
    @DisplayName("a flame graph gets the script that opens its frame on its root, before its body ends or at its end")
    void flameGraphsOpenOnTheirRoot() {
        assertThat(ReportPage.opensOnItsRoot("<html><body><canvas></canvas></body></html>"))
                .isEqualTo("<html><body><canvas></canvas>" + ReportPage.OPEN_ON_ROOT + "</body></html>");
        assertThat(ReportPage.opensOnItsRoot("<canvas></canvas>")).isEqualTo("<canvas></canvas>" + ReportPage.OPEN_ON_ROOT);
    }
}
