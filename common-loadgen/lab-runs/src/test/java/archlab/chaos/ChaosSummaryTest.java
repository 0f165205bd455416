package archlab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChaosSummaryTest {

    /** A run whose latest answer came as late past its deadline as the generator's worst send lag. */
    private static ChaosVerdict verdict(long seed, long doubleCharges, long sendLagMaxNanos) {
        return ChaosVerdict.judge(seed, ChaosMix.draw(seed),
                new ChaosEvidence(new ChaosEvidence.Money(1, doubleCharges, List.of(), 0),
                        new ChaosEvidence.Delivery(List.of(), List.of(), 0), 0, new ChaosEvidence.Deadlines(sendLagMaxNanos, 0, sendLagMaxNanos, 0)),
                Duration.ofMillis(5));
    }

    @Test
    @DisplayName("a violating seed's line names the module, the seed, what broke, the mix and the command that replays it; the summary ends with chaos seeds=N violations=V")
    void linesNameTheSeedAndEndWithTheCount() {
        ChaosSummary summary = new ChaosSummary("ch12-9-demo");
        summary.add(verdict(1, 0, 0));
        summary.add(verdict(2, 1, 0));
        summary.add(verdict(3, 0, 50_000_000L));

        assertThat(summary.violationLine(summary.verdicts().get(1)))
                .startsWith("[chaos] ch12-9-demo seed=2 violated double_charge: 1 charges")
                .contains("| mix: ").contains("seed=2")
                .endsWith("| replay: mvn -pl ch12-9-demo test -Dchaos -Dchaos.seed=2");
        List<String> closing = summary.closingLines();
        assertThat(closing.get(0)).isEqualTo("chaos ch12-9-demo seeds violating each invariant: double_charge=1 charged_not_paid=0"
                + " paid_notified_once=0 reservation_leaked=0 deadline_kept=0");
        assertThat(closing.get(1)).contains("deadline judged on 2 of 3 seeds (66.7 %), not judged on 1");
        assertThat(closing.get(closing.size() - 1)).isEqualTo("chaos seeds=3 violations=1");
    }
}
