package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The timeline's one line in the text report, and how a JIT warm-up's timeline is put before a run's. Hand-made intervals. */
class RunTimelineTest {

    /** An interval of {@code phase} at {@code startMillis}: 100 ms long, 150 offered, {@code completed} completed. */
    private static Interval interval(String phase, double startMillis, long completed, long p99Micros, long hiccupMaxMicros) {
        return Interval.builder().phase(phase).startMillis(startMillis).lengthMillis(100).offered(150).started(150)
                .completed(completed).latencyMicros(p99Micros / 2, p99Micros, p99Micros + 1).sendLagP99Micros(50)
                .hiccupMaxMicros(hiccupMaxMicros).build();
    }

    private static RunTimeline timeline(List<Interval> intervals, long originNanos) {
        return new RunTimeline(Duration.ofMillis(100), Duration.ofMillis(1), intervals, originNanos, 0, List.of());
    }

    @Test
    @DisplayName("the timeline line gives goodput and p99 per interval as min/median/max, the worst p99 and the worst hiccup with when, and the log's name")
    void lineSummarisesTheRun() {
        RunTimeline t = timeline(List.of(
                interval(Interval.RUN, 0, 150, 4_000, 200),
                interval(Interval.RUN, 100, 140, 17_900, 3_100),
                interval(Interval.RUN, 200, 155, 5_300, 150)), 0);
        assertThat(t.line("baseline.hlog")).isEqualTo("timeline interval=100ms run_intervals=3"
                + " goodput_per_s min/median/max=1400/1500/1550 p99_ms min/median/max=4.000/5.300/17.900"
                + " worst_p99=17.900ms@0.1s hiccup_max=3.100ms@0.1s log=baseline.hlog");
    }

    @Test
    @DisplayName("warm-up intervals are counted apart and stay out of the run's figures")
    void warmUpsAreCountedApart() {
        RunTimeline t = timeline(List.of(
                interval(Interval.JIT_WARMUP, -5_000, 10, 99_000, 80_000),
                interval(Interval.WARMUP, -100, 10, 99_000, 80_000),
                interval(Interval.RUN, 0, 150, 4_000, 200)), 0);
        assertThat(t.line("x.hlog")).isEqualTo("timeline interval=100ms run_intervals=1"
                + " goodput_per_s min/median/max=1500/1500/1500 p99_ms min/median/max=4.000/4.000/4.000"
                + " worst_p99=4.000ms@0.0s hiccup_max=0.200ms@0.0s warmup_intervals=1 jit_warmup_intervals=1 log=x.hlog");
    }

    @Test
    @DisplayName("a timeline without a run says it was not recorded")
    void noRunNoLine() {
        assertThat(RunTimeline.NONE.line("x.hlog")).isEqualTo("timeline not recorded");
        assertThat(RunTimeline.NONE.recorded()).isFalse();
    }

    @Test
    @DisplayName("after() puts an earlier run's intervals before this one's, relabelled and moved to this run's time 0")
    void afterJoinsTwoTimelines() {
        long ms = 1_000_000L;
        RunTimeline warm = timeline(List.of(interval(Interval.RUN, 0, 10, 9_000, 1), interval(Interval.RUN, 100, 10, 9_000, 1)), 1_000 * ms);
        RunTimeline run = timeline(List.of(interval(Interval.RUN, 0, 150, 4_000, 1)), 5_000 * ms);
        RunTimeline joined = run.after(warm, Interval.JIT_WARMUP);
        List<String> phases = new ArrayList<>();
        joined.intervals().forEach(i -> phases.add(i.phase() + "@" + i.startMillis()));
        assertThat(phases).containsExactly("jit-warmup@-4000.0", "jit-warmup@-3900.0", "run@0.0");
        assertThat(joined.originNanos()).isEqualTo(run.originNanos());
        assertThat(run.after(RunTimeline.NONE, Interval.JIT_WARMUP)).isSameAs(run);
    }
}
