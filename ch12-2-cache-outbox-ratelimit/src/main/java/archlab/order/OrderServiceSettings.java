package archlab.order;

import archlab.downstream.LatencyModel;
import archlab.clock.NanoClock;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * How an {@link OrderService} is put together. Immutable; change a copy with the {@code with...} methods.
 *
 * <p>The trap it avoids: a settings record whose every {@code with...} method calls the canonical constructor
 * with every component spelled out. Each new setting then rewrites all of them, the diff between two
 * checkpoints shows every {@code with...} changed for one new field, and an argument slipped into the wrong
 * place still compiles when two components share a type. Here a {@code with...} method changes one field of
 * a {@code Draft}, a mutable copy that is, besides the record's header, the only code listing every component.
 * A new setting is a component, its three lines in the draft and a {@code with...} method of its own; no other
 * method changes.
 *
 * <p>Thread-safety: immutable, safe to share.
 *
 * @param clock            the time of the cache, the limiter and the outbox, nanoseconds
 * @param executor         where background work runs: the cache's maintenance and the relay's deliveries
 * @param tableReadLatency how long a get's table read takes ({@link LatencyModel#ZERO}: the book's table)
 * @param cache            the read cache, or {@code null} for none
 * @param payLimit         the token bucket in front of pay, or {@code null} for none
 * @param payBucket        where that bucket lives when several instances share it (Redis), or {@code null}: in this
 *                         instance's heap, its own quota
 * @param relay            the outbox relay's retry, back-off and batching
 */
public record OrderServiceSettings(
        NanoClock clock,
        Executor executor,
        LatencyModel tableReadLatency,
        OrderCache.Settings cache,
        RateLimiter.Settings payLimit,
        RateLimiter.SharedBucket payBucket,
        OutboxRelay.Settings relay) {

    /**
     * Background work (the relay's deliveries, the cache's maintenance) runs on daemon platform threads, not
     * on the virtual-thread carriers, so a delivery's reply delay never queues behind requests' wake-ups.
     */
    private static final Executor BACKGROUND = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon(true).name("order-background-", 1).factory());

    /** The system clock, background work on daemon platform threads, the book's table, cache and limiter on. */
    public static final OrderServiceSettings DEFAULT = new OrderServiceSettings(NanoClock.SYSTEM, BACKGROUND, LatencyModel.ZERO,
            OrderCache.Settings.DEFAULT, RateLimiter.Settings.DEFAULT, null, OutboxRelay.Settings.DEFAULT);

    /** @throws NullPointerException if a component that has no "none" is {@code null} */
    public OrderServiceSettings {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(tableReadLatency, "tableReadLatency");
        Objects.requireNonNull(relay, "relay");
        if (payBucket != null && payLimit == null) {
            throw new IllegalArgumentException("a shared pay bucket needs a pay limit (its rate and burst)");
        }
    }

    public OrderServiceSettings withClock(NanoClock c) {
        return with(d -> d.clock = c);
    }

    public OrderServiceSettings withExecutor(Executor e) {
        return with(d -> d.executor = e);
    }

    public OrderServiceSettings withTableReadLatency(LatencyModel l) {
        return with(d -> d.tableReadLatency = l);
    }

    /** @param c the cache's settings, or {@code null} for no cache */
    public OrderServiceSettings withCache(OrderCache.Settings c) {
        return with(d -> d.cache = c);
    }

    /** @param l the pay limit, or {@code null} for none */
    public OrderServiceSettings withPayLimit(RateLimiter.Settings l) {
        return with(d -> d.payLimit = l);
    }

    /** @param b where the fleet's one pay bucket lives, or {@code null}: this instance's own bucket */
    public OrderServiceSettings withPayBucket(RateLimiter.SharedBucket b) {
        return with(d -> d.payBucket = b);
    }

    public OrderServiceSettings withRelay(OutboxRelay.Settings r) {
        return with(d -> d.relay = r);
    }

    /** A copy of these settings with {@code change} applied; checked by the canonical constructor like any other. */
    private OrderServiceSettings with(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return draft.build();
    }

    /** A mutable copy of every component: a field each, copied in, built back. Confined to the {@code with...} call that made it. */
    private static final class Draft {
        NanoClock clock;
        Executor executor;
        LatencyModel tableReadLatency;
        OrderCache.Settings cache;
        RateLimiter.Settings payLimit;
        RateLimiter.SharedBucket payBucket;
        OutboxRelay.Settings relay;

        Draft(OrderServiceSettings s) {
            clock = s.clock;
            executor = s.executor;
            tableReadLatency = s.tableReadLatency;
            cache = s.cache;
            payLimit = s.payLimit;
            payBucket = s.payBucket;
            relay = s.relay;
        }

        OrderServiceSettings build() {
            return new OrderServiceSettings(clock, executor, tableReadLatency, cache, payLimit, payBucket, relay);
        }
    }
}
