package archlab.http;

import archlab.timeline.IntervalMaxima;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The server's view per interval of a run: the longest a socket event waited for a thread and the most threads busy
 * at once, in each {@link #INTERVAL} from {@link #start}. Events before the start or past {@link #MAX_INTERVALS}
 * intervals are not in the series (they stay in the server's whole-life figures).
 *
 * <p>Fed twice ({@link IntervalMaxima}): by every event a thread takes up (its wait, the threads busy then) and by a
 * sampler every {@link #SAMPLE_PERIOD} (the oldest queued event's wait so far, the threads busy), so an interval in
 * which every thread is stuck still shows its queue. Cost per event: two compare-and-set loops on an array slot.
 * Thread-safety: {@link #record} from any thread, at once; {@link #start} and {@link #stop} synchronized; {@link #line()}
 * any time.
 */
public final class ServerSeries {

    /** The length of one interval: the lab's default timeline interval. */
    public static final Duration INTERVAL = IntervalMaxima.INTERVAL;
    /** The most intervals kept: two minutes. */
    public static final int MAX_INTERVALS = IntervalMaxima.MAX_INTERVALS;

    /** How often the sampler looks at the busy threads and the oldest queued event. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(5);

    private static final int QUEUE_WAIT = 0;
    private static final int BUSY = 1;

    private final IntervalMaxima maxima;

    /**
     * @param busyNow           the threads running an event now
     * @param oldestQueuedNanos how long the oldest event still in the queue has waited so far (0 for none), so that a
     *                          wait shows in the intervals it spans, not only in the one a thread finally takes it up
     */
    ServerSeries(java.util.function.IntSupplier busyNow, java.util.function.LongSupplier oldestQueuedNanos) {
        this.maxima = new IntervalMaxima("server-series", SAMPLE_PERIOD, List.of(
                new IntervalMaxima.Gauge("queue_wait_max", oldestQueuedNanos),
                new IntervalMaxima.Gauge("busy_max", busyNow::getAsInt)));
    }

    /**
     * Starts interval 0 now, forgetting any earlier series, and samples the server every {@link #SAMPLE_PERIOD} on a
     * daemon thread until {@link #stop()} or the last interval.
     */
    public void start() {
        maxima.start();
    }

    /** Stops the sampler (the series stays readable); nothing when not started. */
    public void stop() {
        maxima.stop();
    }

    /** Records one event taken up at {@code atNanos} after {@code waitNanos} in the queue, {@code busy} threads busy. */
    void record(long atNanos, long waitNanos, int busy) {
        maxima.record(QUEUE_WAIT, atNanos, waitNanos);
        maxima.record(BUSY, atNanos, busy);
    }

    /** @return the longest queue wait of each interval, milliseconds, up to the last interval that saw an event */
    public List<Double> queueWaitMaxMillis() {
        return IntervalMaxima.millis(maxima.maxima(QUEUE_WAIT));
    }

    /** @return the most threads busy in each interval, up to the last interval that saw an event */
    public List<Long> busyMax() {
        return maxima.maxima(BUSY);
    }

    /** @return {@code interval=100ms queue_wait_max_ms=0.1,0.2,… busy_max=3,5,…}: one value per interval, from the start */
    public String line() {
        return String.format(Locale.ROOT, "interval=%dms from=the run's start queue_wait_max_ms=%s busy_max=%s",
                INTERVAL.toMillis(), IntervalMaxima.join(queueWaitMaxMillis()), IntervalMaxima.join(busyMax()));
    }
}
