package archlab.loadgen;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.timeline.HiccupSummary;
import archlab.timeline.Interval;
import archlab.timeline.RunTimeline;
import archlab.timeline.TimelineSettings;
import java.time.Duration;
import java.util.List;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every run has a time axis: the runner's timeline and hiccup probe, on small real-time runs (1,000 req/s for 300 ms).
 * Only counts are asserted — they hold however late a busy machine runs the requests — never a time.
 */
class OpenLoopRunnerTimelineTest {

    private static final Duration GENEROUS = Duration.ofSeconds(5);

    private static LoadSpec spec(int rate, long millis) {
        return LoadSpec.builder().ratePerSecond(rate).duration(Duration.ofMillis(millis)).timeout(GENEROUS)
                .traceEvery(0).build();
    }

    /** Odd sequences fail, every seventh is rejected, the rest complete. */
    private static final Workload MIXED = new Workload() {
        @Override
        public String operationOf(long sequence) {
            return sequence % 2 == 0 ? "even" : "odd";
        }

        @Override
        public void execute(long sequence, String operation, RequestContext ctx) {
            if (sequence % 7 == 0) {
                throw new RequestRejectedException("limited", Duration.ofMillis(1));
            }
            if (sequence % 2 == 1) {
                throw new IllegalStateException("odd");
            }
        }
    };

    /** One run of {@link #MIXED} at 1,000 req/s for 300 ms, read by each test that needs no other load. */
    private static RunResult mixedRun;

    @BeforeAll
    static void runMixed() {
        mixedRun = new OpenLoopRunner().run(spec(1_000, 300), MIXED);
    }

    private static long sum(List<Interval> intervals, ToLongFunction<Interval> f) {
        return intervals.stream().mapToLong(f).sum();
    }

    @Test
    @DisplayName("the run's intervals add up to the run: offered, started, completed, failed, rejected")
    void intervalsAddUpToTheRun() {
        RunResult r = mixedRun;
        List<Interval> run = r.timeline().phase(Interval.RUN);
        assertThat(run).isNotEmpty();
        assertThat(sum(run, Interval::offered)).isEqualTo(r.offered()).isEqualTo(300);
        assertThat(sum(run, Interval::started)).isEqualTo(r.started());
        assertThat(sum(run, Interval::completed)).isEqualTo(r.completed());
        assertThat(sum(run, Interval::failed)).isEqualTo(r.failed());
        assertThat(sum(run, Interval::rejected)).isEqualTo(r.rejected());
        assertThat(sum(run, Interval::timedOut)).isEqualTo(r.timedOut());
    }

    @Test
    @DisplayName("intervals follow each other without gaps, from time 0, each at most one interval long")
    void intervalsTileTheRun() {
        RunTimeline t = mixedRun.timeline();
        List<Interval> run = t.phase(Interval.RUN);
        assertThat(run.get(0).startMillis()).isZero();
        for (int i = 1; i < run.size(); i++) {
            assertThat(run.get(i).startMillis()).isCloseTo(run.get(i - 1).endMillis(), org.assertj.core.api.Assertions.within(1e-6));
        }
        assertThat(t.interval()).isEqualTo(TimelineSettings.DEFAULT.interval());
        assertThat(t.histograms()).hasSameSizeAs(t.intervals());
    }

    @Test
    @DisplayName("a warm-up's intervals come first, labelled warmup, before time 0; its requests are in none of the run's intervals")
    void warmUpIntervalsComeFirst() {
        RunResult r = new OpenLoopRunner().run(spec(1_000, 200).withWarmup(Duration.ofMillis(100)), MIXED);
        List<Interval> warm = r.timeline().phase(Interval.WARMUP);
        assertThat(warm).isNotEmpty().allSatisfy(i -> assertThat(i.startMillis()).isNegative());
        assertThat(sum(warm, Interval::offered)).isEqualTo(100);
        assertThat(sum(r.timeline().phase(Interval.RUN), Interval::offered)).isEqualTo(200);
        assertThat(r.timeline().intervals().get(0).phase()).isEqualTo(Interval.WARMUP);
    }

    @Test
    @DisplayName("the hiccup probe ran for the run: it sampled the machine every 2 ms, the period the report states")
    void probeRanDuringTheRun() {
        RunResult r = mixedRun;
        assertThat(r.hiccups().periodMicros()).isEqualTo(2_000);
        assertThat(r.hiccups().samples()).isPositive();
        assertThat(r.hiccups().maxMicros()).isGreaterThanOrEqualTo(r.hiccups().p99Micros());
    }

    @Test
    @DisplayName("per-operation offered counts the requests planned for it, not the ones that finished: a failing or refused request is still offered")
    void perOperationOfferedIsPlanned() {
        RunResult r = new OpenLoopRunner().run(spec(1_000, 301).withWarmup(Duration.ofMillis(50)), MIXED);
        // measured sequences 51..351: 150 even, 151 odd
        assertThat(r.operations().get("even").offered()).isEqualTo(150);
        assertThat(r.operations().get("odd").offered()).isEqualTo(151);
    }

    @Test
    @DisplayName("an operation planned but never finished still shows with its offered count (a workload whose operationOf fails is 'unknown')")
    void plannedOperationsAllShow() {
        Workload throwing = new Workload() {
            @Override
            public String operationOf(long sequence) {
                if (sequence == 3) {
                    throw new IllegalStateException("no operation for 3");
                }
                return "op";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) {
            }
        };
        RunResult r = new OpenLoopRunner().run(spec(1_000, 10), throwing);
        assertThat(r.operations().get("unknown").offered()).isEqualTo(1);
        assertThat(r.operations().get("op").offered()).isEqualTo(9);
    }

    @Test
    @DisplayName("TimelineSettings.OFF: no timeline, no probe, the figures unchanged")
    void offRecordsNoTimeline() {
        RunResult r = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.OFF).run(spec(1_000, 100), MIXED);
        assertThat(r.timeline()).isSameAs(RunTimeline.NONE);
        assertThat(r.hiccups()).isSameAs(HiccupSummary.NONE);
        assertThat(r.offered()).isEqualTo(100);
    }
}
