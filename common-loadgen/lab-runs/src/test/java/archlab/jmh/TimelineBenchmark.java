package archlab.jmh;

import archlab.clock.NanoClock;
import archlab.request.RequestOutcome;
import archlab.timeline.Interval;
import archlab.timeline.IntervalRecorder;
import archlab.timeline.TimelineSettings;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The trap: <b>a shared counter on the request path</b>. What one request costs the timeline — one
 * {@code started} and one {@code ended} — on one thread and on two at once.
 *
 * <p>Wrong: one HdrHistogram {@link Recorder} per series, written by every request's thread (what
 * {@link IntervalRecorder} was). Each write increments the recorder's phaser and the histogram's phaser and total
 * count: the same cache line for every thread, so on two cores each write waits for the line to come back from the
 * other core, and two threads each pay several times what one pays alone.
 *
 * <p>Right: {@link IntervalRecorder} as it is, its writes striped so that each thread writes buffers no other running
 * thread writes ({@code archlab.timeline.StripedHistograms}): two threads cost about what one does. At JMH's rate the
 * buffers fill between two samples and are folded into the stripe's histograms on the writer's thread, which a run at
 * the book's rate never does: this is the recorder's dearest case. Both sides must allocate nothing per request
 * ({@code -prof gc}: {@code gc.alloc.rate.norm} = 0 B/op).
 *
 * <p>The latencies vary per request (as in a run), so that the writes land in different buckets.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TimelineBenchmark {

    /** The old layout: one recorder per series, shared by every thread. */
    @State(Scope.Benchmark)
    public static class SharedRecorders {
        final Recorder started = new Recorder(1_000L, 3_600_000_000_000L, 3);
        final Recorder[] ended = new Recorder[RequestOutcome.values().length];

        @Setup
        public void setUp() {
            for (int i = 0; i < ended.length; i++) {
                ended[i] = new Recorder(1_000L, 3_600_000_000_000L, 3);
            }
        }
    }

    /** The recorder as a run uses it: sampler and hiccup probe running, the run phase begun. */
    @State(Scope.Benchmark)
    public static class Timeline {
        IntervalRecorder recorder;

        @Setup(Level.Trial)
        public void setUp() {
            recorder = IntervalRecorder.start(NanoClock.SYSTEM, TimelineSettings.DEFAULT);
            recorder.beginPhase(Interval.RUN);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            recorder.close();
        }
    }

    /** Each thread's own request counter: a send lag of 0..16 µs and a latency of 1..18 ms, varying per request. */
    @State(Scope.Thread)
    public static class Requests {
        long i;

        long lag() {
            return (i * 7_919L) & 0x3FFF;
        }

        long latency() {
            return 1_000_000L + ((i++ * 104_729L) & 0xFFFFFF);
        }
    }

    // ---- wrong: every thread writes the same recorders ----

    @Benchmark
    @Threads(1)
    @AllocatesNothing
    public void sharedRecorder_1thread(SharedRecorders r, Requests q) {
        r.started.recordValue(q.lag());
        r.ended[RequestOutcome.COMPLETED.ordinal()].recordValue(q.latency());
    }

    @Benchmark
    @Threads(2)
    @AllocatesNothing
    public void sharedRecorder_2threads(SharedRecorders r, Requests q) {
        r.started.recordValue(q.lag());
        r.ended[RequestOutcome.COMPLETED.ordinal()].recordValue(q.latency());
    }

    // ---- right: the striped IntervalRecorder ----

    @Benchmark
    @Threads(1)
    @AllocatesNothing
    public void intervalRecorder_1thread(Timeline t, Requests q) {
        t.recorder.started(q.lag());
        t.recorder.ended(RequestOutcome.COMPLETED, q.latency());
    }

    @Benchmark
    @Threads(2)
    @AllocatesNothing
    public void intervalRecorder_2threads(Timeline t, Requests q) {
        t.recorder.started(q.lag());
        t.recorder.ended(RequestOutcome.COMPLETED, q.latency());
    }
}
