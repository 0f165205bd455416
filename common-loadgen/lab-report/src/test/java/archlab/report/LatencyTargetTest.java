package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import archlab.timeline.HiccupSummary;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The printed target line: met or MISSED against the target, and whether the run could judge it — the generator kept
 * its schedule and the machine did not stall.
 */
class LatencyTargetTest {

    /** Send-lag p99 345 µs, hiccup p99 310 µs. */
    private final RunResult run = Samples.detailed(LoadSpec.book(), List.of());

    @Test
    @DisplayName("a p99 at or under the target is 'met', one microsecond over is 'MISSED'; figures in ms with three decimals")
    void metOrMissed() {
        assertThat(LatencyTarget.line("pay p99", 12_000, 12_000_000L, "2 x floor", run))
                .isEqualTo("[target] pay p99 12.000 ms against 2 x floor 12.000 ms: met (send-lag p99 0.345 ms,"
                        + " hiccup p99 0.310 ms, the generator kept its schedule, the machine did not stall)");
        assertThat(LatencyTarget.line("pay p99", 12_001, 12_000_000L, "2 x floor", run)).contains(": MISSED (");
    }

    @Test
    @DisplayName("a send-lag p99 over half the target says the generator ran late (the miss may be the machine's); at exactly half it kept its schedule")
    void lateGeneratorIsNamed() {
        assertThat(LatencyTarget.line("pay p99", 1_000, 690_000L, "2 x floor", run)).contains("kept its schedule");
        assertThat(LatencyTarget.line("pay p99", 1_000, 600_000L, "2 x floor", run))
                .endsWith("(send-lag p99 0.345 ms, hiccup p99 0.310 ms, the generator ran late: a busy machine)");
    }

    @Test
    @DisplayName("a hiccup p99 over half the target, the generator on time, says the machine stalled: not a judgement of the service")
    void stalledMachineIsNamed() {
        RunResult stalled = Samples.withHiccups(run, HiccupSummary.builder().periodMicros(1_000).samples(3_000)
                .p50Micros(45).p90Micros(900).p99Micros(7_000).p999Micros(9_000).maxMicros(12_000).build());
        assertThat(LatencyTarget.line("pay p99", 13_000, 12_000_000L, "2 x floor", stalled))
                .endsWith(": MISSED (send-lag p99 0.345 ms, hiccup p99 7.000 ms, the machine stalled: not a judgement of the service)");
    }

    @Test
    @DisplayName("a run without a probe prints the send lag alone, as before there was one")
    void noProbeNoHiccups() {
        RunResult unprobed = Samples.withHiccups(run, HiccupSummary.NONE);
        assertThat(LatencyTarget.line("pay p99", 12_000, 12_000_000L, "2 x floor", unprobed))
                .endsWith("(send-lag p99 0.345 ms, the generator kept its schedule)");
    }
}
