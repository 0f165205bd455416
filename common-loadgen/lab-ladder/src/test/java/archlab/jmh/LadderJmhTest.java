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
 * The ladder's business-code and tracing choices per call, by JMH: {@code mvn -pl common-loadgen/lab-ladder test -Dladder -Djmh}
 * (CI adds {@code -Djmh.smoke}). Each pair — the slow choice and its fix — is printed with ns/op and B/op and their
 * ratios, to lay beside the ladder's rungs under load; {@code target/reports/jmh-ladder.json} is JMH's own JSON. Times are printed, never asserted; the gate is on bytes per
 * operation: each fix allocates several times less than the choice it replaces, but protobuf's (see {@link Pair}).
 */
@EnabledIfSystemProperty(named = "jmh", matches = ".*", disabledReason = "microbenchmarks: mvn -pl common-loadgen/lab-ladder test -Dladder -Djmh")
class LadderJmhTest {

    /** The report's name: {@code target/reports/jmh-ladder.json} (JMH's own JSON) and {@code .txt}. */
    static final String REPORT = "jmh-ladder";

    /**
     * One benchmark pair.
     *
     * @param type     the benchmark class's simple name
     * @param slow     the slow choice's method
     * @param fast     the fix's method
     * @param atLeast  how many times fewer bytes per call the fix must allocate; 0: printed, not gated. Protobuf's is
     *                 not gated: its builders allocate an object per order, and its bytes per call came out above and
     *                 below Jackson's in two runs (its gains are time and the body's size, which
     *                 {@code ComputeChoicesTest} holds)
     */
    record Pair(String type, String slow, String fast, double atLeast) {
    }

    static final List<Pair> PAIRS = List.of(
            new Pair("TagTextBenchmark", "concatInLoop", "builder", 2),
            new Pair("MapperBenchmark", "dozer", "mapstruct", 2),
            new Pair("BodyBenchmark", "jackson", "protobuf", 0),
            new Pair("RequestLogBenchmark", "wholeAnswerSync", "sampledKeysAsync", 10),
            new Pair("TraceBenchmark", "everyRequestSync", "sampledBatched", 10));

    @Test
    @DisplayName("JMH measures each business-code choice of the ladder per call, slow beside fast, and each fix but protobuf's allocates at least 2× (the log's and the tracing's 10×) fewer bytes per call than the choice it replaces")
    void computeBenchmarks() throws Exception {
        Path json = JmhRun.runAs(REPORT, TagTextBenchmark.class, MapperBenchmark.class, BodyBenchmark.class, RequestLogBenchmark.class,
                TraceBenchmark.class);
        assumeThat(json).as("-Djmh.only matched none of this module's benchmarks").isNotNull();
        List<JmhRun.Row> rows = JmhRun.rows(json);
        System.out.print(JmhRun.summary(json, JmhRun.smoke()));
        assertThat(JmhRun.allocationFailures(json)).as("benchmarks without bytes per op, in %s", json).isEmpty();
        for (Pair pair : PAIRS) {
            if (rows.stream().noneMatch(r -> r.benchmark().contains("." + pair.type() + "."))) {
                continue; // -Djmh.only left it out
            }
            JmhRun.Row slow = row(rows, pair.type(), pair.slow());
            JmhRun.Row fast = row(rows, pair.type(), pair.fast());
            System.out.println(String.format(Locale.ROOT, "%s: %s %.0f ns/op %.0f B/op, %s %.0f ns/op %.0f B/op: time ×%.3g, bytes ×%.3g",
                    pair.type(), pair.slow(), slow.nanosPerOp(), slow.bytesPerOp(), pair.fast(), fast.nanosPerOp(),
                    fast.bytesPerOp(), fast.nanosPerOp() / slow.nanosPerOp(), fast.bytesPerOp() / slow.bytesPerOp()));
            if (pair.atLeast() > 0) {
                assertThat(fast.bytesPerOp() * pair.atLeast()).as("%s: %s's bytes per call, ×%.0f, against %s's", pair.type(),
                        pair.fast(), pair.atLeast(), pair.slow()).isLessThan(slow.bytesPerOp());
            }
        }
    }

    private static JmhRun.Row row(List<JmhRun.Row> rows, String type, String method) {
        return rows.stream().filter(r -> r.benchmark().endsWith("." + type + "." + method)).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + type + "." + method));
    }
}
