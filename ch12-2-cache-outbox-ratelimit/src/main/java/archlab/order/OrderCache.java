package archlab.order;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.trace.Span;
import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

/**
 * A bounded read cache in front of the order table (Caffeine), used by get only.
 *
 * <p>The traps it avoids, the three a read cache is known for, plus the one it can create:
 * <ul>
 *   <li><b>Breakdown (stampede).</b> Concurrent misses of one id load it once: the first caller puts a pending
 *       entry (a future) in the map and reads the table; the others find that entry and wait for its result.</li>
 *   <li><b>Penetration.</b> An unknown id is cached as <em>absent</em> for {@link Settings#negativeTtl()}
 *       (short), so a stream of bad ids reaches the table once per id per negative lifetime.</li>
 *   <li><b>Avalanche.</b> A found order lives {@code ttl × (1 ± jitter)}, drawn per entry from its id and its
 *       load instant, so entries loaded together do not expire together.</li>
 *   <li><b>Staleness.</b> The service {@link #invalidate}s an order after every change, before the change
 *       returns. The invalidation removes the entry, pending or not, and a pending load that completes after its
 *       entry was removed is not put back (Caffeine replaces an entry only with the future it was given): a get
 *       that starts after a pay returned never sees the order as it was before that pay.</li>
 * </ul>
 *
 * <p>The trap it avoids that the cache itself can set: <b>a write that waits for a read.</b> A synchronous
 * cache ({@code cache.get(id, loader)}) runs the loader inside the map's per-bin lock, and an invalidation of
 * that key, or of any key in the same bin, waits for it: on PostgreSQL a pay whose order (or a neighbour in its
 * bin) is being read waits for that read, however slow the store is. Here no lock is held while the table is
 * read: the map holds a future, the table is read on the caller's thread outside the map, and an invalidation
 * never waits for a load. The price: the gets that wait for one load share its failure, where each used to try
 * again on its own.
 *
 * <p>What it buys, honestly: once the lock no longer spans the downstream calls, a read of the in-memory
 * table costs microseconds, and so does a hit. The cache pays off when the table read is expensive (see
 * {@code CacheLatencyRunsTest}: get latency at 0 and 1 ms read latency, with and without it) and the
 * reads repeat; the book's gets spread over 4,000 orders and rarely repeat within a 3 s run.
 *
 * <p>Time comes from the injected {@link NanoClock} (Caffeine's ticker) and maintenance runs on the injected
 * executor, so a test advances a fake clock and runs maintenance on its own thread instead of sleeping.
 *
 * <p>Thread-safety: every method may be called from any number of threads.
 */
public final class OrderCache {

    /** Segment: a get through the cache, a load's table read nested in it. */
    public static final String CACHE_LOOKUP = "cache.lookup";
    /** Segment: dropping a changed order's entry. */
    public static final String CACHE_INVALIDATE = "cache.invalidate";

    /**
     * @param maximumSize how many orders (found or absent) it keeps at most; at least 1
     * @param ttl         the mean lifetime of a found order; positive
     * @param jitter      the lifetime's spread, a fraction in [0, 1): each lifetime is drawn from
     *                    [ttl × (1 − jitter), ttl × (1 + jitter))
     * @param negativeTtl how long "no such order" is remembered; positive, and short: an order created with
     *                    that id is visible at once anyway (create invalidates)
     */
    public record Settings(long maximumSize, Duration ttl, double jitter, Duration negativeTtl) {

        /** 10,000 orders, 5 s ± 20%, "absent" for 500 ms. */
        public static final Settings DEFAULT = new Settings(10_000, Duration.ofSeconds(5), 0.2, Duration.ofMillis(500));

        public Settings {
            if (maximumSize < 1) {
                throw new IllegalArgumentException("maximumSize must be at least 1, was " + maximumSize);
            }
            if (ttl == null || ttl.isNegative() || ttl.isZero()) {
                throw new IllegalArgumentException("ttl must be positive, was " + ttl);
            }
            if (!(jitter >= 0.0 && jitter < 1.0)) {
                throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter);
            }
            if (negativeTtl == null || negativeTtl.isNegative() || negativeTtl.isZero()) {
                throw new IllegalArgumentException("negativeTtl must be positive, was " + negativeTtl);
            }
        }
    }

    private final Settings settings;
    private final AsyncCache<String, Optional<Order>> cache;
    private final BiFunction<RequestContext, String, Order> loader;

    /**
     * @param settings size and lifetimes
     * @param clock    the cache's time (Caffeine's ticker), nanoseconds
     * @param executor where Caffeine runs its maintenance; {@code Runnable::run} in tests
     * @param loader   reads one order from the table: the order, or {@code null} if there is none
     */
    public OrderCache(Settings settings, NanoClock clock, Executor executor, BiFunction<RequestContext, String, Order> loader) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.loader = Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(clock, "clock");
        this.cache = Caffeine.newBuilder()
                .maximumSize(settings.maximumSize())
                .expireAfter(new JitteredExpiry(settings))
                .ticker(clock::nanoTime)
                .executor(Objects.requireNonNull(executor, "executor"))
                .recordStats()
                .buildAsync();
    }

    /**
     * Looks {@code orderId} up, loading it from the table on a miss (one load per id at a time, on the thread of
     * the get that missed first), marked as segment {@value #CACHE_LOOKUP}; a load's table read is nested in it.
     *
     * @return the order, or empty if there is no such order (possibly remembered from an earlier miss)
     * @throws RuntimeException what the load threw (to every get that waited for it); nothing is remembered then
     */
    // tag::lookup[]
    public Optional<Order> get(RequestContext ctx, String orderId) {
        Objects.requireNonNull(orderId, "orderId");
        try (Span s = ctx.span(CACHE_LOOKUP)) {
            CompletableFuture<Optional<Order>> mine = new CompletableFuture<>();
            CompletableFuture<Optional<Order>> entry = cache.get(orderId, (id, executor) -> mine); // no read in the map
            if (entry == mine) { // this get missed first: it reads the table, outside any lock of the map's
                load(ctx, orderId, mine);
            }
            return resultOf(entry);
        }
    }

    /** Forgets {@code orderId}, pending load or not, at once: it never waits for a read of the table. */
    public void invalidate(String orderId) {
        cache.synchronous().invalidate(orderId);
    }
    // end::lookup[]

    /**
     * Reads the table into {@code pending}. A failed read is taken out of the map first (nothing remembers it), then
     * handed to the gets that wait for it as a {@link FailedLoad}: a cancellation, which Caffeine does not log, carrying
     * the read's own exception.
     */
    private void load(RequestContext ctx, String orderId, CompletableFuture<Optional<Order>> pending) {
        try {
            pending.complete(Optional.ofNullable(loader.apply(ctx, orderId)));
        } catch (RuntimeException e) {
            cache.asMap().remove(orderId, pending);
            pending.completeExceptionally(new FailedLoad(e));
        } catch (Throwable e) { // an Error, or a checked exception thrown sneakily: no waiter may wait for ever
            cache.asMap().remove(orderId, pending);
            pending.completeExceptionally(e);
            throw e;
        }
    }

    /** Waits for a load; a failed one's exception is rethrown as the table threw it. */
    private static Optional<Order> resultOf(CompletableFuture<Optional<Order>> entry) {
        try {
            return entry.join();
        } catch (CancellationException e) { // the FailedLoad itself, or (JDK 25's join) one that wraps it
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof FailedLoad failed) {
                    throw (RuntimeException) failed.getCause();
                }
            }
            throw e;
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** A load that failed, as its waiters see it; the cause is the table's exception. */
    private static final class FailedLoad extends CancellationException {
        FailedLoad(RuntimeException cause) {
            super(cause.getMessage());
            initCause(cause);
        }
    }

    /** @return Caffeine's counters: hits (absent answers included), misses, loads, evictions */
    public CacheStats stats() {
        return cache.synchronous().stats();
    }

    /** @return hits / requests, 1.0 when there were no requests (Caffeine's convention) */
    public double hitRatio() {
        return cache.synchronous().stats().hitRate();
    }

    /** @return about how many entries it holds now (expired ones may still be counted until cleaned up) */
    public long estimatedSize() {
        return cache.synchronous().estimatedSize();
    }

    /** @return whether {@code orderId} has an entry now (found, absent or being loaded), without loading or counting a request */
    public boolean contains(String orderId) {
        return cache.asMap().containsKey(orderId);
    }

    /** Runs pending maintenance (evictions, expirations) now, on the caller's thread. */
    public void cleanUp() {
        cache.synchronous().cleanUp();
    }

    public Settings settings() {
        return settings;
    }

    /** Lifetimes: jittered for found orders, {@code negativeTtl} for absent ones, a read does not extend them. */
    private record JitteredExpiry(Settings settings) implements Expiry<String, Optional<Order>> {

        private static final double UNIT = 0x1.0p-53;

        // tag::expiry[]
        @Override
        public long expireAfterCreate(String key, Optional<Order> value, long currentTime) {
            return value.isPresent() ? jittered(key, currentTime) : settings.negativeTtl().toNanos();
        }

        @Override
        public long expireAfterUpdate(String key, Optional<Order> value, long currentTime, long currentDuration) {
            return expireAfterCreate(key, value, currentTime);
        }

        @Override
        public long expireAfterRead(String key, Optional<Order> value, long currentTime, long currentDuration) {
            return currentDuration;
        }

        /** ttl × (1 − j + 2j·u), u in [0, 1) from the key and the load instant: deterministic on a fake clock. */
        private long jittered(String key, long currentTime) {
            long bits = mix64(key.hashCode() * 0x9E3779B97F4A7C15L ^ currentTime);
            double u = (bits >>> 11) * UNIT;
            double factor = 1.0 - settings.jitter() + 2.0 * settings.jitter() * u;
            return Math.max(1, (long) (settings.ttl().toNanos() * factor));
        }
        // end::expiry[]

        private static long mix64(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }
}
