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
 * The ladder's business-code choices per call, by JMH: {@code mvn -pl common-loadgen/lab-ladder test -Dladder -Djmh}
 * (CI adds {@code -Djmh.smoke}). Each pair — the slow choice and its fix — is printed with ns/op and B/op and their
 * ratios, to lay beside the ladder's rungs under load; {@code target/reports/jmh-ladder.json} is JMH's own JSON. Times are printed, never asserted; the gate is on bytes per
 * operation: each fix allocates less than the choice it replaces, but protobuf's (see {@link #PAIRS}).
 */
@EnabledIfSystemProperty(named = "jmh", matches = ".*", disabledReason = "microbenchmarks: mvn -pl common-loadgen/lab-ladder test -Dladder -Djmh")
class LadderJmhTest {

    /** The report's name: {@code target/reports/jmh-ladder.json} (JMH's own JSON) and {@code .txt}. */
    static final String REPORT = "jmh-ladder";

    /**
     * Each pair: the benchmark class, the slow method, the fast one, and whether the fix must allocate less. Protobuf's
     * does not: its builders allocate about what Jackson's recycled buffers do (its gains are time and the body's size,
     * which {@code ComputeChoicesTest} holds).
     */
    private static final List<String[]> PAIRS = List.of(
            new String[] {"TagTextBenchmark", "concatInLoop", "builder", "gated"},
            new String[] {"MapperBenchmark", "dozer", "mapstruct", "gated"},
            new String[] {"BodyBenchmark", "jackson", "protobuf", "printed"},
            new String[] {"RequestLogBenchmark", "wholeAnswerSync", "sampledKeysAsync", "gated"});

    @Test
    @DisplayName("JMH measures each business-code choice of the ladder per call, slow beside fast, and each fix but protobuf's allocates fewer bytes per call than the choice it replaces")
    void computeBenchmarks() throws Exception {
        Path json = JmhRun.runAs(REPORT, TagTextBenchmark.class, MapperBenchmark.class, BodyBenchmark.class, RequestLogBenchmark.class);
        assumeThat(json).as("-Djmh.only matched none of this module's benchmarks").isNotNull();
        List<JmhRun.Row> rows = JmhRun.rows(json);
        System.out.print(JmhRun.summary(json, JmhRun.smoke()));
        assertThat(JmhRun.allocationFailures(json)).as("benchmarks without bytes per op, in %s", json).isEmpty();
        for (String[] pair : PAIRS) {
            if (rows.stream().noneMatch(r -> r.benchmark().contains("." + pair[0] + "."))) {
                continue; // -Djmh.only left it out
            }
            JmhRun.Row slow = row(rows, pair[0], pair[1]);
            JmhRun.Row fast = row(rows, pair[0], pair[2]);
            System.out.println(String.format(Locale.ROOT, "%s: %s %.0f ns/op %.0f B/op, %s %.0f ns/op %.0f B/op: time ×%.3g, bytes ×%.3g",
                    pair[0], pair[1], slow.nanosPerOp(), slow.bytesPerOp(), pair[2], fast.nanosPerOp(), fast.bytesPerOp(),
                    fast.nanosPerOp() / slow.nanosPerOp(), fast.bytesPerOp() / slow.bytesPerOp()));
            if (pair[3].equals("gated")) {
                assertThat(fast.bytesPerOp()).as("%s: %s's bytes per call against %s's", pair[0], pair[2], pair[1])
                        .isLessThan(slow.bytesPerOp());
            }
        }
    }

    private static JmhRun.Row row(List<JmhRun.Row> rows, String type, String method) {
        return rows.stream().filter(r -> r.benchmark().endsWith("." + type + "." + method)).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + type + "." + method));
    }
}
