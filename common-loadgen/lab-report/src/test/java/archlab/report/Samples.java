package archlab.report;

import archlab.downstream.DownstreamCounts;
import archlab.loadgen.LatencySummary;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import archlab.loadgen.RunResult.Latencies;
import archlab.loadgen.RunResult.OperationResult;
import archlab.loadgen.RunResult.Outcomes;
import archlab.loadgen.RunResult.Requests;
import archlab.loadgen.RunResult.Tracing;
import archlab.timeline.HiccupSummary;
import archlab.trace.SegmentTable.SegmentRow;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Hand-made reports and results for the report tests: every figure chosen, nothing measured. */
final class Samples {

    /** A fixed environment, so report text does not depend on the machine. */
    static final Environment ENV = new Environment(
            new Environment.Machine("25.0.1+8-LTS", "Eclipse Adoptium", 2, "Linux 6.1 amd64 ", 2048),
            "2026-01-02T03:04:05Z", "test-session");

    private Samples() {
    }

    /** A latency summary with the given book percentiles (ms) and HdrHistogram percentiles (µs). */
    static LatencySummary latency(long count, long bookP50, long bookP99, long bookP999,
                                  long p50Micros, long p90Micros, long p99Micros, long p999Micros) {
        return LatencySummary.builder().count(count).meanMicros(150_250.0).maxMicros(401_500.0).bookP50Millis(bookP50)
                .bookP99Millis(bookP99).bookP999Millis(bookP999).p50Micros(p50Micros).p90Micros(p90Micros)
                .p99Micros(p99Micros).p999Micros(p999Micros).build();
    }

    static LatencySummary emptyLatency() {
        return LatencySummary.builder().build();
    }

    /** A run result: the given outcome counts, wall and latency; everything else empty. */
    static RunResult result(LoadSpec spec, long offered, long started, long completed, long timedOut, long wallNanos,
                            LatencySummary latency) {
        return RunResult.builder().spec(spec).requests(new Requests(offered, started, 0))
                .outcomes(new Outcomes(completed, timedOut, 0, 0, 0)).wallNanos(wallNanos)
                .latencies(new Latencies(latency, Map.of(), emptyLatency(), Map.of(), 0)).build();
    }

    /** A result with every outcome count distinct, two operations, a send lag, failure causes and segments. */
    static RunResult detailed(LoadSpec spec, List<SegmentRow> segments) {
        Map<String, OperationResult> ops = new TreeMap<>();
        ops.put("create", new OperationResult("create", 40, new Outcomes(30, 5, 3, 2, 0),
                latency(38, 12, 40, 41, 11_500, 20_000, 39_250, 40_500)));
        ops.put("pay", new OperationResult("pay", 60, new Outcomes(41, 6, 4, 9, 13),
                latency(51, 22, 80, 81, 21_500, 50_000, 79_250, 80_500)));
        LatencySummary sendLag = LatencySummary.builder().count(100).meanMicros(50.0).maxMicros(900.0).bookP50Millis(1)
                .bookP99Millis(1).bookP999Millis(1).p50Micros(12).p90Micros(80).p99Micros(345).p999Micros(800).build();
        Map<String, Long> causes = new TreeMap<>(Map.of("DownstreamTimeoutException", 11L, "IllegalStateException", 7L));
        return RunResult.builder().spec(spec).requests(new Requests(105, 103, 2))
                .outcomes(new Outcomes(71, 11, 7, 11, 13))
                .unfinished(3).wallNanos(2_500_000_000L)
                .latencies(new Latencies(latency(89, 15, 78, 81, 14_567, 60_000, 77_123, 80_999), ops, sendLag, causes,
                        4_321_000L))
                .tracing(new Tracing(segments, segments.isEmpty() ? 0 : 100))
                .hiccups(HiccupSummary.builder().periodMicros(1_000).samples(3_000).p50Micros(45).p90Micros(120)
                        .p99Micros(310).p999Micros(2_900).maxMicros(3_100).build())
                .build();
    }

    /** {@code r} with the probe's hiccups {@code h} instead of its own. */
    static RunResult withHiccups(RunResult r, HiccupSummary h) {
        return r.toBuilder().hiccups(h).build();
    }

    static DownstreamCounts downstream(long inventory, long payment, long notify) {
        return DownstreamCounts.builder().inventoryCalls(inventory).paymentCalls(payment).notifyCalls(notify)
                .charges(payment).build();
    }

    static MoneyEvidence money(long charges, long chargedButNotPaid) {
        return new MoneyEvidence(charges, charges, 0, charges - chargedButNotPaid, chargedButNotPaid);
    }

    static RunReport report(RunResult run) {
        return RunReport.builder().module("test-module").name("sample").environment(ENV).run(run)
                .downstream(downstream(10, 5, 4)).money(money(5, 1)).build();
    }

    /** A segment row: {@code inclusiveMeanMicros × requests} is its inclusive total. */
    static SegmentRow segment(String op, String segment, long requests, long entries, double selfMeanMicros,
                              double sharePercent, double inclusiveMeanMicros) {
        return SegmentRow.builder().operation(op).segment(segment).requests(requests).operationRequests(requests)
                .entries(entries).meanMicros(selfMeanMicros).p50Micros(selfMeanMicros).p99Micros(selfMeanMicros * 2)
                .maxMicros(selfMeanMicros * 3).sharePercent(sharePercent).inclusiveMeanMicros(inclusiveMeanMicros)
                .selfTotalNanos(Math.round(selfMeanMicros * 1_000 * requests)).build();
    }
}
