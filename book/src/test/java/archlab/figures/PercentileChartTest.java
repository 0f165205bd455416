package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.LatencyHistogram;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The percentile chart, rendered from hand-made histograms and reports into a temporary folder. */
class PercentileChartTest {

    @Test
    @DisplayName("the curve walks the histogram's percentiles below 100% with x = 1/(1−p) rising and latency in ms")
    void curve() {
        Histogram h = Samples.latencies(2_000, 10, 200, 7).microsCopy();
        double[][] c = PercentileChart.curve(h);
        assertThat(c[0]).hasSameSizeAs(c[1]).hasSizeGreaterThan(10);
        assertThat(c[0][0]).isEqualTo(1.0);
        for (int i = 1; i < c[0].length; i++) {
            assertThat(c[0][i]).isGreaterThanOrEqualTo(c[0][i - 1]);
            assertThat(c[1][i]).isGreaterThanOrEqualTo(c[1][i - 1]);
        }
        assertThat(c[1][c[1].length - 1]).isBetween(10.0, 200.5);
        assertThat(PercentileChart.curve(new LatencyHistogram().microsCopy())[0]).isEmpty();
    }

    @Test
    @DisplayName("one line per report, labelled by module, renders to a valid PNG")
    void reportsSideBySide(@TempDir Path dir) {
        Path a = Samples.runReport(dir.resolve("a/baseline.json"), "ch12-1-baseline", "baseline",
                Map.of("pay", Samples.latencies(500, 190, 230, 1)));
        Path b = Samples.runReport(dir.resolve("b/baseline.json"), "ch12-2-cache-outbox-ratelimit", "baseline",
                Map.of("pay", Samples.latencies(500, 9, 40, 2)));
        Path png = PercentileChart.renderReports(List.of(a, b), dir.resolve("out/percentiles-baseline.png"));
        Pngs.assertPng(png, PercentileChart.WIDTH, PercentileChart.HEIGHT);
    }

    @Test
    @DisplayName("the per-operation variant draws create / get / pay of one report from run.operations.<op>.latency")
    void perOperation(@TempDir Path dir) {
        Map<String, LatencyHistogram> ops = new LinkedHashMap<>();
        ops.put("create", Samples.latencies(400, 3, 20, 3));
        ops.put("get", Samples.latencies(350, 2, 15, 4));
        ops.put("pay", Samples.latencies(250, 9, 60, 5));
        Path report = Samples.runReport(dir.resolve("baseline.json"), "m", "baseline", ops);
        Pngs.assertPng(PercentileChart.renderOperations(report, dir.resolve("by-op.png")),
                PercentileChart.WIDTH, PercentileChart.HEIGHT);
        assertThat(SavedRunReport.read(report).operations()).containsOnlyKeys("create", "get", "pay");
    }

    @Test
    @DisplayName("lines drawn later are narrower, so that none hides an earlier one with the same latencies; a second run of a checkpoint keeps its colour, dashed; operations take no checkpoint's colour")
    void lineStyles() {
        List<PercentileChart.LineStyle> styles = PercentileChart.styles(List.of(
                "ch12-1-baseline / baseline", "ch12-3-fault-scenarios / baseline", "ch12-1-baseline / overload"));
        assertThat(styles.get(0).widthPx()).isGreaterThan(styles.get(1).widthPx());
        assertThat(styles.get(1).widthPx()).isGreaterThan(styles.get(2).widthPx());
        assertThat(styles).extracting(PercentileChart.LineStyle::colour).containsExactly(
                CheckpointColours.VERMILLION, CheckpointColours.BLUISH_GREEN, CheckpointColours.VERMILLION);
        assertThat(styles).extracting(PercentileChart.LineStyle::dashed).containsExactly(false, false, true);
        assertThat(PercentileChart.styles(List.of("create", "get", "pay"))).extracting(PercentileChart.LineStyle::colour)
                .doesNotHaveDuplicates().doesNotContainAnyElementsOf(CheckpointColours.CHECKPOINTS.stream()
                        .map(CheckpointColours.Checkpoint::colour).toList());
    }

    @Test
    @DisplayName("a chart with nothing to draw is refused with a message instead of an empty picture")
    void nothingToDraw(@TempDir Path dir) {
        assertThatThrownBy(() -> PercentileChart.render("t",
                List.of(new PercentileChart.Series("empty", new LatencyHistogram().microsCopy())),
                Duration.ofMillis(200), dir.resolve("x.png")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no histogram with a sample");
    }

    @Test
    @DisplayName("per-operation charts of one module's runs that differ only in their last word share their scale; other runs keep their own")
    void sharedTops(@TempDir Path dir) {
        Path on = Samples.runReport(dir.resolve("cache-read-1ms-on.json"), "ch12-2-cache-outbox-ratelimit", "cache-read-1ms-on",
                Map.of("get", Samples.latencies(500, 2, 15, 1)));
        Path off = Samples.runReport(dir.resolve("cache-read-1ms-off.json"), "ch12-2-cache-outbox-ratelimit", "cache-read-1ms-off",
                Map.of("get", Samples.latencies(500, 2, 4, 2)));
        Path other = Samples.runReport(dir.resolve("x/cache-read-1ms-on.json"), "ch12-3-fault-scenarios", "cache-read-1ms-on",
                Map.of("get", Samples.latencies(500, 1, 2, 3)));
        Path alone = Samples.runReport(dir.resolve("baseline.json"), "ch12-2-cache-outbox-ratelimit", "baseline",
                Map.of("get", Samples.latencies(500, 1, 3, 4)));

        Map<Path, Double> tops = PercentileChart.sharedTops(List.of(on, off, other, alone));

        assertThat(tops.get(on)).isEqualTo(tops.get(off)).isGreaterThan(4.5);
        assertThat(tops.get(other)).as("another module: its own group").isLessThan(2.5);
        assertThat(tops.get(alone)).isLessThan(3.5);
        Path png = PercentileChart.renderOperations(off, dir.resolve("off.png"), tops.get(off));
        Pngs.assertPng(png, PercentileChart.WIDTH, PercentileChart.HEIGHT);
    }
}
