package archlab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.scenario.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChaosMixTest {

    private static final List<Scenario> MIXES = LongStream.rangeClosed(1, 200).mapToObj(ChaosMix::draw).toList();
    private static final Duration RUN = ChaosMix.LOAD.duration();

    @Test
    @DisplayName("a seed draws the same mix every time; different seeds draw different mixes")
    void aSeedReplaysItsMix() {
        assertThat(ChaosMix.draw(17)).isEqualTo(ChaosMix.draw(17));
        assertThat(MIXES.stream().distinct().count()).isEqualTo(MIXES.size());
    }

    @Test
    @DisplayName("200 mixes cover the catalogue's space: every fault absent in some and present in others, lost replies past 40 %, heavy tails, stalls and outages outlasting the run, outages that never end")
    void mixesCoverTheWholeSpace() {
        assertThat(MIXES).anyMatch(m -> m.paymentLostReplyRate() > 0.40).anyMatch(m -> m.paymentLostReplyRate() == 0)
                .allMatch(m -> m.paymentLostReplyRate() <= 0.50);
        assertThat(MIXES).anyMatch(m -> m.inventoryErrorRate() > 0).anyMatch(m -> m.inventoryErrorRate() == 0);
        assertThat(MIXES).anyMatch(m -> m.paymentDeclineRate() > 0).anyMatch(m -> m.paymentDeclineRate() == 0);
        assertThat(MIXES).anyMatch(m -> m.notifyErrorRate() > 0.40).anyMatch(m -> m.notifyErrorRate() == 0);
        assertThat(MIXES).anyMatch(m -> m.paymentTailFraction() > 0 && m.paymentTailLatency().toMillis() > 200);
        assertThat(MIXES).anyMatch(m -> m.paymentStall() != null && m.paymentStall().to().compareTo(RUN) > 0)
                .anyMatch(m -> m.paymentStall() != null && m.paymentStall().to().compareTo(RUN) < 0)
                .anyMatch(m -> m.paymentStall() == null);
        assertThat(MIXES).anyMatch(ChaosMix::notifierDownForEver)
                .anyMatch(m -> m.notifierDown() != null && !ChaosMix.notifierDownForEver(m) && m.notifierDown().to().compareTo(RUN) > 0)
                .anyMatch(m -> m.notifierDown() != null && m.notifierDown().to().compareTo(RUN) < 0)
                .anyMatch(m -> m.notifierDown() == null);
        assertThat(MIXES).anyMatch(m -> m.paymentLatency().toMillis() >= 40).anyMatch(m -> m.paymentLatency().toMillis() <= 5);
    }

    @Test
    @DisplayName("every window opens inside the run; a finite outage ends by twice the run after it opened, so a check that waits for it waits seconds, not minutes")
    void windowsAreBounded() {
        for (Scenario m : MIXES) {
            for (var w : new archlab.scenario.ScenarioClock.Window[] {m.paymentStall(), m.notifierDown()}) {
                if (w != null) {
                    assertThat(w.from()).isLessThan(RUN);
                }
            }
            if (m.notifierDown() != null && !ChaosMix.notifierDownForEver(m)) {
                assertThat(m.notifierDown().to()).isLessThanOrEqualTo(m.notifierDown().from().plus(RUN.multipliedBy(2)));
            }
        }
    }
}
