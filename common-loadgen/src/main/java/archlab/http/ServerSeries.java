package archlab.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The server's view per interval of a run: the longest a socket event waited for a thread and the most threads busy
 * at once, in each {@link #INTERVAL} from {@link #start}. Events before the start or past {@link #MAX_INTERVALS}
 * intervals are not in the series (they stay in the server's whole-life figures).
 *
 * <p>Fed twice: by every event a thread takes up (its wait, the threads busy then) and by a sampler every
 * {@link #SAMPLE_PERIOD} (the oldest queued event's wait so far, the threads busy), so an interval in which every thread
 * is stuck still shows its queue. Cost per event: two compare-and-set loops on an array slot. Thread-safety:
 * {@link #record} from any thread, at once; {@link #start} and {@link #stop} synchronized; {@link #line()} any time.
 */
public final class ServerSeries {

    /** The length of one interval: the lab's default timeline interval. */
    public static final Duration INTERVAL = Duration.ofMillis(100);
    /** The most intervals kept: two minutes. */
    public static final int MAX_INTERVALS = 1_200;

    private final AtomicLongArray waitMaxNanos = new AtomicLongArray(MAX_INTERVALS);
    private final AtomicLongArray busyMax = new AtomicLongArray(MAX_INTERVALS);
    /** When interval 0 began ({@link System#nanoTime()}); {@link Long#MIN_VALUE} until {@link #start}. */
    private volatile long origin = Long.MIN_VALUE;

    /** How often the sampler looks at the busy threads and the oldest queued event. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(5);

    private final java.util.function.IntSupplier busyNow;
    private final java.util.function.LongSupplier oldestQueuedNanos;
    private Thread sampler;

    /**
     * @param busyNow           the threads running an event now
     * @param oldestQueuedNanos how long the oldest event still in the queue has waited so far (0 for none), so that a
     *                          wait shows in the intervals it spans, not only in the one a thread finally takes it up
     */
    ServerSeries(java.util.function.IntSupplier busyNow, java.util.function.LongSupplier oldestQueuedNanos) {
        this.busyNow = busyNow;
        this.oldestQueuedNanos = oldestQueuedNanos;
    }

    /**
     * Starts interval 0 now, forgetting any earlier series, and samples the server every {@link #SAMPLE_PERIOD} on a
     * daemon thread until {@link #stop()} or the last interval.
     */
    public synchronized void start() {
        stop();
        for (int i = 0; i < MAX_INTERVALS; i++) {
            waitMaxNanos.set(i, 0);
            busyMax.set(i, 0);
        }
        origin = System.nanoTime();
        long end = origin + INTERVAL.toNanos() * MAX_INTERVALS;
        sampler = Thread.ofPlatform().daemon(true).name("server-series").start(() -> {
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < end) {
                record(System.nanoTime(), oldestQueuedNanos.getAsLong(), busyNow.getAsInt());
                java.util.concurrent.locks.LockSupport.parkNanos(SAMPLE_PERIOD.toNanos());
            }
        });
    }

    /** Stops the sampler (the series stays readable); nothing when not started. */
    public synchronized void stop() {
        if (sampler != null) {
            sampler.interrupt();
            sampler = null;
        }
    }

    /** Records one event taken up at {@code atNanos} after {@code waitNanos} in the queue, {@code busy} threads busy. */
    void record(long atNanos, long waitNanos, int busy) {
        long o = origin;
        if (o == Long.MIN_VALUE || atNanos < o) {
            return;
        }
        long i = (atNanos - o) / INTERVAL.toNanos();
        if (i >= MAX_INTERVALS) {
            return;
        }
        waitMaxNanos.accumulateAndGet((int) i, waitNanos, Math::max);
        busyMax.accumulateAndGet((int) i, busy, Math::max);
    }

    /** @return the longest queue wait of each interval, milliseconds, up to the last interval that saw an event */
    public List<Double> queueWaitMaxMillis() {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i <= last(); i++) {
            out.add(Math.round(waitMaxNanos.get(i) / 1e5) / 10.0);
        }
        return out;
    }

    /** @return the most threads busy in each interval, up to the last interval that saw an event */
    public List<Long> busyMax() {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i <= last(); i++) {
            out.add(busyMax.get(i));
        }
        return out;
    }

    /** @return {@code interval=100ms queue_wait_max_ms=0.1,0.2,… busy_max=3,5,…}: one value per interval, from the start */
    public String line() {
        return String.format(Locale.ROOT, "interval=%dms from=the run's start queue_wait_max_ms=%s busy_max=%s",
                INTERVAL.toMillis(), join(queueWaitMaxMillis()), join(busyMax()));
    }

    private int last() {
        for (int i = MAX_INTERVALS - 1; i >= 0; i--) {
            if (busyMax.get(i) > 0 || waitMaxNanos.get(i) > 0) {
                return i;
            }
        }
        return -1;
    }

    private static String join(List<?> values) {
        return values.isEmpty() ? "-" : String.join(",", values.stream().map(String::valueOf).toList());
    }
}
