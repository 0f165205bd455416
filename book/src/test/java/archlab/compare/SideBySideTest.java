package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The side-by-side table, on reports written by hand: every figure it prints is one the reports hold, computed as stated. */
class SideBySideTest {

    @TempDir
    Path root;

    @Test
    @DisplayName("one column per report, in the order given; each figure read from the report, derived ones computed as documented")
    void figuresComeFromTheReports() {
        Path a = HandMadeReports.write(root, "a.json", HandMadeReports.report("ch-a", "baseline", 4500, 3000, 200_000, 210_000, 190_000L, true));
        Path b = HandMadeReports.write(root, "b.json", HandMadeReports.report("ch-b", "baseline", 4500, 4500, 9_000, 7_500, null, false));

        SideBySide table = SideBySide.of(List.of(a, b));

        assertThat(table.columns()).extracting(SideBySide.Column::id).containsExactly("ch-a/baseline", "ch-b/baseline");
        assertThat(table.value("offered", "ch-a/baseline")).isEqualTo(4500.0);
        assertThat(table.value("completed", "ch-b/baseline")).isEqualTo(4500.0);
        assertThat(table.value("timed_out", "ch-a/baseline")).isEqualTo(4500.0 - 3000 - 3);
        assertThat(table.value("rejected", "ch-a/baseline")).isEqualTo(2.0);
        assertThat(table.value("rps_completed", "ch-a/baseline")).as("completed / wall (2 s)").isEqualTo(1500.0);
        assertThat(table.value("p99_ms", "ch-a/baseline")).isEqualTo(200.0);
        assertThat(table.value("pay p99_ms", "ch-b/baseline")).isEqualTo(7.5);
        assertThat(table.value("get p99_ms", "ch-a/baseline")).isEqualTo(190.0);
        assertThat(table.value("get p99_ms", "ch-b/baseline")).as("an operation a report lacks").isNull();
        assertThat(table.value("send_lag_p99_ms", "ch-a/baseline")).isEqualTo(1.5);
        assertThat(table.value("hiccup_p99_ms", "ch-b/baseline")).as("the machine's own stalls").isEqualTo(2.5);
        assertThat(table.value("charged_not_paid", "ch-a/baseline")).isEqualTo(4.0);
        assertThat(table.value("lock_wait_ms (traced)", "ch-a/baseline")).as("Σ lock.wait self time, 3 + 1.5 ms").isEqualTo(4.5);
        assertThat(table.value("lock_wait_ms (JFR)", "ch-a/baseline")).as("Σ by blocker, 2 + 0.5 ms").isEqualTo(2.5);
        assertThat(table.value("lock_wait_ms (JFR)", "ch-b/baseline")).as("no profile").isNull();
        assertThat(table.value("alloc_per_request_KiB (JFR)", "ch-a/baseline")).isEqualTo(2.0);
        assertThat(table.value("cache_hit_ratio", "ch-b/baseline")).isEqualTo(0.25);
        assertThat(table.value("outbox_drained", "ch-a/baseline")).isEqualTo(true);
        assertThat(table.value("downstream_latency", "ch-a/baseline")).as("text extras are not rows").isNull();
        assertThat(table.value("report time (UTC)", "ch-a/baseline")).isEqualTo("2026-12-02T10:00:00Z");
        assertThat(table.value("session", "ch-a/baseline")).isEqualTo("s1");
    }

    @Test
    @DisplayName("a report saved before runs had a hiccup probe shows its hiccup row as missing, never as 0")
    void reportWithoutHiccups(@TempDir Path root) {
        String json = HandMadeReports.report("ch-a", "baseline", 4500, 3000, 200_000, 180_000, 190_000L, false)
                .replace("\"hiccups\": {\"samples\": 3000, \"p99Micros\": 2500},", "");
        SideBySide table = SideBySide.of(List.of(HandMadeReports.write(root, "old.json", json)));
        assertThat(table.value("hiccup_p99_ms", "ch-a/baseline")).isNull();
        assertThat(table.value("send_lag_p99_ms", "ch-a/baseline")).isEqualTo(1.5);
    }

    @Test
    @DisplayName("Markdown has a header with every column and one line per figure; a missing figure shows as –")
    void markdownShape() {
        Path a = HandMadeReports.write(root, "a.json", HandMadeReports.report("ch-a", "baseline", 4500, 3000, 200_000, 210_000, 190_000L, true));
        Path b = HandMadeReports.write(root, "b.json", HandMadeReports.report("ch-b", "run2", 4500, 4500, 9_000, 7_500, null, false));

        String md = SideBySide.of(List.of(a, b)).markdown();

        List<String> lines = md.lines().toList();
        assertThat(lines.get(0)).isEqualTo("| metric | ch-a/baseline | ch-b/run2 |");
        assertThat(lines.get(1)).isEqualTo("| --- | ---: | ---: |");
        assertThat(md).contains("| offered | 4500 | 4500 |").contains("| get p99_ms | 190 | – |")
                .contains("| pay p99_ms | 210 | 7.500 |");
        assertThat(lines).allMatch(l -> l.chars().filter(c -> c == '|').count() == 4);
    }

    @Test
    @DisplayName("findReports lists each module's target/reports run reports, baseline first, and skips other JSON")
    void findsReportsUnderModules() throws Exception {
        HandMadeReports.write(root.resolve("m1/target/reports"), "z-run.json", HandMadeReports.report("m1", "z-run", 1, 1, 1, 1, null, false));
        HandMadeReports.write(root.resolve("m1/target/reports"), "baseline.json", HandMadeReports.report("m1", "baseline", 1, 1, 1, 1, null, false));
        HandMadeReports.write(root.resolve("m1/target/reports"), "side-by-side.json", "{\"columns\": [], \"rows\": []}");
        HandMadeReports.write(root.resolve("m1/target/reports"), "broken.json", "{not json");
        HandMadeReports.write(root.resolve("m0/target/reports"), "a.json", HandMadeReports.report("m0", "a", 1, 1, 1, 1, null, false));
        Files.createDirectories(root.resolve("no-target"));

        List<Path> found = SideBySide.findReports(root);

        assertThat(found).extracting(p -> root.relativize(p).toString().replace('\\', '/'))
                .containsExactly("m0/target/reports/a.json", "m1/target/reports/baseline.json", "m1/target/reports/z-run.json");
    }

    @Test
    @DisplayName("write saves side-by-side.md and side-by-side.json; the JSON holds the same columns and rows")
    void writesMarkdownAndJson() throws Exception {
        Path a = HandMadeReports.write(root, "a.json", HandMadeReports.report("ch-a", "baseline", 10, 8, 100, 100, null, false));
        SideBySide table = SideBySide.of(List.of(a));

        Path md = table.write(root.resolve("out"));

        assertThat(Files.readString(md)).isEqualTo(table.markdown());
        JsonNode json = new ObjectMapper().readTree(root.resolve("out/side-by-side.json").toFile());
        assertThat(json.path("columns").get(0).path("id").asText()).isEqualTo("ch-a/baseline");
        assertThat(json.path("rows").size()).isEqualTo(table.rows().size());
        assertThat(json.path("rows").get(2).path("metric").asText()).isEqualTo("offered");
        assertThat(json.path("rows").get(2).path("values").get(0).asDouble()).isEqualTo(10.0);
    }

    @Test
    @DisplayName("a missing file, a file that is not JSON, or JSON that is not a run report is refused with a message naming the file")
    void badInputIsRefused() {
        Path notJson = HandMadeReports.write(root, "x.json", "{oops");
        Path notReport = HandMadeReports.write(root, "y.json", "{\"hello\": 1}");

        assertThatThrownBy(() -> SideBySide.of(List.of(root.resolve("missing.json"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not found").hasMessageContaining("missing.json");
        assertThatThrownBy(() -> SideBySide.of(List.of(notJson)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a JSON file").hasMessageContaining("x.json");
        assertThatThrownBy(() -> SideBySide.of(List.of(notReport)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a run report").hasMessageContaining("y.json");
        assertThatThrownBy(() -> SideBySide.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @org.junit.jupiter.api.DisplayName("a session's table takes that session's reports, and only a stale module's baseline, never its other stale runs")
    void sessionFilter() {
        HandMadeReports.write(root.resolve("m1/target/reports"), "baseline.json",
                HandMadeReports.report("m1", "baseline", 1, 1, 1, 1, null, false));
        HandMadeReports.write(root.resolve("m1/target/reports"), "old-run.json",
                HandMadeReports.report("m1", "old-run", 1, 1, 1, 1, null, false));
        HandMadeReports.write(root.resolve("m2/target/reports"), "baseline.json",
                HandMadeReports.report("m2", "baseline", 1, 1, 1, 1, null, false).replace("\"s1\"", "\"s2\""));
        HandMadeReports.write(root.resolve("m2/target/reports"), "stale.json",
                HandMadeReports.report("m2", "stale", 1, 1, 1, 1, null, false));

        assertThat(SideBySide.findReports(root, "s2")).extracting(p -> root.relativize(p).toString())
                .containsExactly("m1/target/reports/baseline.json", "m2/target/reports/baseline.json");
    }
}
