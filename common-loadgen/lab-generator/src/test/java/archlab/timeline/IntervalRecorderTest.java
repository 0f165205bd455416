package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.request.RequestOutcome;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The recorder on a fake clock: the test moves time and cuts intervals by changing phase and finishing, always less
 * than one interval apart, so the sampler thread never cuts on its own and every figure is the test's choice.
 */
class IntervalRecorderTest {

    private static final long MS = 1_000_000L;

    /** Requests planned every 10 ms from {@code t0}. */
    private static long[] everyTenMillis(int n) {
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = i * 10 * MS;
        }
        return offsets;
    }

    /** A warm-up of 30 ms (3 planned, 2 started and completed), then a run of 40 ms (4 planned). */
    private static RunTimeline warmUpThenRun(FakeClock clock) {
        IntervalRecorder r = IntervalRecorder.start(clock, TimelineSettings.DEFAULT);
        try {
            r.beginPhase(Interval.WARMUP);
            r.planned(clock.nanoTime(), everyTenMillis(3));
            r.started(0);
            r.ended(RequestOutcome.COMPLETED, 2 * MS);
            r.started(0);
            r.ended(RequestOutcome.COMPLETED, 4 * MS);
            clock.advance(30 * MS);
            r.beginPhase(Interval.RUN);
            r.planned(clock.nanoTime() + MS, everyTenMillis(4));
            for (int i = 1; i <= 4; i++) {
                r.started(i * 100_000L);
            }
            r.ended(RequestOutcome.COMPLETED, 5 * MS);
            r.ended(RequestOutcome.COMPLETED, 7 * MS);
            r.ended(RequestOutcome.TIMED_OUT, 200 * MS);
            r.ended(RequestOutcome.REJECTED, 1_000);
            clock.advance(40 * MS);
            return r.finish();
        } finally {
            r.close();
        }
    }

    @Test
    @DisplayName("each phase's intervals count what happened in them: planned starts as offered, starts, each outcome")
    void intervalsCountTheirEvents() {
        RunTimeline t = warmUpThenRun(new FakeClock(1_000 * MS));
        Interval warm = t.phase(Interval.WARMUP).get(0);
        Interval run = t.phase(Interval.RUN).get(0);
        assertThat(t.intervals()).extracting(Interval::phase).containsExactly(Interval.WARMUP, Interval.RUN);
        assertThat(List.of(warm.offered(), warm.started(), warm.completed(), warm.timedOut())).containsExactly(3L, 2L, 2L, 0L);
        assertThat(List.of(run.offered(), run.started(), run.completed(), run.timedOut(), run.failed(), run.rejected()))
                .containsExactly(4L, 4L, 2L, 1L, 0L, 1L);
    }

    @Test
    @DisplayName("time 0 is when the run began: a warm-up's interval lies before it, the run's starts at 0, lengths as the clock moved")
    void timeZeroIsTheRunsStart() {
        RunTimeline t = warmUpThenRun(new FakeClock(1_000 * MS));
        Interval warm = t.phase(Interval.WARMUP).get(0);
        Interval run = t.phase(Interval.RUN).get(0);
        assertThat(warm.startMillis()).isEqualTo(-30.0);
        assertThat(warm.lengthMillis()).isEqualTo(30.0);
        assertThat(run.startMillis()).isZero();
        assertThat(run.lengthMillis()).isEqualTo(40.0);
        assertThat(t.interval()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    @DisplayName("an interval's latency percentiles are those of its completed, timed-out and failed requests; rejected ones stay out")
    void latencyHoldsWhatReachedTheService() {
        Interval run = warmUpThenRun(new FakeClock()).phase(Interval.RUN).get(0);
        assertThat(run.p50Micros()).isBetween(6_990L, 7_010L);
        assertThat(run.maxMicros()).isBetween(199_900L, 200_200L);
        assertThat(run.sendLagP99Micros()).isBetween(399L, 401L);
        assertThat(run.goodputPerSecond()).isEqualTo(50.0); // 2 completed in 40 ms
    }

    @Test
    @DisplayName("the interval histograms keep every series of every interval: the run's latency holds its three answered requests")
    void histogramsKeepEverySeries() {
        RunTimeline t = warmUpThenRun(new FakeClock());
        assertThat(t.histograms()).hasSize(2);
        IntervalHistograms run = t.histograms().get(1);
        assertThat(run.phase()).isEqualTo(Interval.RUN);
        assertThat(run.histogram(Series.LATENCY).getTotalCount()).isEqualTo(3);
        assertThat(run.histogram(Series.REJECTED).getTotalCount()).isEqualTo(1);
        assertThat(run.histogram(Series.SEND_LAG).getTotalCount()).isEqualTo(4);
        assertThat(run.histogram(Series.FAILED).getTotalCount()).isZero();
    }

    @Test
    @DisplayName("the hot path allocates nothing: 200,000 starts and ends on a warmed recorder allocate less than a kilobyte")
    void hotPathAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        IntervalRecorder r = IntervalRecorder.start(new FakeClock(), TimelineSettings.DEFAULT);
        try {
            r.beginPhase(Interval.RUN);
            for (int i = 0; i < 20_000; i++) { // warm: class loading and the first compilations are not per request
                r.started(i);
                r.ended(RequestOutcome.COMPLETED, i * 1_000L);
            }
            RequestOutcome[] outcomes = RequestOutcome.values();
            long id = Thread.currentThread().threadId();
            long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100_000; i++) {
                r.started(i);
                r.ended(outcomes[i % outcomes.length], i * 1_000L);
            }
            long allocated = threads.getThreadAllocatedBytes(id) - before;
            assertThat(allocated).as("bytes allocated by 200,000 hot-path calls").isLessThan(1_024);
        } finally {
            r.close();
        }
    }

    @Test
    @DisplayName("TimelineSettings.OFF records nothing and starts no thread: finish gives RunTimeline.NONE and no hiccups")
    void offRecordsNothing() {
        IntervalRecorder r = IntervalRecorder.start(new FakeClock(), TimelineSettings.OFF);
        r.beginPhase(Interval.RUN);
        r.started(1);
        r.ended(RequestOutcome.COMPLETED, 1);
        assertThat(r.finish()).isSameAs(RunTimeline.NONE);
        assertThat(r.hiccups()).isSameAs(HiccupSummary.NONE);
    }

    @Test
    @DisplayName("values beyond the hour the histograms track, and negative ones, are clamped, never thrown")
    void outOfRangeValuesAreClamped() {
        FakeClock clock = new FakeClock();
        IntervalRecorder r = IntervalRecorder.start(clock, TimelineSettings.DEFAULT);
        try {
            r.beginPhase(Interval.RUN);
            r.ended(RequestOutcome.TIMED_OUT, Long.MAX_VALUE);
            r.started(-5);
            clock.advance(MS);
            Interval run = r.finish().intervals().get(0);
            assertThat(run.timedOut()).isEqualTo(1);
            assertThat(run.maxMicros()).isGreaterThanOrEqualTo(HiccupProbe.HIGHEST_NANOS / 1_000L);
            assertThat(run.started()).isEqualTo(1);
            assertThat(run.sendLagP99Micros()).isZero();
        } finally {
            r.close();
        }
    }

    @Test
    @DisplayName("an interval of no length is not kept: a phase begun and finished at the same instant leaves no interval")
    void emptyIntervalsAreDropped() {
        IntervalRecorder r = IntervalRecorder.start(new FakeClock(), TimelineSettings.DEFAULT);
        try {
            r.beginPhase(Interval.RUN);
            assertThat(r.finish().intervals()).isEmpty();
        } finally {
            r.close();
        }
    }
}
