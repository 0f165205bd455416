package archlab.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * This checkpoint's microbenchmarks, run by JMH: {@code mvn -pl <this module> test -Djmh} (the harness's own run too,
 * as Maven also makes common-loadgen). Writes the module's {@code target/reports/jmh.json} (JMH's own JSON) and
 * {@code jmh.txt}; fails only when a benchmark marked {@link AllocatesNothing} allocated per operation. Times are
 * printed, never asserted.
 */
@EnabledIfSystemProperty(named = "jmh", matches = ".*", disabledReason = "microbenchmarks: mvn -pl <module> test -Djmh")
class CheckpointJmhTest {

    @Test
    @DisplayName("JMH measures this checkpoint's read path per operation, with bytes per op; none marked allocation-free allocates")
    void checkpointBenchmarks() throws Exception {
        Path json = JmhRun.run(OrderReadBenchmark.class);
        assumeThat(json).as("-Djmh.only matched none of this module's benchmarks").isNotNull();
        System.out.print(JmhRun.summary(json, JmhRun.smoke()));
        assertThat(JmhRun.allocationFailures(json)).as("benchmarks that must allocate nothing, in %s", json).isEmpty();
        assertThat(JmhRun.rows(json)).as("benchmarks in %s", json).isNotEmpty();
    }
}
