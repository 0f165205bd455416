package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.Environment;
import archlab.report.Knee;
import archlab.report.ReportWriter;
import archlab.report.SweepReport;
import archlab.report.SweepRow;
import java.awt.Color;
import java.awt.Rectangle;
import java.awt.geom.Point2D;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/** The sweep chart, rendered from hand-made sweep reports written the way CapacitySweep writes them. */
class SweepChartTest {

    private static final Environment ENV =
            new Environment(new Environment.Machine("25", "test", 2, "Linux", 2048), "2026-01-01T00:00:00Z", "s");

    /** A sweep whose service keeps up to {@code capacity} req/s, then completes only that many with a high p99. */
    static Path sweep(Path file, String module, int capacity) {
        return sweep(file, module, "sweep", capacity);
    }

    static Path sweep(Path file, String module, String name, int capacity) {
        List<SweepRow> rows = new ArrayList<>();
        for (int rate : List.of(250, 500, 1000, 2000, 4000)) {
            long offered = rate * 3L;
            long completed = Math.min(offered, capacity * 3L);
            long p99 = rate <= capacity ? 9_000 : 190_000;
            rows.add(SweepRow.builder().ratePerSecond(rate).offered(offered).completed(completed)
                    .timedOut(offered - completed).goodput((double) completed / offered).rpsCompleted(completed / 3.0)
                    .p50Micros(p99 / 2).p99Micros(p99).sendLagP99Micros(200).cpuShare(0.3).hiccupP99Micros(50).build());
        }
        Knee knee = Knee.find(rows, 8_000_000L);
        ReportWriter.writeJson(file, SweepReport.builder().module(module).name(name).environment(ENV).settings("test")
                .payFloorNanos(8_000_000L).rows(rows).knee(knee).build());
        return file;
    }

    @Test
    @DisplayName("throughput and p99 of two checkpoints (one without a knee) render to one valid two-panel PNG; knees come from the JSON")
    void twoCheckpoints(@TempDir Path dir) {
        Path a = sweep(dir.resolve("sweep-a.json"), "ch12-1-baseline", 100);
        Path b = sweep(dir.resolve("sweep-b.json"), "ch12-2-cache-outbox-ratelimit", 2000);
        assertThat(SavedSweep.read(a).knee().rate()).isNull();
        assertThat(SavedSweep.read(b).knee().rate()).isEqualTo(2000);
        Path png = SweepChart.render(List.of(a, b), dir.resolve("sweep.png"));
        Pngs.assertPng(png, SweepChart.WIDTH, 2 * SweepChart.PANEL_HEIGHT);
    }

    @Test
    @DisplayName("a checkpoint swept twice under two names (limiter lifted, in place) is two lines, labelled by what the name adds; Figures keeps both")
    void oneCheckpointTwoSweeps(@TempDir Path dir) {
        Path results = dir.resolve("results/ch12-2-cache-outbox-ratelimit");
        Path lifted = sweep(mkdirs(results).resolve("sweep-limiter-lifted-ch12-2-cache-outbox-ratelimit.json"),
                "ch12-2-cache-outbox-ratelimit", "sweep-limiter-lifted", 4000);
        Path limited = sweep(results.resolve("sweep-ch12-2-cache-outbox-ratelimit.json"),
                "ch12-2-cache-outbox-ratelimit", "sweep", 1000);
        assertThat(SavedSweep.read(lifted).label()).isEqualTo("ch12-2-cache-outbox-ratelimit limiter-lifted");
        assertThat(SavedSweep.read(limited).label()).isEqualTo("ch12-2-cache-outbox-ratelimit");

        List<String> out = new ArrayList<>();
        Figures.run(dir.resolve("results"), dir.resolve("figures"), out::add);
        assertThat(out).noneMatch(l -> l.startsWith("skipped older sweep"));
        Pngs.assertPng(dir.resolve("figures/sweep.png"), SweepChart.WIDTH, 2 * SweepChart.PANEL_HEIGHT);
    }

    @Test
    @DisplayName("rate labels are short (250, 1k, 1.5k, 32k); the locked baseline's bound is 1 / (0.25 x its pay floor), 500 req/s at 8 ms")
    void shortLabelsAndTheLockBound(@TempDir Path dir) {
        assertThat(List.of(250, 1000, 1500, 12000, 32000, 2500)).extracting(SweepChart::shortRate)
                .containsExactly("250", "1k", "1.5k", "12k", "32k", "2.5k");
        Path a = sweep(dir.resolve("sweep-a.json"), "ch12-1-baseline", 100);
        Path b = sweep(dir.resolve("sweep-b.json"), "ch12-2-cache-outbox-ratelimit", 2000);
        assertThat(SweepChart.lockBound(List.of(SavedSweep.read(a), SavedSweep.read(b)))).hasValue(500.0);
        assertThat(SweepChart.lockBound(List.of(SavedSweep.read(b)))).as("no locked baseline swept").isEmpty();
    }

    @Test
    @DisplayName("a checkpoint's second sweep keeps its colour and marker shape, dashed with hollow markers; other checkpoints get other shapes")
    void secondSweepOfACheckpoint(@TempDir Path dir) {
        List<SweepChart.LineStyle> styles = SweepChart.styles(List.of(
                SavedSweep.read(sweep(dir.resolve("a.json"), "ch12-2-cache-outbox-ratelimit", "sweep", 1000)),
                SavedSweep.read(sweep(dir.resolve("b.json"), "ch12-2-cache-outbox-ratelimit", "sweep-limiter-lifted", 4000)),
                SavedSweep.read(sweep(dir.resolve("c.json"), "ch12-3-fault-scenarios", "sweep", 1000))));
        assertThat(styles.get(0).colour()).isEqualTo(styles.get(1).colour()).isEqualTo(CheckpointColours.BLUE);
        assertThat(styles.get(0).dash()).isNull();
        assertThat(styles.get(0).marker().hollow()).isFalse();
        assertThat(styles.get(1).dash()).isNotNull();
        assertThat(styles.get(1).marker().hollow()).isTrue();
        assertThat(styles.get(1).marker().form()).isEqualTo(styles.get(0).marker().form())
                .isNotEqualTo(styles.get(2).marker().form());
        assertThat(styles.get(2).colour()).isEqualTo(CheckpointColours.BLUISH_GREEN);
    }

    @Test
    @DisplayName("two checkpoints with the same values both stay in sight: the line drawn first is wider, with larger markers of another shape, and both colours show in the drawn plot")
    void noLineHidesAnother(@TempDir Path dir) {
        List<SavedSweep> same = List.of(
                SavedSweep.read(sweep(dir.resolve("b.json"), "ch12-2-cache-outbox-ratelimit", 1000)),
                SavedSweep.read(sweep(dir.resolve("c.json"), "ch12-3-fault-scenarios", 1000)));
        List<SweepChart.LineStyle> styles = SweepChart.styles(same);
        assertThat(styles.get(0).widthPx()).isGreaterThanOrEqualTo(styles.get(1).widthPx() + 2);
        assertThat(styles.get(0).marker().sizePx()).isGreaterThanOrEqualTo(styles.get(1).marker().sizePx() + 4);
        assertThat(styles.get(0).marker().form()).isNotEqualTo(styles.get(1).marker().form());
        for (SweepChart.Panel panel : List.of(SweepChart.throughput(same), SweepChart.p99(same))) {
            BufferedImage image = ChartImages.image(panel.chart());
            Rectangle plot = plotArea(panel.chart());
            assertThat(pixelsNear(image, plot, CheckpointColours.BLUE)).as("ch12-2, drawn first").isGreaterThan(500);
            assertThat(pixelsNear(image, plot, CheckpointColours.BLUISH_GREEN)).as("ch12-3, drawn over it").isGreaterThan(500);
        }
    }

    @Test
    @DisplayName("each knee's label names it and stands beside its diamond, or off it joined by a leader line; knees at one place share a label; labels never overlap")
    void kneeLabelsAtTheirPoints(@TempDir Path dir) {
        List<SavedSweep> sweeps = List.of(
                SavedSweep.read(sweep(dir.resolve("a.json"), "ch12-1-baseline", 100)),
                SavedSweep.read(sweep(dir.resolve("b.json"), "ch12-2-cache-outbox-ratelimit", 2000)),
                SavedSweep.read(sweep(dir.resolve("c.json"), "ch12-3-fault-scenarios", 2000)),
                SavedSweep.read(sweep(dir.resolve("d.json"), "ch12-3-fault-scenarios", "sweep-limiter-lifted", 1000)));
        SweepChart.Panel throughput = SweepChart.throughput(sweeps);
        SweepChart.Panel p99 = SweepChart.p99(sweeps);
        double clearance = SweepChart.KNEE_LABEL_CLEARANCE_PX;
        for (SweepChart.Panel panel : List.of(throughput, p99)) {
            List<PointLabels.Placed> labels = panel.kneeLabels();
            assertThat(labels).extracting(PointLabels.Placed::text)
                    .containsExactlyInAnyOrder("knee: ch12-2, ch12-3", "knee: ch12-3 limiter-lifted");
            for (SavedSweep s : sweeps.subList(1, sweeps.size())) {
                int rate = s.knee().rate();
                // at the knee the service keeps up (completed = offered) with its p99 of 9 ms
                Point2D knee = PointLabels.screen(panel.chart(), rate, panel == throughput ? rate : 9.0);
                PointLabels.Placed label = labels.stream().filter(l -> l.names().contains(SweepChart.shortName(s))).findFirst().orElseThrow();
                assertThat(label.point().distance(knee)).as("the label's point is the knee's").isLessThan(PointLabels.MERGE_PX);
                if (label.leader() == null) {
                    assertThat(label.distanceTo(knee)).as("beside its point").isBetween(clearance - 1, clearance + 1);
                } else {
                    assertThat(label.leader().getP1().distance(knee)).as("leader starts at the diamond").isBetween(clearance - 1, clearance + 1);
                    assertThat(label.distanceTo(label.leader().getP2())).as("leader ends at the label").isLessThan(1);
                    assertThat(label.distanceTo(knee)).isLessThanOrEqualTo(clearance + PointLabels.MAX_STEPS * PointLabels.STEP_PX + 1);
                }
            }
            for (int i = 0; i < labels.size(); i++) {
                for (int j = i + 1; j < labels.size(); j++) {
                    assertThat(labels.get(i).box().intersects(labels.get(j).box())).as("labels overlap").isFalse();
                }
            }
        }
        // a knee on a line with room beside it gets its label right there, without a leader
        SweepChart.Panel alone = SweepChart.p99(List.of(SavedSweep.read(sweep(dir.resolve("e.json"), "ch12-2-cache-outbox-ratelimit", 1000))));
        assertThat(alone.kneeLabels()).singleElement().satisfies(l -> {
            assertThat(l.leader()).isNull();
            assertThat(l.distanceTo(PointLabels.screen(alone.chart(), 1000, 9.0))).isBetween(clearance - 1, clearance + 1);
        });
    }

    /** @return the plot area of a painted chart, px */
    private static Rectangle plotArea(XYChart chart) {
        var styler = chart.getStyler();
        int left = (int) Math.ceil(chart.getScreenXFromChart(styler.getXAxisMin()));
        int right = (int) Math.floor(chart.getScreenXFromChart(styler.getXAxisMax()));
        int top = (int) Math.ceil(chart.getScreenYFromChart(styler.getYAxisMax()));
        int bottom = (int) Math.floor(chart.getScreenYFromChart(styler.getYAxisMin()));
        return new Rectangle(left, top, right - left, bottom - top);
    }

    /** @return how many pixels of {@code image} inside {@code area} are within a few shades of {@code colour} */
    private static int pixelsNear(BufferedImage image, Rectangle area, Color colour) {
        int n = 0;
        for (int x = area.x; x < area.x + area.width; x++) {
            for (int y = area.y; y < area.y + area.height; y++) {
                Color c = new Color(image.getRGB(x, y));
                double d = Math.sqrt(Math.pow(c.getRed() - colour.getRed(), 2) + Math.pow(c.getGreen() - colour.getGreen(), 2)
                        + Math.pow(c.getBlue() - colour.getBlue(), 2));
                n += d <= 30 ? 1 : 0;
            }
        }
        return n;
    }

    private static Path mkdirs(Path dir) {
        try {
            return java.nio.file.Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
