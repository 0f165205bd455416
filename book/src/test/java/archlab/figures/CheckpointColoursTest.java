package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.compare.ScenarioTable;
import java.awt.Color;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/** One colour per checkpoint in every figure, and none of those colours for anything else. */
class CheckpointColoursTest {

    private static final List<String> MODULES =
            List.of("ch12-1-baseline", "ch12-2-cache-outbox-ratelimit", "ch12-3-fault-scenarios");
    /** The least difference (CIE76 ΔE) between two checkpoints' colours, and between a checkpoint's and any other. */
    private static final double CHECKPOINTS_APART = 50;
    private static final double OTHERS_APART = 35;

    /** @return the CIE76 colour difference ΔE of {@code a} and {@code b} as they look on white (alpha blended) */
    private static double distance(Color a, Color b) {
        double[] la = lab(onWhite(a));
        double[] lb = lab(onWhite(b));
        return Math.sqrt(Math.pow(la[0] - lb[0], 2) + Math.pow(la[1] - lb[1], 2) + Math.pow(la[2] - lb[2], 2));
    }

    private static Color onWhite(Color c) {
        double a = c.getAlpha() / 255.0;
        return new Color((int) Math.round(c.getRed() * a + 255 * (1 - a)), (int) Math.round(c.getGreen() * a + 255 * (1 - a)),
                (int) Math.round(c.getBlue() * a + 255 * (1 - a)));
    }

    /** @return the sRGB colour {@code c} in CIE L*a*b* (D65 white) */
    private static double[] lab(Color c) {
        double[] rgb = new double[3];
        int[] channels = {c.getRed(), c.getGreen(), c.getBlue()};
        for (int i = 0; i < 3; i++) {
            double v = channels[i] / 255.0;
            rgb[i] = v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        }
        double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
        double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
        double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
        double fx = f(x);
        double fy = f(y);
        double fz = f(z);
        return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }

    private static List<Color> checkpointColours() {
        return CheckpointColours.CHECKPOINTS.stream().map(CheckpointColours.Checkpoint::colour).toList();
    }

    @Test
    @DisplayName("the three checkpoints have three colours far apart (vermillion, blue, bluish green), and no colour for other series comes near any of them")
    void distinctColours() {
        assertThat(CheckpointColours.CHECKPOINTS).extracting(CheckpointColours.Checkpoint::module).containsExactlyElementsOf(MODULES);
        assertThat(CheckpointColours.CHECKPOINTS).extracting(CheckpointColours.Checkpoint::colourName)
                .containsExactly("vermillion", "blue", "bluish green");
        List<Color> colours = checkpointColours();
        for (int i = 0; i < colours.size(); i++) {
            for (int j = i + 1; j < colours.size(); j++) {
                assertThat(distance(colours.get(i), colours.get(j))).as("checkpoints %d and %d", i + 1, j + 1)
                        .isGreaterThan(CHECKPOINTS_APART);
            }
        }
        for (int k = 0; k < 2 * CheckpointColours.OTHERS.size(); k++) {
            Color other = CheckpointColours.other(k);
            assertThat(colours).as("other colour %d", k).allSatisfy(c -> assertThat(distance(c, other)).isGreaterThan(OTHERS_APART));
        }
    }

    @Test
    @DisplayName("a series stands for a checkpoint when its name holds the checkpoint's id as a word: module names and labels built from them do; ch12-10, xch12-1 and ch12-4 do not")
    void whatNamesACheckpoint() {
        assertThat(CheckpointColours.of("ch12-2-cache-outbox-ratelimit")).hasValue(CheckpointColours.BLUE);
        assertThat(CheckpointColours.of("ch12-3-fault-scenarios limiter-lifted completed/s (knee 16000 req/s)"))
                .hasValue(CheckpointColours.BLUISH_GREEN);
        assertThat(CheckpointColours.of("ch12-1-baseline / baseline #2")).hasValue(CheckpointColours.VERMILLION);
        assertThat(CheckpointColours.of("knee: ch12-1")).hasValue(CheckpointColours.VERMILLION);
        assertThat(CheckpointColours.of("ch12-10-later")).isEmpty();
        assertThat(CheckpointColours.of("xch12-1")).isEmpty();
        assertThat(CheckpointColours.of("ch12-4-next")).isEmpty();
        assertThat(CheckpointColours.of("pay (n=1,130, p99 7.1 ms)")).isEmpty();
    }

    @Test
    @DisplayName("each checkpoint's series has its own colour in the percentile, sweep and scenario charts alike, whatever its place among the series")
    void sameColourInEveryChart(@TempDir Path dir) {
        // three charts, the checkpoints in three different orders
        XYChart percentiles = PercentileChart.chart("t", List.of(
                new PercentileChart.Series(MODULES.get(2), Samples.latencies(300, 8, 20, 1).microsCopy()),
                new PercentileChart.Series(MODULES.get(0), Samples.latencies(300, 190, 230, 2).microsCopy()),
                new PercentileChart.Series(MODULES.get(1), Samples.latencies(300, 7, 15, 3).microsCopy())), Duration.ofMillis(200));
        List<SavedSweep> sweeps = List.of(
                SavedSweep.read(SweepChartTest.sweep(dir.resolve("b.json"), MODULES.get(1), 2000)),
                SavedSweep.read(SweepChartTest.sweep(dir.resolve("a.json"), MODULES.get(0), 100)),
                SavedSweep.read(SweepChartTest.sweep(dir.resolve("c.json"), MODULES.get(2), 1000)));
        XYChart throughput = SweepChart.throughput(sweeps).chart();
        XYChart p99 = SweepChart.p99(sweeps).chart();
        List<ScenarioTable.Row> rows = new ArrayList<>();
        for (String module : List.of(MODULES.get(0), MODULES.get(2), MODULES.get(1))) {
            rows.add(new ScenarioTable.Row("normal", module, new ScenarioTable.Requests(4_500, 4_000, 500, 0, 0),
                    new ScenarioTable.Speed(1_300, 200, 210, 220, 12.5), new ScenarioTable.Money(200, 0, 3, -1, -1, -1),
                    new ScenarioTable.Resilience(1.0, "-", -1, -1, 0)));
        }
        CategoryChart scenarios = ScenarioChart.panel(rows, "t", "y", ScenarioChart::goodputPercent);

        for (CheckpointColours.Checkpoint c : CheckpointColours.CHECKPOINTS) {
            List<Color> seen = new ArrayList<>();
            seen.add(lineColour(percentiles, c.module()));
            seen.add(lineColour(throughput, c.module()));
            seen.add(lineColour(p99, c.module()));
            seen.add(scenarios.getSeriesMap().get(c.module()).getFillColor());
            assertThat(seen).as(c.id()).containsOnly(c.colour());
        }
    }

    @Test
    @DisplayName("series that are no checkpoint's (operations, the sweep's diagonal, a timeline's metrics and shaded windows) never take a checkpoint's colour, and operations differ from each other")
    void otherSeriesKeepOtherColours(@TempDir Path dir) {
        XYChart byOp = PercentileChart.chart("t", List.of(
                new PercentileChart.Series("create", Samples.latencies(300, 3, 20, 1).microsCopy()),
                new PercentileChart.Series("get", Samples.latencies(300, 2, 15, 2).microsCopy()),
                new PercentileChart.Series("pay", Samples.latencies(300, 9, 60, 3).microsCopy())), Duration.ofMillis(200));
        List<Color> ops = byOp.getSeriesMap().values().stream().map(XYSeries::getLineColor).toList();
        assertThat(ops).hasSize(3).doesNotHaveDuplicates();

        List<Color> others = new ArrayList<>(ops);
        XYChart throughput = SweepChart.throughput(List.of(
                SavedSweep.read(SweepChartTest.sweep(dir.resolve("a.json"), MODULES.get(0), 100)))).chart();
        others.add(lineColour(throughput, "completed = offered"));
        SavedTimeline t = SavedRunReport.readTimeline(TimelineChartTest.report(dir.resolve("timeline")));
        for (XYChart panel : List.of(TimelineChart.goodput(t), TimelineChart.latency(t), TimelineChart.machine(t))) {
            for (XYSeries s : panel.getSeriesMap().values()) {
                others.add(s.getLineColor());
                if (s.getFillColor() != null) {
                    others.add(s.getFillColor());
                }
            }
        }
        assertThat(others).doesNotContainNull();
        for (Color o : others) {
            assertThat(checkpointColours()).as("%s", o).allSatisfy(c -> assertThat(distance(c, o)).isGreaterThan(OTHERS_APART));
        }
    }

    /** @return the line colour of the first series of {@code chart} whose name starts with {@code prefix} */
    private static Color lineColour(XYChart chart, String prefix) {
        return chart.getSeriesMap().entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).map(Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new AssertionError("no series " + prefix + " in " + chart.getSeriesMap().keySet()))
                .getLineColor();
    }
}
