package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link RunResult#sendLagWithin}: a latency claim with a slack of S can only be judged from a run whose
 * generator started its requests on time, send-lag p99 ≤ S. The sample's send-lag p99 is 345 µs.
 */
class SendLagSlackTest {

    private final RunResult run = Samples.detailed(LoadSpec.book(), java.util.List.of());

    @Test
    @DisplayName("send-lag p99 at or below the slack: the run can judge the claim; one microsecond above: it cannot")
    void comparesSendLagP99WithTheSlack() {
        assertThat(run.sendLag().p99Micros()).isEqualTo(345);
        assertThat(run.sendLagWithin(6_000_000L)).isTrue();
        assertThat(run.sendLagWithin(345_000L)).isTrue();
        assertThat(run.sendLagWithin(344_999L)).isFalse();
    }
}
