package archlab.downstream;

import archlab.background.Durations;
import archlab.request.Deadline;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LatencySummary;
import archlab.request.RequestContext;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A downstream's connection pool as Java's pools ship: at most {@code maxConnections} calls at once, the rest wait in
 * line (first come, first served) for a connection to come back, each for up to the pool's own acquisition timeout.
 *
 * <p>The trap it teaches: <b>the pool works to its own deadline, not the caller's</b>. HikariCP waits up to its
 * {@code connectionTimeout}, 30 s, for a connection, and a JDBC statement without a query timeout holds its connection
 * until the database answers; neither knows the request behind the call. When the downstream slows, the line grows; a
 * caller whose deadline passed long ago still stands in it, holding its thread, and when its turn comes its call still
 * goes out, handed the pool's timeout as its deadline, and holds a connection for the downstream's full latency: work
 * for a caller that has given up, while the callers behind it wait. This pool has no switch that mends it; a service
 * that must keep its deadlines guards the pool in its own code (chapter 12.3's checkpoint does), the way Go's
 * {@code database/sql} works to the request's {@code context.Context}.
 *
 * <p>Units: waits are measured on the caller's {@link RequestContext#clock()}, and waited for in real time.
 *
 * <p>Thread-safety: safe from any number of threads; the line is a fair {@link Semaphore}.
 */
public final class ConnectionPool {

    /**
     * @param maxConnections     calls served at once; at least 1
     * @param acquisitionTimeout the longest any caller waits for a connection, and the deadline its call is handed from
     *                           when it got one; positive
     */
    public record PoolSettings(int maxConnections, Duration acquisitionTimeout) {

        /** HikariCP's default {@code connectionTimeout}. */
        public static final Duration SHIPPED_ACQUISITION_TIMEOUT = Duration.ofSeconds(30);

        public PoolSettings {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("a pool needs at least 1 connection, was " + maxConnections);
            }
            Durations.requirePositive("acquisitionTimeout", acquisitionTimeout);
        }

        /** @return {@code maxConnections} connections, as pools ship: a 30 s acquisition timeout */
        public static PoolSettings shipped(int maxConnections) {
            return new PoolSettings(maxConnections, SHIPPED_ACQUISITION_TIMEOUT);
        }

        /** @return e.g. {@code max=4 acquisition_timeout=30000ms} */
        public String describe() {
            return "max=" + maxConnections + " acquisition_timeout=" + acquisitionTimeout.toMillis() + "ms";
        }
    }

    /**
     * What a pool did over a run. JSON: its parts are unwrapped, their figures lie between {@code settings} and
     * {@code waits}.
     *
     * @param settings     its settings
     * @param acquisitions what callers asked of it and got
     * @param highWater    the most it held at once
     * @param waits        how long callers waited, handed a connection or not (a free connection: 0)
     */
    public record Snapshot(PoolSettings settings, @JsonUnwrapped Acquisitions acquisitions,
                           @JsonUnwrapped HighWater highWater, LatencySummary waits) {

        /** @return one report line: {@code payment_pool max=4 … in_use_max=4 waiting_max=80 wait_p99_ms=…} */
        public String reportLine(String name) {
            return String.format(Locale.ROOT,
                    "%s_pool %s acquired=%d waited=%d wait_timeouts=%d in_use_max=%d waiting_max=%d wait_p50_ms=%.3f wait_p99_ms=%.3f wait_max_ms=%.3f",
                    name, settings.describe(), acquisitions.acquired(), acquisitions.waited(),
                    acquisitions.waitTimeouts(), highWater.inUseMax(), highWater.waitingMax(),
                    waits.p50Micros() / 1e3, waits.p99Micros() / 1e3, waits.maxMicros() / 1e3);
        }
    }

    /**
     * What callers asked of a pool and got.
     *
     * @param acquired     connections handed out
     * @param waited       of those, handed out after a wait (none was free)
     * @param waitTimeouts callers that gave up waiting (nothing sent)
     */
    public record Acquisitions(long acquired, long waited, long waitTimeouts) {
    }

    /**
     * The most a pool held at once.
     *
     * @param inUseMax   the most connections in use at once
     * @param waitingMax the most callers waiting at once
     */
    public record HighWater(int inUseMax, int waitingMax) {
    }

    private final String name;
    private final PoolSettings settings;
    private final Semaphore connections;
    private final AtomicInteger inUse = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAccumulator inUseMax = new LongAccumulator(Math::max, 0);
    private final LongAccumulator waitingMax = new LongAccumulator(Math::max, 0);
    private final LongAdder acquired = new LongAdder();
    private final LongAdder waited = new LongAdder();
    private final LongAdder waitTimeouts = new LongAdder();
    private final LatencyHistogram waitNanos = new LatencyHistogram();

    /** @param name the downstream's name, in messages and the report line (e.g. {@code "payments"}) */
    public ConnectionPool(String name, PoolSettings settings) {
        this.name = Objects.requireNonNull(name, "name");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.connections = new Semaphore(settings.maxConnections(), true);
    }

    /**
     * Runs {@code call} holding one connection: at once if one is free, else after waiting in line for up to the pool's
     * timeout, whatever the caller's deadline. The call gets the caller's context with the pool's timeout, from now, as
     * its deadline.
     *
     * @throws ConnectionWaitTimeoutException (passed on arrival: nothing sent) if the pool's timeout ended the wait
     *                                        before a connection came back
     * @throws DownstreamException            if the thread was interrupted while waiting (interrupt flag restored)
     */
    // tag::acquire[]
    public <T> T call(RequestContext ctx, Function<RequestContext, T> call) {
        long begin = ctx.clock().nanoTime();
        boolean free;
        try {
            // not tryAcquire(): that one barges past callers already in line, even on a fair semaphore
            free = connections.tryAcquire(0, TimeUnit.NANOSECONDS);
            if (!free) {
                waitingMax.accumulate(waiting.incrementAndGet());
                try {
                    // the pool's own timeout: the caller's deadline is not looked at
                    free = connections.tryAcquire(settings.acquisitionTimeout().toNanos(), TimeUnit.NANOSECONDS);
                } finally {
                    waiting.decrementAndGet();
                }
                waitNanos.record(ctx.clock().nanoTime() - begin);
                if (free) {
                    waited.increment();
                }
            } else {
                waitNanos.record(0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DownstreamException(name, -1, "interrupted waiting for a connection", e);
        }
        if (!free) {
            waitTimeouts.increment();
            throw new ConnectionWaitTimeoutException(name, Duration.ofNanos(ctx.clock().nanoTime() - begin), settings);
        }
        acquired.increment();
        inUseMax.accumulate(inUse.incrementAndGet());
        try {
            // the driver's timeout, not the request's: a caller gone long ago still holds this connection
            return call.apply(ctx.withDeadline(Deadline.after(ctx.clock(), settings.acquisitionTimeout())));
        } finally {
            inUse.decrementAndGet();
            connections.release();
        }
    }
    // end::acquire[]

    /** @return the settings this pool was built with */
    public PoolSettings settings() {
        return settings;
    }

    /** @return connections in use right now */
    public int inUse() {
        return inUse.get();
    }

    /** @return callers waiting right now */
    public int waiting() {
        return waiting.get();
    }

    /** @return what this pool did so far */
    public Snapshot snapshot() {
        return new Snapshot(settings, new Acquisitions(acquired.sum(), waited.sum(), waitTimeouts.sum()),
                new HighWater((int) inUseMax.get(), (int) waitingMax.get()), waitNanos.summary());
    }
}
