package archlab.timeline;

import archlab.clock.NanoClock;
import archlab.request.RequestOutcome;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Records one load run as a timeline: per interval, how many requests started and how each ended, with its latency,
 * plus the {@link HiccupProbe}'s hiccups. The trap it avoids: measuring a timeline must not change what it measures,
 * so the request's own thread does no more than one histogram write per event (no allocation, no lock, and no cache
 * line shared with another request's thread: {@link StripedHistograms}), and everything else — swapping the
 * histograms each interval, merging, percentiles, encoding — happens on one sampler thread of its own, as
 * HdrHistogram's interval logging intends.
 *
 * <p>Life cycle: {@link #start} starts the probe and the sampler; the runner calls {@link #beginPhase} before each
 * phase (warm-up, run), {@link #planned} with the phase's plan (to count offered requests per interval, after the
 * fact, at no cost to the generator), {@link #started} and {@link #ended} from every request, and {@link #finish}
 * once the last request ended. {@link #close()} stops the threads if {@code finish} was never reached.
 *
 * <p>Units: every {@code long} argument is in nanoseconds on the run's clock; values are kept at 1 µs resolution
 * up to one hour (longer ones are recorded as one hour). Interval boundaries are taken every
 * {@link TimelineSettings#interval()} of the run's clock, waited for in real time.
 *
 * <p>Thread-safety: {@link #started}, {@link #ended} and {@link #retried} from any number of threads at once; the phase methods and
 * {@link #finish} from the runner's thread.
 */
public final class IntervalRecorder implements AutoCloseable {

    private static final int OUTCOMES = RequestOutcome.values().length;
    /** The series the hot path writes: one per outcome (indexed by ordinal), then these two. */
    private static final int STARTED = OUTCOMES;
    private static final int RETRIED = OUTCOMES + 1;
    /** The outcomes whose latencies are the interval's latency: the requests that got an answer or timed out. */
    private static final RequestOutcome[] ANSWERED = {RequestOutcome.COMPLETED, RequestOutcome.TIMED_OUT, RequestOutcome.FAILED};

    private final NanoClock clock;
    private final TimelineSettings settings;
    private final long intervalNanos;
    private final boolean on;
    private final StripedHistograms series;
    private final HiccupProbe probe;
    private final Thread sampler;
    private volatile boolean running;

    // the sampler's state, guarded by this
    private final Histogram[] samples = new Histogram[OUTCOMES + 2]; // this interval's, per series
    private final Histogram[] endedSample = new Histogram[OUTCOMES];
    private final Histogram[] latencyOf = new Histogram[OUTCOMES + 2]; // per series: latency for ANSWERED, else null
    private final Histogram startedSample;
    private final Histogram retriedSample;
    private Histogram hiccupSample;
    private final Histogram latency;
    private final Histogram runHiccups;
    private final ByteBuffer scratch;
    private final List<Cut> cuts = new ArrayList<>();
    private final Map<String, Plan> plans = new HashMap<>();
    private String phase;
    private long intervalStart;
    private long nextBoundary;
    private long runBegan = Long.MIN_VALUE;
    private HiccupSummary hiccups = HiccupSummary.NONE;

    /**
     * One interval as the sampler cut it: its histograms and the figures read from them ({@code counted}: its phase,
     * counts and latencies; its start, length and offered requests are set at {@link #finish}).
     */
    private record Cut(IntervalHistograms histograms, Interval counted) {
    }

    /** A phase's planned starts: {@code t0 + offsets[i]}, offsets ascending. */
    private record Plan(long t0Nanos, long[] offsets) {
        long countIn(long fromNanos, long toNanos) {
            return lowerBound(toNanos - t0Nanos) - lowerBound(fromNanos - t0Nanos);
        }

        private int lowerBound(long offset) {
            int i = Arrays.binarySearch(offsets, offset);
            if (i < 0) {
                return -i - 1;
            }
            while (i > 0 && offsets[i - 1] == offset) {
                i--;
            }
            return i;
        }
    }

    private IntervalRecorder(NanoClock clock, TimelineSettings settings) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.on = settings.on();
        this.intervalNanos = settings.interval().toNanos();
        if (!on) {
            series = null;
            startedSample = null;
            retriedSample = null;
            probe = null;
            sampler = null;
            latency = null;
            runHiccups = null;
            scratch = null;
            return;
        }
        series = new StripedHistograms(OUTCOMES + 2, StripedHistograms.defaultStripes(), IntervalRecorder::newHistogram);
        for (int i = 0; i < samples.length; i++) {
            samples[i] = newHistogram();
        }
        System.arraycopy(samples, 0, endedSample, 0, OUTCOMES);
        startedSample = samples[STARTED];
        retriedSample = samples[RETRIED];
        latency = newHistogram();
        for (RequestOutcome answered : ANSWERED) {
            latencyOf[answered.ordinal()] = latency;
        }
        runHiccups = newHistogram();
        scratch = ByteBuffer.allocate(latency.getNeededByteBufferCapacity());
        probe = HiccupProbe.start(settings.probePeriod());
        hiccupSample = probe.intervalHistogram(null);
        intervalStart = clock.nanoTime();
        nextBoundary = intervalStart + intervalNanos;
        running = true;
        sampler = Thread.ofPlatform().daemon(true).name("timeline-sampler").start(this::sample);
    }

    /**
     * @param clock    the run's clock (the runner's)
     * @param settings interval and probe period; {@link TimelineSettings#OFF} records nothing and starts no thread
     * @return a running recorder
     */
    public static IntervalRecorder start(NanoClock clock, TimelineSettings settings) {
        return new IntervalRecorder(clock, settings);
    }

    private static Histogram newHistogram() {
        return new Histogram(HiccupProbe.RESOLUTION_NANOS, HiccupProbe.HIGHEST_NANOS, 3);
    }

    private static long clamp(long nanos) {
        return Math.max(0, Math.min(HiccupProbe.HIGHEST_NANOS, nanos));
    }

    // ---- the hot path: one striped histogram write, no allocation ----

    /** A request started {@code sendLagNanos} after its planned start. */
    public void started(long sendLagNanos) {
        if (on) {
            series.record(STARTED, clamp(sendLagNanos));
        }
    }

    /** A request ended as {@code outcome}, {@code latencyNanos} after its planned start. */
    public void ended(RequestOutcome outcome, long latencyNanos) {
        if (on) {
            series.record(outcome.ordinal(), clamp(latencyNanos));
        }
    }

    /** A caller sent a retry of a request (an attempt after its first). Only the count is kept. */
    public void retried() {
        if (on) {
            series.record(RETRIED, 0);
        }
    }

    // ---- phases, from the runner's thread ----

    /** Ends the current interval now and labels the intervals that follow {@code name} ({@link Interval#RUN} …). */
    public synchronized void beginPhase(String name) {
        if (!on) {
            return;
        }
        long now = clock.nanoTime();
        cut(now);
        phase = Objects.requireNonNull(name, "name");
        nextBoundary = now + intervalNanos;
        if (Interval.RUN.equals(name) && runBegan == Long.MIN_VALUE) {
            runBegan = now;
        }
    }

    /**
     * The current phase plans request {@code i} at {@code t0Nanos + offsets[i]}; {@code offsets} ascending, not
     * changed afterwards.
     */
    public synchronized void planned(long t0Nanos, long[] offsets) {
        if (on && phase != null) {
            plans.put(phase, new Plan(t0Nanos, offsets));
        }
    }

    /**
     * Ends the last interval now, stops the sampler and the probe, and returns the timeline. Its time 0 is when the
     * {@link Interval#RUN} phase began (the first interval recorded, if there was none).
     *
     * @return every interval recorded, oldest first; {@link RunTimeline#NONE} when the timeline was off
     */
    public RunTimeline finish() {
        if (!on) {
            return RunTimeline.NONE;
        }
        stopSampler();
        synchronized (this) {
            cut(clock.nanoTime());
            phase = null;
        }
        probe.close();
        List<Interval> intervals = new ArrayList<>();
        List<IntervalHistograms> histograms = new ArrayList<>();
        synchronized (this) {
            long originNanos = runBegan != Long.MIN_VALUE ? runBegan
                    : cuts.isEmpty() ? clock.nanoTime() : cuts.get(0).histograms().startNanos();
            for (Cut c : cuts) {
                IntervalHistograms h = c.histograms();
                Plan plan = plans.get(h.phase());
                long offered = plan == null ? 0 : plan.countIn(h.startNanos(), h.endNanos());
                intervals.add(c.counted().toBuilder().startMillis((h.startNanos() - originNanos) / 1e6)
                        .lengthMillis((h.endNanos() - h.startNanos()) / 1e6).offered(offered).build());
                histograms.add(h);
            }
            hiccups = HiccupSummary.of(runHiccups, probe.period());
            long originEpochMillis = System.currentTimeMillis() - (clock.nanoTime() - originNanos) / 1_000_000L;
            return new RunTimeline(settings.interval(), settings.probePeriod(), intervals, originNanos,
                    originEpochMillis, histograms);
        }
    }

    /** @return the probe's hiccups over the {@link Interval#RUN} phase; {@link HiccupSummary#NONE} before {@link #finish} */
    public synchronized HiccupSummary hiccups() {
        return hiccups;
    }

    /** Stops the sampler and the probe (if {@link #finish} did not); what was recorded is dropped. */
    @Override
    public void close() {
        if (on) {
            stopSampler();
            probe.close();
        }
    }

    private void stopSampler() {
        running = false;
        LockSupport.unpark(sampler);
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- the sampler thread ----

    private void sample() {
        while (running) {
            long waitNanos;
            synchronized (this) {
                long now = clock.nanoTime();
                if (now >= nextBoundary) {
                    cut(now);
                    nextBoundary = Math.max(nextBoundary + intervalNanos, now + 1);
                }
                waitNanos = nextBoundary - now;
            }
            LockSupport.parkNanos(this, waitNanos);
        }
    }

    /** Takes every series' values since the last cut and keeps the interval that ends at {@code now}; holds this. */
    private void cut(long now) {
        if (latency.getTotalCount() > 0) {
            latency.reset();
        }
        series.drainInto(samples, latencyOf); // the answered outcomes' values go to the interval's latency as well

        hiccupSample = probe.intervalHistogram(hiccupSample);
        long from = intervalStart;
        intervalStart = now;
        if (phase == null || now <= from) {
            return; // before the first phase, or an interval of no length
        }
        if (Interval.RUN.equals(phase)) {
            // the interval's few wake-ups, not an add's walk over every count of a one-hour histogram
            for (HistogramIterationValue v : hiccupSample.recordedValues()) {
                runHiccups.recordValueWithCount(v.getValueIteratedTo(), v.getCountAtValueIteratedTo());
            }
        }
        byte[][] encoded = new byte[Series.values().length][];
        encoded[Series.LATENCY.ordinal()] = IntervalHistograms.encode(latency, scratch);
        encoded[Series.COMPLETED.ordinal()] = IntervalHistograms.encode(endedSample[RequestOutcome.COMPLETED.ordinal()], scratch);
        encoded[Series.TIMED_OUT.ordinal()] = IntervalHistograms.encode(endedSample[RequestOutcome.TIMED_OUT.ordinal()], scratch);
        encoded[Series.FAILED.ordinal()] = IntervalHistograms.encode(endedSample[RequestOutcome.FAILED.ordinal()], scratch);
        encoded[Series.REJECTED.ordinal()] = IntervalHistograms.encode(endedSample[RequestOutcome.REJECTED.ordinal()], scratch);
        encoded[Series.POOL_EXHAUSTED.ordinal()] =
                IntervalHistograms.encode(endedSample[RequestOutcome.POOL_EXHAUSTED.ordinal()], scratch);
        encoded[Series.SEND_LAG.ordinal()] = IntervalHistograms.encode(startedSample, scratch);
        encoded[Series.HICCUP.ordinal()] = IntervalHistograms.encode(hiccupSample, scratch);
        encoded[Series.RETRIED.ordinal()] = IntervalHistograms.encode(retriedSample, scratch);
        boolean any = latency.getTotalCount() > 0;
        Interval counted = Interval.builder().phase(phase).started(startedSample.getTotalCount())
                .completed(endedSample[RequestOutcome.COMPLETED.ordinal()].getTotalCount())
                .timedOut(endedSample[RequestOutcome.TIMED_OUT.ordinal()].getTotalCount())
                .failed(endedSample[RequestOutcome.FAILED.ordinal()].getTotalCount())
                .rejected(endedSample[RequestOutcome.REJECTED.ordinal()].getTotalCount())
                .poolExhausted(endedSample[RequestOutcome.POOL_EXHAUSTED.ordinal()].getTotalCount())
                .latencyMicros(any ? latency.getValueAtPercentile(50) / 1_000L : 0,
                        any ? latency.getValueAtPercentile(99) / 1_000L : 0, any ? latency.getMaxValue() / 1_000L : 0)
                .sendLagP99Micros(startedSample.getTotalCount() == 0 ? 0 : startedSample.getValueAtPercentile(99) / 1_000L)
                .hiccupMaxMicros(hiccupSample.getTotalCount() == 0 ? 0 : hiccupSample.getMaxValue() / 1_000L)
                .retried(retriedSample.getTotalCount())
                .build();
        cuts.add(new Cut(new IntervalHistograms(phase, from, now, encoded), counted));
    }

    /** @return the thread that cuts the intervals (null when off): for measuring what it costs */
    Thread samplerThread() {
        return sampler;
    }

    /** @return the interval length this recorder cuts at */
    public Duration interval() {
        return settings.interval();
    }
}
