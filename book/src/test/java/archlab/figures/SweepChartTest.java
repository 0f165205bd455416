package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.Environment;
import archlab.report.Knee;
import archlab.report.ReportWriter;
import archlab.report.SweepReport;
import archlab.report.SweepRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep chart, rendered from hand-made sweep reports written the way CapacitySweep writes them. */
class SweepChartTest {

    private static final Environment ENV =
            new Environment(new Environment.Machine("25", "test", 2, "Linux", 2048), "2026-01-01T00:00:00Z", "s");

    /** A sweep whose service keeps up to {@code capacity} req/s, then completes only that many with a high p99. */
    private static Path sweep(Path file, String module, int capacity) {
        return sweep(file, module, "sweep", capacity);
    }

    private static Path sweep(Path file, String module, String name, int capacity) {
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

    private static Path mkdirs(Path dir) {
        try {
            return java.nio.file.Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
