package archlab.downstream;

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
 * A downstream's connection pool: at most {@code maxConnections} calls at once, the rest wait in line (first come,
 * first served) for a connection to come back.
 *
 * <p>The trap it teaches: <b>whose deadline the pool works to</b>. Java's pools and drivers ship with timeouts of
 * their own that know nothing of the request behind the call ({@link Waits#POOL_TIMEOUT}): HikariCP waits up to its
 * {@code connectionTimeout}, 30 s, for a connection, and a JDBC statement without a query timeout holds its connection
 * until the database answers. When the downstream slows, the line grows; a caller whose deadline passed long ago still
 * stands in it, holding its thread, and when its turn comes its call still goes out and holds a connection for the
 * downstream's full latency — work for a caller that has given up, while the callers behind it wait. Go's
 * {@code database/sql} works to the request's {@code context.Context} instead ({@code QueryContext(ctx, …)}): the wait
 * and the call both end at the caller's deadline; here that is {@link Waits#CALLER_DEADLINE}, and a caller that could
 * not get a connection in time gives up with a {@link ConnectionWaitTimeoutException}, a
 * {@link DownstreamTimeoutException} that says nothing was sent.

 * <p>Units: waits are measured on the caller's {@link RequestContext#clock()}, and waited for in real time.
 *
 * <p>Thread-safety: safe from any number of threads; the line is a fair {@link Semaphore}.
 */
public final class ConnectionPool {

    /** Whose deadline a caller's wait for a connection, and then its call, work to. */
    public enum Waits {
        /**
         * The pool's own: the wait lasts up to the acquisition timeout, and the call is handed that timeout as its
         * deadline (from when it got its connection), whatever the caller's. How Java's pools and drivers ship.
         */
        POOL_TIMEOUT,
        /** The caller's: the wait and the call both end at the caller's deadline (or the pool's timeout, if sooner). */
        CALLER_DEADLINE
    }

    /**
     * @param maxConnections     calls served at once; at least 1
     * @param acquisitionTimeout the longest any caller waits for a connection; positive
     * @param waits              whether a wait also ends at the caller's deadline
     */
    public record Settings(int maxConnections, Duration acquisitionTimeout, Waits waits) {

        /** HikariCP's default {@code connectionTimeout}. */
        public static final Duration SHIPPED_ACQUISITION_TIMEOUT = Duration.ofSeconds(30);

        public Settings {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("a pool needs at least 1 connection, was " + maxConnections);
            }
            if (acquisitionTimeout == null || acquisitionTimeout.isNegative() || acquisitionTimeout.isZero()) {
                throw new IllegalArgumentException("acquisitionTimeout must be positive, was " + acquisitionTimeout);
            }
            Objects.requireNonNull(waits, "waits");
        }

        /** @return {@code maxConnections} connections, as pools ship: a 30 s acquisition timeout, deadline unseen */
        public static Settings shipped(int maxConnections) {
            return new Settings(maxConnections, SHIPPED_ACQUISITION_TIMEOUT, Waits.POOL_TIMEOUT);
        }

        /** @return these settings with waits {@code w} */
        public Settings withWaits(Waits w) {
            return new Settings(maxConnections, acquisitionTimeout, w);
        }

        /** @return e.g. {@code max=4 acquisition_timeout=30000ms waits=pool_timeout} */
        public String describe() {
            return "max=" + maxConnections + " acquisition_timeout=" + acquisitionTimeout.toMillis() + "ms waits="
                    + waits.name().toLowerCase(Locale.ROOT);
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
    public record Snapshot(Settings settings, @JsonUnwrapped Acquisitions acquisitions,
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
    private final Settings settings;
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
    public ConnectionPool(String name, Settings settings) {
        this.name = Objects.requireNonNull(name, "name");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.connections = new Semaphore(settings.maxConnections(), true);
    }

    /**
     * Runs {@code call} holding one connection: at once if one is free, else after waiting in line. The call gets the
     * caller's context ({@link Waits#CALLER_DEADLINE}) or the same with the pool's timeout as its deadline.
     *
     * @throws ConnectionWaitTimeoutException (passed on arrival: nothing sent) if the wait ended before a connection came
     *                                    back: the pool's timeout, or with {@link Waits#CALLER_DEADLINE} the deadline
     * @throws DownstreamException        if the thread was interrupted while waiting (interrupt flag restored)
     */
    // tag::acquire[]
    public <T> T call(RequestContext ctx, Function<RequestContext, T> call) {
        long begin = ctx.clock().nanoTime();
        boolean free;
        try {
            // not tryAcquire(): that one barges past callers already in line, even on a fair semaphore
            free = connections.tryAcquire(0, TimeUnit.NANOSECONDS);
            if (!free) {
                long budgetNanos = waitBudgetNanos(ctx);
                if (budgetNanos > 0) {
                    waitingMax.accumulate(waiting.incrementAndGet());
                    try {
                        free = connections.tryAcquire(budgetNanos, TimeUnit.NANOSECONDS);
                    } finally {
                        waiting.decrementAndGet();
                    }
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
            return call.apply(callContext(ctx));
        } finally {
            inUse.decrementAndGet();
            connections.release();
        }
    }

    /** The context the call goes out with: the caller's, or with the pool's own timeout from now as its deadline. */
    RequestContext callContext(RequestContext ctx) {
        return settings.waits() == Waits.CALLER_DEADLINE ? ctx
                : ctx.withDeadline(Deadline.after(ctx.clock(), settings.acquisitionTimeout()));
    }

    /** How long a caller may wait, from now: the pool's timeout, cut at the caller's deadline if it waits on it. */
    long waitBudgetNanos(RequestContext ctx) {
        long poolNanos = settings.acquisitionTimeout().toNanos();
        return settings.waits() == Waits.CALLER_DEADLINE ? Math.min(poolNanos, ctx.remainingNanos()) : poolNanos;
    }
    // end::acquire[]

    /** @return the settings this pool was built with */
    public Settings settings() {
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
