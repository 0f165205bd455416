package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.timeline.Recovery.Recovered;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The recovery verdict against hand-made timelines: 30 intervals of 100 ms, 150 offered each, a trigger 1.0-1.5 s. */
class RecoveryTest {

    private static final Duration INTERVAL = Duration.ofMillis(100);
    private static final Duration FROM = Duration.ofMillis(1_000);
    private static final Duration TO = Duration.ofMillis(1_500);
    private static final Duration BOUND = Duration.ofMillis(500);

    /** @param completedIn completed requests of interval k (0..29); @param hiccupAt interval with a 40 ms stall, or -1 */
    private static List<Interval> run(IntUnaryOperator completedIn, int hiccupAt) {
        List<Interval> run = new ArrayList<>();
        for (int k = 0; k < 30; k++) {
            run.add(Interval.builder().phase(Interval.RUN).startMillis(k * 100.0).lengthMillis(100.0).offered(150)
                    .started(150).completed(completedIn.applyAsInt(k)).latencyMicros(1_000, 2_000, 3_000)
                    .sendLagP99Micros(10).hiccupMaxMicros(k == hiccupAt ? 40_000 : 100).build());
        }
        run.add(Interval.builder().phase(Interval.RUN).startMillis(3_000.0).lengthMillis(12.0).completed(3)
                .latencyMicros(1_000, 2_000, 3_000).sendLagP99Micros(10).hiccupMaxMicros(100).build());
        return run;
    }

    private static Recovery judge(List<Interval> run) {
        return Recovery.judge(run, INTERVAL, FROM, TO, BOUND);
    }

    @Test
    @DisplayName("a dip during the trigger, back to full goodput 200 ms after it: yes, recovered at 1.7 s")
    void recoversWithinTheBound() {
        Recovery r = judge(run(k -> k >= 10 && k < 17 ? 60 : 150, -1));
        assertThat(r.verdict()).isEqualTo(Recovered.YES);
        assertThat(r.shares().recoveredAtMillis()).isEqualTo(1_700.0);
        assertThat(r.shares().worstShareAfter()).isEqualTo(0.6);
    }

    @Test
    @DisplayName("an interval a little under 95% (140 or 139 of 150, its completions landing in the next one) is noise, not a relapse: windows of three decide")
    void oneLowIntervalIsNoise() {
        Recovery r = judge(run(k -> switch (k) {
            case 10, 11, 12, 13, 14 -> 60;
            case 15 -> 140;
            case 16 -> 160;
            case 22 -> 139;
            case 23 -> 161;
            default -> 150;
        }, -1));
        assertThat(r.verdict()).isEqualTo(Recovered.YES);
        assertThat(r.shares().recoveredAtMillis()).isEqualTo(1_500.0);
        assertThat(r.line()).startsWith("recovery=yes trigger_end=1.5s bound=500ms recovered_at=1.5s");
    }

    @Test
    @DisplayName("down from the trigger to the end of the run: no, never recovered")
    void staysDown() {
        Recovery r = judge(run(k -> k >= 10 ? 40 : 150, -1));
        assertThat(r.verdict()).isEqualTo(Recovered.NO);
        assertThat(r.shares().recoveredAtMillis()).isNaN();
        assertThat(r.reason()).contains("still below 95%");
    }

    @Test
    @DisplayName("back, but only 800 ms after the trigger (bound 500 ms): no")
    void backTooLate() {
        Recovery r = judge(run(k -> k >= 10 && k < 23 ? 100 : 150, -1));
        assertThat(r.verdict()).isEqualTo(Recovered.NO);
        assertThat(r.shares().recoveredAtMillis()).as("the first window of three from 2.3 s").isEqualTo(2_300.0);
    }

    @Test
    @DisplayName("one bad interval late in the run undoes an early recovery: every window to the end must keep up")
    void aRelapseCounts() {
        Recovery r = judge(run(k -> (k >= 10 && k < 16) || k == 26 ? 60 : 150, -1));
        assertThat(r.verdict()).isEqualTo(Recovered.NO);
        assertThat(r.shares().recoveredAtMillis()).isEqualTo(2_700.0);
    }

    @Test
    @DisplayName("a run that completed 70% before the trigger has nothing to recover to")
    void downBeforeTheTrigger() {
        Recovery r = judge(run(k -> 105, -1));
        assertThat(r.verdict()).isEqualTo(Recovered.NOT_HEALTHY_BEFORE);
        assertThat(r.verdict().text()).isEqualTo("no (down before the trigger)");
    }

    @Test
    @DisplayName("a 'no' while the machine stalled 40 ms after the trigger is not judged")
    void stalledMachineIsNotJudged() {
        Recovery r = judge(run(k -> k >= 10 ? 40 : 150, 20));
        assertThat(r.verdict()).isEqualTo(Recovered.NOT_JUDGED);
        assertThat(r.reason()).contains("stalled 40 ms");
    }

    @Test
    @DisplayName("a timeline without intervals after the trigger's end + bound cannot say")
    void tooShort() {
        assertThat(Recovery.judge(run(k -> 150, -1), INTERVAL, FROM, Duration.ofMillis(2_500), BOUND).verdict())
                .isEqualTo(Recovered.NOT_JUDGED);
    }
}
