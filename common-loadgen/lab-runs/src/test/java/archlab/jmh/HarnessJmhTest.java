package archlab.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The harness's microbenchmarks, run by JMH: {@code mvn -pl common-loadgen/lab-runs test -Djmh} (CI: {@code -Djmh -Djmh.smoke}).
 * Writes {@code target/reports/jmh.json} (JMH's own JSON) and {@code jmh.txt}; fails only when a benchmark marked
 * {@link AllocatesNothing} allocated per operation, or one has no bytes per op. Times are printed, never asserted.
 */
@EnabledIfSystemProperty(named = "jmh", matches = ".*", disabledReason = "microbenchmarks: mvn -pl common-loadgen/lab-runs test -Djmh")
class HarnessJmhTest {

    @Test
    @DisplayName("JMH measures the timeline, the trace, false sharing, the runner and the event-loop generator's encoding and counting per operation, with bytes per op; none marked allocation-free allocates")
    void harnessBenchmarks() throws Exception {
        Path json = JmhRun.run(TimelineBenchmark.class, TraceBenchmark.class, FalseSharingBenchmark.class,
                RunnerBenchmark.class, WireBenchmark.class);
        assumeThat(json).as("-Djmh.only matched none of this module's benchmarks").isNotNull();
        List<JmhRun.Row> rows = JmhRun.rows(json);
        System.out.print(JmhRun.summary(json, JmhRun.smoke()));
        System.out.println(ratio(rows, "intervalRecorder", "timeline (IntervalRecorder)"));
        System.out.println(ratio(rows, "sharedRecorder", "shared Recorder (the old layout)"));
        System.out.println(ratio(rows, "packed", "false sharing: packed counters"));
        System.out.println(ratio(rows, "padded", "false sharing: padded counters"));
        assertThat(JmhRun.allocationFailures(json)).as("benchmarks that must allocate nothing, in %s", json).isEmpty();
        if (System.getProperty("jmh.only") == null) {
            assertThat(rows).as("benchmarks in %s", json).hasSizeGreaterThanOrEqualTo(15);
        }
    }

    /** @return e.g. {@code "timeline: 2 threads 31.0 ns/op, 1 thread 27.5 ns/op: x1.13"}: printed, not judged */
    private static String ratio(List<JmhRun.Row> rows, String prefix, String what) {
        double one = score(rows, prefix + "_1thread");
        double two = score(rows, prefix + "_2threads");
        return String.format(Locale.ROOT, "%s: 2 threads %.1f ns/op, 1 thread %.1f ns/op: x%.2f", what, two, one, two / one);
    }

    private static double score(List<JmhRun.Row> rows, String method) {
        return rows.stream().filter(r -> r.benchmark().endsWith("." + method)).mapToDouble(JmhRun.Row::nanosPerOp)
                .findFirst().orElse(Double.NaN);
    }
}
