package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import archlab.downstream.DownstreamCounts;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import archlab.loadgen.RunResult.Latencies;
import archlab.loadgen.RunResult.Outcomes;
import archlab.loadgen.RunResult.Requests;
import archlab.report.Environment;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.report.ReportWriter;
import archlab.report.RunReport;
import archlab.timeline.HiccupSummary;
import archlab.timeline.Interval;
import archlab.timeline.RunTimeline;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timeline chart of one saved run, from a hand-made report written by ReportWriter: every figure chosen. */
class TimelineChartTest {

    private static final Environment ENV =
            new Environment(new Environment.Machine("25", "test", 2, "Linux", 2048), "2026-01-01T00:00:00Z", "s");

    /**
     * A slow-downstream run: a JIT warm-up long before, a 0.5 s runner warm-up, then 3 s whose pays stall from 1.0 to
     * 1.5 s after the fixture started (0.5 to 1.0 s of the measured run, since the runner's warm-up came first).
     */
    static Path report(Path dir) {
        List<Interval> intervals = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            intervals.add(Interval.builder().phase(Interval.JIT_WARMUP).startMillis(-6_000 + i * 100).lengthMillis(100)
                    .offered(150).started(150).completed(140).timedOut(10).latencyMicros(9_000, 80_000, 90_000)
                    .sendLagP99Micros(2_000).hiccupMaxMicros(12_000).build());
        }
        for (int i = 0; i < 5; i++) {
            intervals.add(Interval.builder().phase(Interval.WARMUP).startMillis(-500 + i * 100).lengthMillis(100)
                    .offered(150).started(150).completed(150).latencyMicros(4_000, 9_000, 9_500).sendLagP99Micros(100)
                    .hiccupMaxMicros(300).build());
        }
        for (int i = 0; i < 30; i++) {
            boolean stalled = i >= 5 && i < 10;
            intervals.add(Interval.builder().phase(Interval.RUN).startMillis(i * 100).lengthMillis(100).offered(150)
                    .started(150).completed(stalled ? 40 : 150).timedOut(stalled ? 110 : 0)
                    .latencyMicros(stalled ? 150_000 : 4_000, stalled ? 200_000 : 9_000, stalled ? 201_000 : 9_500)
                    .sendLagP99Micros(80).hiccupMaxMicros(i == 20 ? 7_000 : 250).build());
        }
        RunTimeline timeline = new RunTimeline(Duration.ofMillis(100), Duration.ofMillis(1), intervals, 0, 0, List.of());
        LatencyHistogram h = new LatencyHistogram();
        h.record(9_000_000L);
        LoadSpec spec = LoadSpec.book().withWarmup(Duration.ofMillis(500));
        RunResult run = RunResult.builder().spec(spec).requests(new Requests(4_500, 4_500, 0))
                .outcomes(new Outcomes(4_000, 500, 0, 0, 0)).wallNanos(3_000_000_000L)
                .latencies(new Latencies(h.summary(), Map.of(), h.summary(), Map.of(), 0)).warmupRequests(750)
                .timeline(timeline).hiccups(HiccupSummary.builder().periodMicros(1_000).samples(3_000).p50Micros(50)
                        .p90Micros(200).p99Micros(300).p999Micros(7_000).maxMicros(7_000).build())
                .build();
        RunReport r = RunReport.builder().module("ch12-3-fault-scenarios").name("scenario-slow-downstream")
                .environment(ENV).run(run)
                .downstream(DownstreamCounts.builder().build())
                .money(new MoneyEvidence(0, 0, 0, 0, 0))
                .extra(List.of(new ReportLine("scenario", "slow-downstream: latency inventory=2ms payment=40ms notify=2ms;"
                        + " payment tail 2.0% of calls at 1000ms; payment stalls 1.0s-1.5s; seed=123")))
                .build();
        ReportWriter.write(dir, r);
        return dir.resolve("scenario-slow-downstream.json");
    }

    @Test
    @DisplayName("the saved timeline reads every interval by phase, goodput and offered per second, and p99 in ms")
    void readsTheIntervals(@TempDir Path dir) {
        SavedTimeline t = SavedRunReport.readTimeline(report(dir));
        assertThat(t.phase("jit-warmup")).hasSize(5);
        assertThat(t.phase("warmup")).hasSize(5);
        assertThat(t.phase("run")).hasSize(30);
        SavedTimeline.Point stalled = t.phase("run").get(6);
        assertThat(stalled.goodputPerSecond()).isCloseTo(400.0, within(1e-9));
        assertThat(stalled.offeredPerSecond()).isCloseTo(1_500.0, within(1e-9));
        assertThat(stalled.p99Millis()).isEqualTo(200.0);
        assertThat(t.phase("run").get(20).hiccupMaxMillis()).isEqualTo(7.0);
    }

    @Test
    @DisplayName("the scenario's windows come from the report's own scenario line, moved by the runner's warm-up onto the run's time axis")
    void windowsFromTheReportsScenarioLine(@TempDir Path dir) {
        SavedTimeline t = SavedRunReport.readTimeline(report(dir));
        assertThat(t.windows()).singleElement().satisfies(w -> {
            assertThat(w.label()).isEqualTo("payment stalls");
            assertThat(w.fromSeconds()).isCloseTo(0.5, within(1e-9));
            assertThat(w.toSeconds()).isCloseTo(1.0, within(1e-9));
        });
    }

    @Test
    @DisplayName("a run whose callers retried gets a retries/s line beside completed/s and offered/s; one that did not, none; the retry storm's slow window is shaded")
    void retriesLine(@TempDir Path dir) throws Exception {
        Path plain = report(dir.resolve("plain"));
        assertThat(TimelineChart.goodput(SavedRunReport.readTimeline(plain)).getSeriesMap()).doesNotContainKey("retries/s");
        String json = java.nio.file.Files.readString(plain)
                .replace("\"retried\" : 0", "\"retried\" : 30")
                .replace("payment stalls 1.0s-1.5s", "payment slow 1.0s-2.0s (40ms per charge)");
        Path retried = java.nio.file.Files.writeString(dir.resolve("retried.json"), json);
        SavedTimeline t = SavedRunReport.readTimeline(retried);
        assertThat(t.phase("run").get(0).retriedPerSecond()).isCloseTo(300.0, within(1e-9));
        assertThat(TimelineChart.goodput(t).getSeriesMap()).containsKey("retries/s");
        assertThat(t.windows()).singleElement().satisfies(w -> assertThat(w.label()).isEqualTo("payment slow"));
    }

    @Test
    @DisplayName("goodput, latency and the machine render to one valid three-panel PNG")
    void renders(@TempDir Path dir) {
        Path png = TimelineChart.render(report(dir), dir.resolve("out/timeline.png"));
        Pngs.assertPng(png, TimelineChart.WIDTH, 3 * TimelineChart.PANEL_HEIGHT);
    }

    @Test
    @DisplayName("Figures draws timeline-<module>-<name>.png for every saved run report that has a timeline")
    void figuresDrawsEveryTimeline(@TempDir Path dir) {
        report(dir.resolve("results/ch12-3-fault-scenarios/target/reports"));
        List<String> out = new ArrayList<>();
        List<Path> written = Figures.run(dir.resolve("results"), dir.resolve("figures"), out::add);
        assertThat(written).extracting(p -> p.getFileName().toString())
                .contains("timeline-ch12-3-fault-scenarios-scenario-slow-downstream.png");
    }
}
