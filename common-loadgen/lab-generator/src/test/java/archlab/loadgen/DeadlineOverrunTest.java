package archlab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.DeadlineOverrun.Verdict;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DeadlineOverrunTest {

    private static final long MS = 1_000_000L;
    private static final long BOUND = 5 * MS;

    private static Verdict verdict(long overrun, long sendLag, long hiccup) {
        return new DeadlineOverrun(overrun, sendLag, hiccup, BOUND).verdict();
    }

    @Test
    @DisplayName("an overrun within the bound is kept, however the machine stalled")
    void withinTheBoundIsKept() {
        assertThat(verdict(0, 0, 0)).isEqualTo(Verdict.KEPT);
        assertThat(verdict(BOUND, 0, 0)).isEqualTo(Verdict.KEPT);
        assertThat(verdict(4 * MS, 50 * MS, 80 * MS)).isEqualTo(Verdict.KEPT);
    }

    @Test
    @DisplayName("past the bound by no more than the machine's longest stall (send lag or hiccup, whichever is longer) is not judged; past the bound plus that stall is broken")
    void theLongestStallDecides() {
        assertThat(verdict(5_400_000, MS, 0)).as("0.4 ms past, send lag 1 ms").isEqualTo(Verdict.NOT_JUDGED);
        assertThat(verdict(5_400_000, 0, MS)).as("0.4 ms past, a 1 ms hiccup").isEqualTo(Verdict.NOT_JUDGED);
        assertThat(verdict(6 * MS, 200_000, MS)).as("exactly the bound plus the hiccup").isEqualTo(Verdict.NOT_JUDGED);
        assertThat(verdict(6 * MS + 1, 200_000, MS)).as("1 ns past the bound plus the hiccup").isEqualTo(Verdict.BROKEN);
        assertThat(verdict(5_400_000, 0, 0)).as("no stall measured").isEqualTo(Verdict.BROKEN);
        assertThat(verdict(90 * MS, MS, 2 * MS)).as("a downstream call's worth past it").isEqualTo(Verdict.BROKEN);
    }

    @Test
    @DisplayName("any overrun of a run whose stall alone exceeded the bound is not judged: the machine, not the service, was slower than the bound")
    void aStallBeyondTheBoundJudgesNothing() {
        assertThat(verdict(500 * MS, 12 * MS, 0)).isEqualTo(Verdict.NOT_JUDGED);
        assertThat(verdict(500 * MS, 0, 12 * MS)).isEqualTo(Verdict.NOT_JUDGED);
    }

    @Test
    @DisplayName("a run's figures are read in their units: the send lag's µs (a fraction kept), the hiccup's µs, the overrun's ns")
    void unitsFromARun() {
        DeadlineOverrun o = DeadlineOverrun.of(5_400_000, 700.5, 1_200, java.time.Duration.ofMillis(5));
        assertThat(o.sendLagMaxNanos()).isEqualTo(700_500);
        assertThat(o.hiccupMaxNanos()).isEqualTo(1_200_000);
        assertThat(o.stallNanos()).isEqualTo(1_200_000);
        assertThat(o.verdict()).isEqualTo(Verdict.NOT_JUDGED);
    }

    @Test
    @DisplayName("the description names the overrun, the bound and both stalls in ms; negative figures and a bound of 0 are refused")
    void describesAndRefuses() {
        assertThat(new DeadlineOverrun(5_400_000, MS, 2 * MS, BOUND).describe())
                .isEqualTo("answered 5.4 ms past a deadline (bound 5 ms; the machine's longest stall 2.0 ms: send lag 1.0, hiccup 2.0)");
        assertThatThrownBy(() -> new DeadlineOverrun(-1, 0, 0, BOUND)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DeadlineOverrun(0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
