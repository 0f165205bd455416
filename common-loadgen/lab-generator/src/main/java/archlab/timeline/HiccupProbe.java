package archlab.timeline;

import archlab.clock.NanoClock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The machine's own stalls, measured while a run measures the service. The trap it exposes: on a shared 2-core
 * machine most of what moves a p99 from one run to the next is neither the service nor the load generator but the
 * machine itself (another process on the cores, the JIT, a GC safepoint); a report that does not measure those
 * stalls cannot tell a slow service from a disturbed run.
 *
 * <p>How, as jHiccup's {@code HiccupMeter} and JLBH's jitter probe do it: one platform thread asks to sleep for a
 * fixed {@link #period()} (1 ms by default), again and again, and records how much longer than its shortest sleep so
 * far each sleep took: the <em>hiccup</em>, what any thread that wanted to run at that moment would have waited on
 * top of its own work. Each hiccup is recorded with HdrHistogram's expected-interval correction (a 50 ms stall is
 * also the 49, 48, … 1 ms waits of the wake-ups it swallowed), so that the percentiles are shares of <em>time</em>:
 * hiccup p99 = 3 ms means that during 1% of the run the machine kept a runnable thread waiting 3 ms or more.
 *
 * <p>Why not a library: jHiccup is an agent and a command-line tool that writes its own log file; LatencyUtils'
 * {@code SimplePauseDetector} reports only pauses above a threshold seen by all its threads at once (and its users,
 * Micrometer and Lettuce, turned it off by default). What they measure is these few lines on an HdrHistogram
 * {@link SingleWriterRecorder}: the probe thread is its only writer; one reader takes interval histograms.
 *
 * <p>Units: hiccups are recorded in nanoseconds (1 µs resolution, up to one hour).
 *
 * <p>Thread-safety: {@link #worstNanos()}, {@link #stalledBeyond(Duration)} and {@link #describe()} may be called from
 * any thread; {@link #intervalHistogram(Histogram)} by one reader at a time; {@link #close()} from any thread, once
 * or more.
 */
public final class HiccupProbe implements AutoCloseable {

    /** How often the probe asks to wake: jHiccup's default resolution. */
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(1);
    /** The largest hiccup recorded, ns (one hour); a longer one is recorded as this. */
    static final long HIGHEST_NANOS = 3_600_000_000_000L;
    /** Recorded values below this are told apart only to this resolution, ns (1 µs). */
    static final long RESOLUTION_NANOS = 1_000L;

    /** How the probe waits: real sleeping in a run, a scripted clock in a test. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private static final Sleeper THREAD_SLEEP = nanos -> Thread.sleep(Duration.ofNanos(nanos));

    private final NanoClock clock;
    private final Sleeper sleeper;
    private final long periodNanos;
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(RESOLUTION_NANOS, HIGHEST_NANOS, 3);
    private long shortestSleepNanos = Long.MAX_VALUE; // written and read by the probe thread only
    private volatile long worstNanos;
    private volatile long wakeUps;
    private volatile long stalledNanos;
    /** The shortest hiccup {@link #stalledNanos} counts. */
    private static final long STALL_NANOS = 1_000_000L;
    private volatile boolean running = true;
    private Thread thread;

    HiccupProbe(NanoClock clock, Sleeper sleeper, Duration period) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        if (period == null || period.isNegative() || period.toNanos() < RESOLUTION_NANOS) {
            throw new IllegalArgumentException("the probe's period must be at least 1 µs, was " + period);
        }
        this.periodNanos = period.toNanos();
    }

    /** @return a probe waking every {@link #DEFAULT_PERIOD}, already running */
    public static HiccupProbe start() {
        return start(DEFAULT_PERIOD);
    }

    /** @return a probe waking every {@code period} (at least 1 µs), already running on a daemon platform thread */
    public static HiccupProbe start(Duration period) {
        HiccupProbe probe = new HiccupProbe(NanoClock.SYSTEM, THREAD_SLEEP, period);
        probe.thread = Thread.ofPlatform().daemon(true).name("hiccup-probe").start(probe::loop);
        return probe;
    }

    private void loop() {
        try {
            while (running) {
                step();
            }
        } catch (InterruptedException e) {
            // close() interrupts a probe that sleeps: it is over
        }
    }

    /** One wake-up: sleep for the period, record how much longer than the shortest sleep so far it took. */
    void step() throws InterruptedException {
        long before = clock.nanoTime();
        sleeper.sleep(periodNanos);
        long slept = clock.nanoTime() - before;
        shortestSleepNanos = Math.min(shortestSleepNanos, slept);
        long hiccup = Math.min(HIGHEST_NANOS, slept - shortestSleepNanos);
        recorder.recordValueWithExpectedInterval(hiccup, periodNanos);
        if (hiccup > worstNanos) {
            worstNanos = hiccup;
        }
        if (hiccup >= STALL_NANOS) {
            stalledNanos += hiccup;
        }
        wakeUps++; // one writer: the probe thread
    }

    /**
     * The hiccups recorded since the last call (or since the start), in nanoseconds, as a fresh interval.
     *
     * @param recycle the histogram the previous call returned, to be reused without allocating; or null
     * @return the interval's histogram (time-weighted: see the class comment)
     */
    public Histogram intervalHistogram(Histogram recycle) {
        return recorder.getIntervalHistogram(recycle);
    }

    /** @return how often the probe asks to wake */
    public Duration period() {
        return Duration.ofNanos(periodNanos);
    }

    /** @return the longest hiccup so far, ns */
    public long worstNanos() {
        return worstNanos;
    }

    /**
     * @return the hiccups of at least 1 ms so far, summed, ns: how long the machine stood still in all, its
     *         sub-millisecond jitter left out (a thousand wake-ups of 20 µs each are no stall)
     */
    public long stalledNanos() {
        return stalledNanos;
    }

    /** @return how many times the probe woke so far */
    public long wakeUps() {
        return wakeUps;
    }

    /** @return whether the machine stalled longer than {@code slack} so far */
    public boolean stalledBeyond(Duration slack) {
        return worstNanos > slack.toNanos();
    }

    /** @return e.g. {@code "machine hiccup max 3.2 ms"} */
    public String describe() {
        return String.format(Locale.ROOT, "machine hiccup max %.1f ms", worstNanos / 1e6);
    }

    /** @return the probe's thread, or null for a probe a test drives by {@link #step()} */
    Thread thread() {
        return thread;
    }

    /** Stops the probe and waits for its thread to end. */
    @Override
    public void close() {
        running = false;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
