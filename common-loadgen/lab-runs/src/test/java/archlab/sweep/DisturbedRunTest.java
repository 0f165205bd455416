package archlab.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.SweepRow;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * When a sweep's run measured the machine rather than the service, and how a rate the machine disturbed every time is
 * judged. Hand-made rows: every figure chosen, nothing measured.
 */
class DisturbedRunTest {

    private static final long SLACK_NANOS = 6_000_000L;

    private static SweepRow row(long p99Micros, long sendLagP99Micros, long hiccupP99Micros) {
        SweepRow r = Rows.row(1_000, 1_000, p99Micros, sendLagP99Micros, 0.3);
        return r.toBuilder().hiccupP99Micros(hiccupP99Micros).build();
    }

    @Test
    @DisplayName("a run is disturbed when its send-lag p99 or its hiccup p99 exceeds the slack; at exactly the slack it is not")
    void disturbedBySendLagOrHiccups() {
        assertThat(row(9_000, 6_000, 6_000).disturbed(SLACK_NANOS)).isFalse();
        assertThat(row(9_000, 6_001, 100).disturbed(SLACK_NANOS)).as("a late generator").isTrue();
        assertThat(row(9_000, 100, 6_001).disturbed(SLACK_NANOS)).as("a stalled machine, the generator on time").isTrue();
    }

    @Test
    @DisplayName("a rate disturbed in every attempt is judged by the attempt with the median p99, not by its best or worst run")
    void everyAttemptDisturbedKeepsTheMedian() {
        SweepRow lucky = row(5_000, 7_000, 9_000);
        SweepRow middle = row(11_000, 7_000, 9_000);
        SweepRow stalled = row(90_000, 7_000, 40_000);
        assertThat(SweepRow.medianByP99(List.of(stalled, lucky, middle))).isSameAs(middle);
        assertThat(SweepRow.medianByP99(List.of(stalled, lucky))).as("the lower middle of two").isSameAs(lucky);
        assertThat(SweepRow.medianByP99(List.of(stalled))).isSameAs(stalled);
    }
}
