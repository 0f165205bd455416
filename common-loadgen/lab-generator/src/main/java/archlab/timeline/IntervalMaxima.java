package archlab.timeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * A resource's view per interval of a run: for each of a few named gauges, the largest value seen in each
 * {@link #INTERVAL} from {@link #start}. The HTTP server's threads and queue ({@code archlab.http.ServerSeries}) and a
 * connection pool's connections and waiters ({@code archlab.db.MeasuredPool}) are both read this way, so their
 * timelines line up with each other and with the run's own (whose intervals start at the same moment, the load's start).
 *
 * <p>Fed twice: by events as they happen ({@link #record}: a wait that just ended, the threads busy at that moment) and
 * by a sampler every {@code samplePeriod} that reads each gauge's {@link Gauge#now()}, so an interval in which nothing
 * ends (every thread stuck, every waiter still waiting) still shows its state. Values recorded before {@link #start} or
 * past {@link #MAX_INTERVALS} intervals are not kept.
 *
 * <p>Cost per event: one compare-and-set loop on an array slot. Thread-safety: {@link #record} from any thread, at once;
 * {@link #start} and {@link #stop} synchronized; the readers any time.
 */
public final class IntervalMaxima {

    /** The length of one interval: the lab's default timeline interval. */
    public static final Duration INTERVAL = Duration.ofMillis(100);
    /** The most intervals kept: two minutes. */
    public static final int MAX_INTERVALS = 1_200;

    /**
     * One gauge.
     *
     * @param name a short name for the report line, e.g. {@code busy_max}
     * @param now  the gauge's value now, read by the sampler; null for a gauge fed by {@link #record} only
     */
    public record Gauge(String name, LongSupplier now) {
        public Gauge {
            Objects.requireNonNull(name, "name");
        }
    }

    private final String samplerName;
    private final Duration samplePeriod;
    private final List<Gauge> gauges;
    private final AtomicLongArray[] maxima;
    /** When interval 0 began ({@link System#nanoTime()}); {@link Long#MIN_VALUE} until {@link #start}. */
    private volatile long origin = Long.MIN_VALUE;
    private Thread sampler;

    /**
     * @param samplerName  the sampler thread's name
     * @param samplePeriod how often the sampler reads the gauges that have a {@link Gauge#now()}
     * @param gauges       the gauges, in the order {@link #record} numbers them
     */
    public IntervalMaxima(String samplerName, Duration samplePeriod, List<Gauge> gauges) {
        this.samplerName = Objects.requireNonNull(samplerName, "samplerName");
        if (samplePeriod == null || samplePeriod.isNegative() || samplePeriod.isZero()) {
            throw new IllegalArgumentException("the sample period must be positive, was " + samplePeriod);
        }
        this.samplePeriod = samplePeriod;
        this.gauges = List.copyOf(gauges);
        if (this.gauges.isEmpty()) {
            throw new IllegalArgumentException("no gauge to keep");
        }
        this.maxima = new AtomicLongArray[this.gauges.size()];
        for (int g = 0; g < maxima.length; g++) {
            maxima[g] = new AtomicLongArray(MAX_INTERVALS);
        }
    }

    /**
     * Starts interval 0 now, forgetting any earlier series, and samples the gauges every sample period on a daemon
     * thread until {@link #stop()} or the last interval.
     */
    public synchronized void start() {
        stop();
        for (AtomicLongArray m : maxima) {
            for (int i = 0; i < MAX_INTERVALS; i++) {
                m.set(i, 0);
            }
        }
        origin = System.nanoTime();
        long end = origin + INTERVAL.toNanos() * MAX_INTERVALS;
        sampler = Thread.ofPlatform().daemon(true).name(samplerName).start(() -> {
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < end) {
                long now = System.nanoTime();
                for (int g = 0; g < gauges.size(); g++) {
                    LongSupplier read = gauges.get(g).now();
                    if (read != null) {
                        record(g, now, read.getAsLong());
                    }
                }
                java.util.concurrent.locks.LockSupport.parkNanos(samplePeriod.toNanos());
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

    /** Records {@code value} of gauge number {@code gauge} seen at {@code atNanos} ({@link System#nanoTime()}). */
    public void record(int gauge, long atNanos, long value) {
        long o = origin;
        if (o == Long.MIN_VALUE || atNanos < o) {
            return;
        }
        long i = (atNanos - o) / INTERVAL.toNanos();
        if (i >= MAX_INTERVALS) {
            return;
        }
        maxima[gauge].accumulateAndGet((int) i, value, Math::max);
    }

    /** @return gauge {@code gauge}'s largest value in each interval, up to the last interval in which any gauge was above 0 */
    public List<Long> maxima(int gauge) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i <= last(); i++) {
            out.add(maxima[gauge].get(i));
        }
        return out;
    }

    /** @return {@code 3,5,…}: one value per interval, from the start; {@code -} when there is none */
    public static String join(List<?> values) {
        return values.isEmpty() ? "-" : String.join(",", values.stream().map(String::valueOf).toList());
    }

    /** @return nanoseconds as milliseconds rounded to one decimal ({@code 2.5}), one per interval */
    public static List<Double> millis(List<Long> nanos) {
        return nanos.stream().map(n -> Math.round(n / 1e5) / 10.0).toList();
    }

    private int last() {
        for (int i = MAX_INTERVALS - 1; i >= 0; i--) {
            for (AtomicLongArray m : maxima) {
                if (m.get(i) > 0) {
                    return i;
                }
            }
        }
        return -1;
    }
}
