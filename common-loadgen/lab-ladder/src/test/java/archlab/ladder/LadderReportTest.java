package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.db.ladder.LadderDataSet;
import archlab.db.ladder.PlanSummary;
import archlab.http.wire.WireRun;
import archlab.ladder.compute.Compute;
import archlab.ladder.gc.GcFigures;
import archlab.ladder.monitor.TraceSegments;
import archlab.ladder.monitor.Tracing;
import archlab.ladder.compute.ComputeSegments;
import archlab.loadgen.LatencySummary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LadderReportTest {

    private static LadderRun.RungResult result(Rung rung, long p50Micros, long p99Micros) {
        LatencySummary latency = LatencySummary.builder().count(1200).meanMicros(p50Micros).p50Micros(p50Micros)
                .p99Micros(p99Micros).p999Micros(p99Micros).build();
        WireRun load = new WireRun(new WireRun.Setup("epoll", 1, 400),
                new WireRun.Requests(1200, 1200, 0, 0, new WireRun.Ended(1200, 0, 0)),
                new WireRun.Latencies(latency, LatencySummary.builder().build()), Map.of(200, 1200L),
                new WireRun.Connections(9, rung.network().keepAlive() ? 0 : 1191, 0, 0), new WireRun.Cost(0, 0, 1));
        PlanSummary plan = PlanSummary.parse("[{\"Plan\": {\"Node Type\": \"Index Only Scan\", \"Index Name\": \"orders_user_time\","
                + " \"Relation Name\": \"orders\", \"Heap Fetches\": 0},"
                + " \"Execution Time\": 0.1}]");
        ServerSegments server = new ServerSegments();
        server.record(p50Micros * 500, 5_000, p50Micros * 400);
        return new LadderRun.RungResult(rung, load, LadderSegments.of(p50Micros, 10, server),
                new LadderRun.Database(plan, new LadderRun.Statements(List.of(), Optional.of("not read in this test"),
                        Optional.empty(), Optional.empty()), 1, 1, ""),
                new LadderRun.Server(3, rung.network().keepAlive() ? 1 : 2, 1200, Optional.empty(),
                        new GcFigures(new GcFigures.Jvm("G1 Young Generation, G1 Old Generation", 2048L << 20), 2,
                                GcFigures.Pauses.of(List.of(1_000_000L, 3_000_000L)), GcFigures.Pauses.of(List.of(1_000_000L)),
                                new GcFigures.Stalls(0, 0), new GcFigures.Allocation(300L << 20, 3_000_000_000L))), business(rung));
    }

    /** One request's business stages: the slow choices cost 10× the fast ones' bytes and time. */
    private static LadderRun.Business business(Rung rung) {
        ComputeSegments stages = new ComputeSegments();
        // 1,200 answered requests, each costing this much per stage
        for (ComputeSegments.Stage s : ComputeSegments.Stage.values()) {
            stages.add(s, 1_200L * 1_000L * (1 + 3 * (4 - rung.compute().fastChoices())), 1_200L * 10_240L * (4 - rung.compute().fastChoices()));
        }
        for (int i = 0; i < 1_200; i++) {
            stages.request(rung.compute().encoding() == Compute.Encoding.JSON ? 1_000 : 400);
        }
        Map<String, Long> places = new java.util.LinkedHashMap<>();
        BusinessProfile.PLACES.forEach(place -> places.put(place, 3L));
        Map<String, Long> libraries = new java.util.LinkedHashMap<>();
        BusinessProfile.LIBRARIES.keySet().forEach(l -> libraries.put(l, rung.compute().equals(Compute.SLOW) ? 2L : 0L));
        return new LadderRun.Business(stages.split(), 2_000, Path.of("target/ladder-logs", rung.name() + ".log"),
                new BusinessProfile(new BusinessProfile.Tally(21, places, libraries),
                        new BusinessProfile.Tally(21 * 1024, scaled(places, 1024), scaled(libraries, 1024)), Path.of("ladder-" + rung.name() + ".jfr")),
                LadderRun.drawsFlameGraphs(rung) ? List.of(Path.of("ladder-" + rung.name() + "-cpu.html")) : List.of(),
                new LadderRun.Monitoring(rung.tracing(), rung.tracing() == Tracing.EVERY_REQUEST ? 120_000 : 1_200,
                        Path.of("target/ladder-logs", rung.name() + ".trace.log"), traced(rung.tracing() == Tracing.EVERY_REQUEST ? 1200 : 12)));
    }

    /** What {@code requests} traces say: each stage 2 µs ± 0.5, the database 100 µs ± 5. */
    private static Map<String, TraceSegments.Estimate> traced(long requests) {
        Map<String, TraceSegments.Estimate> m = new java.util.TreeMap<>();
        m.put(LadderRun.REQUEST_SPAN, new TraceSegments.Estimate(requests, 200, 50, 10));
        m.put("database", new TraceSegments.Estimate(requests, 100, 20, 5));
        for (String stage : List.of("rows", "map", "tag", "encode", "log")) {
            m.put(stage, new TraceSegments.Estimate(requests, 2, 1, 0.5));
        }
        return m;
    }

    private static Map<String, Long> scaled(Map<String, Long> m, long by) {
        Map<String, Long> s = new java.util.LinkedHashMap<>();
        m.forEach((k, v) -> s.put(k, v * by));
        return s;
    }

    @Test
    @DisplayName("the GC sections: a row per rung with its pauses and verdict, then a row per collector setting with its heap, pauses, allocation stalls and verdict, and the GC logs named")
    void gcSections() {
        List<LadderRun.RungResult> results = new ArrayList<>();
        for (Rung r : Rung.LADDER) {
            results.add(result(r, 1_000, 5_000));
        }
        GcFigures stalled = new GcFigures(new GcFigures.Jvm("ZGC Minor Cycles, ZGC Minor Pauses", 128L << 20), 80,
                GcFigures.Pauses.of(List.of(20_000L, 90_000L)), GcFigures.Pauses.of(List.of(20_000L)), new GcFigures.Stalls(2867, 9_000_000_000L),
                new GcFigures.Allocation(1_000L << 20, 3_000_000_000L));
        archlab.ladder.gc.CollectorRuns.Result zgc = new archlab.ladder.gc.CollectorRuns.Result(
                new archlab.ladder.gc.CollectorRuns.Setup(archlab.ladder.gc.CollectorRuns.Collector.ZGC, 128), "tcp-nodelay",
                new archlab.ladder.gc.CollectorRuns.Latency(900_000, 2_000_000, 2_100_000, 1_000_000, 1177, 1200), 1_200_000, stalled,
                "ladder-gc-zgc-128m.log");
        String md = GcReport.markdown(results, List.of(zgc));
        assertThat(md).contains("## Garbage collection per rung (the test's JVM: G1 Young Generation, G1 Old Generation, heap 2048 MiB)")
                .containsPattern("(?m)^\\| sampled-trace \\| 2 \\| 2 \\| 1\\.00 ms \\| 3\\.00 ms \\| 1\\.00 ms \\| 0\\.13 % \\| 100 \\| ")
                .contains("## The collector and the heap: tcp-nodelay in a JVM of its own per setting")
                .containsPattern("(?m)^\\| zgc-128m \\| 900\\.00 ms \\| 2000\\.00 ms \\| 2100\\.00 ms \\| 1177 of 1200 \\| 128 \\| 1171\\.9 \\| 333 \\| 80 \\| ")
                .containsPattern("\\| 2867 \\| pauses too short \\|")
                .contains("`ladder-gc-zgc-128m.log`");
        assertThat(GcReport.json(List.of(zgc)).get(0)).containsEntry("setting", "zgc-128m").containsEntry("heap_mib", 128);
    }

    @Test
    @DisplayName("every request's mean is inside the traces' interval or not; no interval with fewer than two traces; none needed when every request was traced")
    void insideTheInterval() {
        TraceSegments.Estimate e = new TraceSegments.Estimate(12, 2, 1, 0.5);
        assertThat(MonitoringReport.inside(e, 2.4, 1200)).isEqualTo("yes");
        assertThat(MonitoringReport.inside(e, 2.6, 1200)).isEqualTo("no");
        assertThat(MonitoringReport.inside(new TraceSegments.Estimate(1, 2, 0, Double.POSITIVE_INFINITY), 2, 1200)).isEqualTo("—");
        assertThat(MonitoringReport.inside(new TraceSegments.Estimate(1200, 2, 1, 0), 2.0000001, 1200)).isEqualTo("every request traced");
    }

    @Test
    @DisplayName("a rung is called faster or slower only past ×0.8 or ×1.25 of the rung before's p50, whatever its p99 did (shown, not judged); between, 'no clear change'")
    void verdict() {
        LadderRun.RungResult before = result(Rung.START, 10_000, 100_000);
        assertThat(LadderReport.verdict(null, before)).isEqualTo("—");
        assertThat(LadderReport.verdict(before, result(Rung.named("range"), 7_900, 300_000))).isEqualTo("faster (p50 ×0.79, p99 ×3.00)");
        assertThat(LadderReport.verdict(before, result(Rung.named("range"), 8_100, 10_000))).isEqualTo("no clear change (p50 ×0.81, p99 ×0.10)");
        assertThat(LadderReport.verdict(before, result(Rung.named("range"), 12_400, 100_000))).startsWith("no clear change");
        assertThat(LadderReport.verdict(before, result(Rung.named("range"), 12_600, 100_000))).startsWith("slower (p50 ×1.26");
        assertThat(LadderReport.verdict(before, result(Rung.named("range"), 300, 1_000))).isEqualTo("faster (p50 ×0.030, p99 ×0.010)");
    }

    @Test
    @DisplayName("the Nagle reading pairs the kept-alive rung with Nagle on and the TCP_NODELAY rung after it, and says whether the factor reached 10")
    void nagle() {
        List<LadderRun.RungResult> results = new ArrayList<>();
        for (Rung r : Rung.LADDER) {
            results.add(result(r, r.name().equals("keep-alive") ? 43_000 : 1_000, 50_000));
        }
        assertThat(LadderReport.nagleFactor(results)).contains(43.0);
        assertThat(LadderReport.nagle(results).orElseThrow()).contains("×43.0 (at least ×10)");
        List<LadderRun.RungResult> weak = new ArrayList<>();
        for (Rung r : Rung.LADDER) {
            weak.add(result(r, r.name().equals("keep-alive") ? 5_000 : 1_000, 50_000));
        }
        assertThat(LadderReport.nagle(weak).orElseThrow()).contains("NOT at least ×10");
        assertThat(LadderReport.nagle(results.subList(0, 5))).as("no network rung run").isEmpty();
    }

    @Test
    @DisplayName("ladder.md has one row per rung in the rungs table and in the time split, each with its own figures")
    void markdown() {
        List<LadderRun.RungResult> results = new ArrayList<>();
        long p = 9_000;
        for (Rung r : Rung.LADDER) {
            results.add(result(r, r.name().equals("keep-alive") ? 80_000 : p, 10 * p));
            p -= 500;
        }
        LadderSettings settings = LadderSettings.from(new Properties());
        String md = LadderReport.markdown(new LadderDataSet.Built(1_000_000, 50_000, false, Duration.ZERO), settings, results);
        for (Rung r : Rung.LADDER) {
            assertThat(md).containsPattern("(?m)^\\| " + r.name() + " \\| " + java.util.regex.Pattern.quote(r.change()) + " \\| ");
            assertThat(md).containsPattern("(?m)^\\| " + r.name() + " \\| [0-9]+ \\| ");
        }
                assertThat(md).contains("kept from an earlier run").contains("not read: not read in this test");
        assertThat(md).contains("| start | the slow start | 400 | 9.00 ms | 90.00 ms | 90.00 ms | ").contains("Index Only Scan using orders_user_time on orders, 0 heap fetches");
        // .ci/run's checks of ladder.md, as written there (grep -E): six rungs or more with their own percentiles
        java.util.regex.Pattern ciRung = java.util.regex.Pattern.compile(
                "(?m)^\\| (start|range|columns|covering|lock-order|keep-alive|tcp-nodelay|string-builder|mapstruct|protobuf|sampled-log|sampled-trace) \\| .*\\| [0-9.]+ ms \\| [0-9.]+ ms \\| [0-9.]+ ms \\| ");
        assertThat(ciRung.matcher(md).results().count()).isEqualTo(Rung.LADDER.size());
        // the business code's two tables, a row per rung each (.ci/run greps the last rung's)
        assertThat(md).contains("## The business code per request");
        for (Rung r : Rung.LADDER) {
            assertThat(md).containsPattern("(?m)^\\| " + r.name() + " \\| [0-9]+ \\| [0-9]+ \\| [0-9]+ \\| [0-9]+ \\| [0-9]+ \\| [0-9]+ \\| [0-9]+ \\| ");
            assertThat(md).containsPattern("(?m)^\\| " + r.name() + " \\| [0-9]+\\.[0-9] \\| ");
        }
        assertThat(md).containsPattern("(?m)^\\| sampled-trace \\| [0-9.]+ \\| ");
        assertThat(md).contains("| rung (CPU samples) |").contains("| rung (KiB allocated in the servlet, JFR's estimate) |");
        assertThat(md).contains("| tcp-nodelay | 27 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 2 | 2 | 2 | 2 | 2 | 2 |")
                .contains("| sampled-trace | 27 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 0 | 0 | 0 | 0 | 0 | 0 |")
                .contains("| tcp-nodelay | 21 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 2 | 2 | 2 | 2 | 2 | 2 |")
                .contains("| sampled-trace | 21 | 3 | 3 | 3 | 3 | 3 | 3 | 3 | 0 | 0 | 0 | 0 | 0 | 0 |");
        assertThat(md)
                .contains("Flame graphs: `ladder-tcp-nodelay-cpu.html` `ladder-sampled-trace-cpu.html` (beside this report)");
        // the monitoring section: a row per rung, the A/B of the sampling rung, what its traces say against every request
        assertThat(md).contains("## Monitoring's own cost").containsPattern("(?m)^\\| sampled-log \\| every request \\| 1200 \\| 1200 \\| ")
                .containsPattern("(?m)^\\| sampled-trace \\| 1 in 100 \\| 12 \\| 1200 \\| ")
                .contains("The A/B, sampled-log (every request) → sampled-trace (1 in 100), the same load")
                .contains("sampled-trace: what the 12 traces kept say")
                .containsPattern("(?m)^\\| map \\| 12 \\| 2\\.0 \\| 0\\.5 \\| 1\\.0 \\| no \\|$")
                .contains("The interval: Student's t at 95 % times the standard error")
                .contains("is missed by the 12 traces of sampled-trace");
        assertThat(md).containsPattern("(?m)^- \\*\\*covering\\*\\*: Index Only Scan .* heap_fetches=0 ");
        assertThat(md).containsPattern("(?m)^- Nagle on.*\\(at least ×10\\)");
        assertThat(md).doesNotContainPattern("(?m)^- \\*\\*[a-z-]+\\*\\*: not read");
    }

    @Test
    @DisplayName("the keep-alive aside sets the last rung beside the same without keep-alive, each with its own split row")
    void aside() {
        List<LadderRun.RungResult> results = new ArrayList<>();
        for (Rung r : Rung.LADDER) {
            results.add(result(r, 1_000, 5_000));
        }
        Rung last = Rung.LADDER.get(Rung.LADDER.size() - 1);
        Rung off = new Rung("aside-no-keep-alive", "keep-alive off again", last.query(), new Rung.Network(false, true), last.compute(),
                last.tracing());
        String md = LadderReport.keepAliveAlone(results, result(off, 1_300, 6_000));
        assertThat(md).contains("## Keep-alive alone").containsPattern("(?m)^\\| the last rung: sampled-trace \\| 1000 \\| ")
                .containsPattern("(?m)^\\| aside: no keep-alive \\| 1300 \\| .* \\| 1191 \\| 2.00 \\| 3 \\|$")
                .doesNotContainPattern("(?m)^\\| [a-z-]+ \\| [0-9]")
                .contains("p50 1.30 ms against 1.00 ms");
    }
}
