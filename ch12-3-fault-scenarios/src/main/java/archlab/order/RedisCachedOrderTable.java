package archlab.order;

import archlab.downstream.Notification;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LatencySummary;
import archlab.redis.GenerationalCache;
import archlab.request.RequestContext;
import archlab.trace.Span;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;

/**
 * The order cache's second level, in Redis ({@code -Dlab.cache=redis}): an {@link OrderTable} in front of another, whose
 * {@link #read} answers from Redis when it can and fills Redis when it cannot — the article's recipe: the in-process
 * cache ({@link OrderCache}, L1) in front of Redis (L2) in front of the store, a jittered lifetime, a short one for
 * "no such order", and every write invalidating ({@link #changed}, which the service calls after each change, outside
 * its write lock).
 *
 * <p>The trap it avoids: the race every cache-aside second level has — a reader that read the row before a write puts
 * it back into Redis after the write's invalidation. Every entry has a generation every write raises
 * ({@link GenerationalCache}): a fill whose reader saw an older generation is refused ({@link Stats#fillsRefused()}).
 *
 * <p>Redis is a cache, never the truth: every command has the connection's small timeout, and a Redis that fails or
 * stalls makes a read go to the store (counted in {@link Stats#errors()}). An invalidation that fails leaves the
 * entry as it was until its lifetime ends: {@link Settings#ttl()} bounds how stale a read can be while Redis
 * misbehaves.
 *
 * <p>Entries: the JSON of the order under its id, or {@value #ABSENT}.
 *
 * <p>Thread-safety: safe from any number of threads (Lettuce's connection is).
 */
public final class RedisCachedOrderTable implements OrderTable {

    /** Segment: a read's round trip to the second level in Redis. */
    public static final String CACHE_L2 = "cache.l2";
    /** Segment: a change's round trip to the second level (its generation raised, its entry deleted). */
    public static final String CACHE_L2_INVALIDATE = "cache.l2.invalidate";

    /** The value of a remembered "no such order". */
    static final String ABSENT = "-";

    /**
     * @param ttl         the mean lifetime of a found order; positive
     * @param jitter      the lifetime's spread, a fraction in [0, 1): each lifetime is drawn from
     *                    [ttl × (1 − jitter), ttl × (1 + jitter))
     * @param negativeTtl how long "no such order" is remembered; positive and short
     * @param broadcast   whether the other instances' changes reach this instance's first level
     *                    ({@link #onChangedElsewhere}, Redis pub/sub), or only its own do (the naive fleet)
     */
    public record Settings(Duration ttl, double jitter, Duration negativeTtl, boolean broadcast) {

        /**
         * 30 s ± 20 %, "absent" for 1 s: the lab's choice (the article gives its local cache 5 s and says nothing of
         * Redis's). Longer than L1's 5 s, so an order another instance loaded, or this one evicted, is still there. No
         * broadcast: one instance hears its own changes (a fleet turns it on, {@link #withBroadcast}).
         */
        public static final Settings DEFAULT = new Settings(Duration.ofSeconds(30), 0.2, Duration.ofSeconds(1), false);

        /** @return these lifetimes, with or without the other instances' changes reaching the first level */
        public Settings withBroadcast(boolean b) {
            return new Settings(ttl, jitter, negativeTtl, b);
        }

        public Settings {
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

    /**
     * What the second level did. Hits and misses count reads; a hit answered "no such order" counts as a hit.
     *
     * @param hits         reads answered by Redis
     * @param misses       reads that went to the store
     * @param errors       commands that failed or timed out (the read went to the store; the write stood)
     * @param fillsRefused fills skipped because a write raised the generation since the read
     * @param getLatency   the round trip of each read's {@code MGET}
     */
    public record Stats(long hits, long misses, long errors, long fillsRefused, LatencySummary getLatency) {

        /** @return hits / (hits + misses), 0 when nothing was read */
        public double hitRatio() {
            long reads = hits + misses;
            return reads == 0 ? 0.0 : (double) hits / reads;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OrderTable store;
    private final GenerationalCache redis;
    private final Settings settings;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder fillsRefused = new LongAdder();
    private final LatencyHistogram getLatency = new LatencyHistogram();

    /**
     * @param store    the table behind the second level: every write goes there first
     * @param redis    the fixture's entries in Redis, each call on its own small timeout
     * @param settings lifetimes
     */
    public RedisCachedOrderTable(OrderTable store, GenerationalCache redis, Settings settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    // tag::read[]
    /** Redis first (the entry and its generation, one round trip); on a miss the store, then a generation-checked fill. */
    @Override
    public Order read(RequestContext ctx, String orderId) {
        GenerationalCache.Lookup got;
        try (Span s = ctx.span(CACHE_L2)) {
            long started = System.nanoTime();
            got = redis.get(orderId);
            getLatency.record(System.nanoTime() - started);
        } catch (GenerationalCache.UnavailableException e) {
            errors.increment();
            misses.increment();
            return store.read(ctx, orderId); // Redis is a cache: without it, the store answers
        }
        if (got.value().isPresent()) {
            hits.increment();
            return decode(got.value().get());
        }
        misses.increment();
        Order order = store.read(ctx, orderId);
        fill(orderId, got.generation(), order);
        return order;
    }
    // end::read[]

    /**
     * With {@link Settings#broadcast()}: subscribes {@code listener} to every invalidation published on the fixture's
     * prefix, this instance's own included (dropping an entry twice is harmless). Redis delivers each message once, to
     * the subscribers connected then: a message missed while the subscription's connection is broken leaves the first
     * level's copy until its own lifetime ends.
     *
     * @throws IllegalStateException when the subscription cannot be made: an instance told to hear the others' changes
     *                               must not serve as if it did
     */
    @Override
    public void onChangedElsewhere(java.util.function.Consumer<String> listener) {
        if (!settings.broadcast()) {
            return;
        }
        try {
            redis.onInvalidated(listener);
        } catch (GenerationalCache.UnavailableException e) {
            throw new IllegalStateException("broadcast invalidation asked for, but " + e.getMessage(), e);
        }
    }

    @Override
    public Order current(String orderId) {
        return store.current(orderId);
    }

    @Override
    public Order insert(String customerId, List<Item> items, long totalCents) {
        return store.insert(customerId, items, totalCents); // the service's changed(id) drops a remembered "absent"
    }

    @Override
    public boolean update(Order next, OrderStatus expected) {
        return store.update(next, expected);
    }

    @Override
    public Optional<Claim> claim(Order paying) {
        return store.claim(paying);
    }

    @Override
    public Optional<Claim> claim(Order paying, java.time.Duration untilDeadline) {
        return store.claim(paying, untilDeadline);
    }

    @Override
    public List<Claim> orphanedClaims() {
        return store.orphanedClaims();
    }

    @Override
    public boolean commitPaid(Order paid, Notification notification) {
        return store.commitPaid(paid, notification);
    }

    @Override
    public Optional<Lock> writeLock() {
        return store.writeLock();
    }

    @Override
    public Outbox outbox() {
        return store.outbox();
    }

    /** @return the store's reads: what neither cache level answered */
    @Override
    public long reads() {
        return store.reads();
    }

    /** @return what the second level did so far */
    public Stats stats() {
        return new Stats(hits.sum(), misses.sum(), errors.sum(), fillsRefused.sum(), getLatency.summary());
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Raises the order's generation and deletes its entry, in one script; a failure is counted, the write stands. The
     * service calls it after every change, outside its write lock (a fill that raced the change is refused either way:
     * it saw the older generation).
     */
    @Override
    public void changed(String orderId) {
        try {
            redis.invalidate(orderId, settings.ttl().multipliedBy(4));
        } catch (GenerationalCache.UnavailableException e) {
            errors.increment();
        }
    }

    /** {@link #changed(String)}, marked as segment {@value #CACHE_L2_INVALIDATE}. */
    @Override
    public void changed(RequestContext ctx, String orderId) {
        try (Span s = ctx.span(CACHE_L2_INVALIDATE)) {
            changed(orderId);
        }
    }

    private void fill(String orderId, String seenGeneration, Order order) {
        Duration ttl = order == null ? settings.negativeTtl() : Duration.ofMillis(jitteredMillis());
        try {
            if (!redis.fillIfUnchanged(orderId, seenGeneration, order == null ? ABSENT : JSON.writeValueAsString(order), ttl)) {
                fillsRefused.increment();
            }
        } catch (GenerationalCache.UnavailableException e) {
            errors.increment();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write order " + order.id() + " as JSON", e);
        }
    }

    private long jitteredMillis() {
        double u = ThreadLocalRandom.current().nextDouble();
        double factor = 1.0 - settings.jitter() + 2.0 * settings.jitter() * u;
        return Math.max(1, (long) (settings.ttl().toMillis() * factor));
    }

    private static Order decode(String value) {
        if (ABSENT.equals(value)) {
            return null;
        }
        try {
            return JSON.readValue(value, Order.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a cached order is not an order's JSON: " + e.getMessage(), e);
        }
    }

}
