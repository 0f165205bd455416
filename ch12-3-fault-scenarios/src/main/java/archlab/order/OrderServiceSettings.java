package archlab.order;

import archlab.downstream.LatencyModel;
import archlab.clock.NanoClock;
import java.time.Duration;
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
 * @param reserveRetry     attempts, backoff and per-call budget of the keyed reserve
 * @param chargeRetry      attempts, backoff and per-call budget of the keyed charge
 * @param paymentBreaker   the circuit breaker in front of payment, or {@code null} for none
 * @param reconciler       when the reconciler looks at an unknown charge, and how it retries releases
 * @param sleeper          how the retries wait between attempts (tests advance a fake clock)
 * @param paymentBulkhead  the bulkhead in front of payment, sized to the connection pool the provider is reached
 *                         through, or {@code null} for none (the default: the book's provider has no pool)
 */
public record OrderServiceSettings(
        NanoClock clock,
        Executor executor,
        LatencyModel tableReadLatency,
        OrderCache.Settings cache,
        RateLimiter.Settings payLimit,
        RateLimiter.SharedBucket payBucket,
        OutboxRelay.Settings relay,
        RetryPolicy reserveRetry,
        RetryPolicy chargeRetry,
        CircuitBreaker.Settings paymentBreaker,
        Reconciler.Settings reconciler,
        RetryPolicy.Sleeper sleeper,
        PaymentBulkhead.Settings paymentBulkhead) {

    /**
     * Background work (the relay's deliveries, the cache's maintenance) runs on daemon platform threads, not
     * on the virtual-thread carriers, so a delivery's reply delay never queues behind requests' wake-ups.
     */
    private static final Executor BACKGROUND = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon(true).name("order-background-", 1).factory());

    // tag::budgets[]
    /**
     * Reserve: 3 attempts of at most 20 ms each (inventory answers in 2 ms), backoff 2 ms doubling to 10 ms.
     * Charge: 3 attempts of at most 80 ms each (twice the slow scenario's 40 ms), backoff 5 ms doubling to 20 ms.
     * Two charge attempts and their backoff fit in the book's 200 ms timeout; the third only if time is left.
     */
    public static final RetryPolicy RESERVE_RETRY =
            new RetryPolicy(3, Duration.ofMillis(2), Duration.ofMillis(10), Duration.ofMillis(20), 0x5EED_0001L);
    public static final RetryPolicy CHARGE_RETRY =
            new RetryPolicy(3, Duration.ofMillis(5), Duration.ofMillis(20), Duration.ofMillis(80), 0x5EED_0002L);
    /** Opens when half of the last 20 charges (at least 10 seen) failed without an answer; a trial after 100 ms. */
    public static final CircuitBreaker.Settings PAYMENT_BREAKER =
            new CircuitBreaker.Settings(20, 10, 0.5, Duration.ofMillis(100));
    // end::budgets[]

    /**
     * The system clock, background work on daemon platform threads, the book's table, cache and limiter on,
     * the retries, breaker and reconciler above.
     */
    public static final OrderServiceSettings DEFAULT = new OrderServiceSettings(NanoClock.SYSTEM, BACKGROUND, LatencyModel.ZERO,
            OrderCache.Settings.DEFAULT, RateLimiter.Settings.DEFAULT, null, OutboxRelay.Settings.DEFAULT,
            RESERVE_RETRY, CHARGE_RETRY, PAYMENT_BREAKER, Reconciler.Settings.DEFAULT, RetryPolicy.Sleeper.REAL,
            null);

    /** @throws NullPointerException if a component that has no "none" is {@code null} */
    public OrderServiceSettings {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(tableReadLatency, "tableReadLatency");
        Objects.requireNonNull(relay, "relay");
        Objects.requireNonNull(reserveRetry, "reserveRetry");
        Objects.requireNonNull(chargeRetry, "chargeRetry");
        Objects.requireNonNull(reconciler, "reconciler");
        Objects.requireNonNull(sleeper, "sleeper");
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

    public OrderServiceSettings withRetries(RetryPolicy reserve, RetryPolicy charge) {
        return with(d -> {
            d.reserveRetry = reserve;
            d.chargeRetry = charge;
        });
    }

    /** @param b the payment breaker's settings, or {@code null} for none */
    public OrderServiceSettings withPaymentBreaker(CircuitBreaker.Settings b) {
        return with(d -> d.paymentBreaker = b);
    }

    public OrderServiceSettings withReconciler(Reconciler.Settings r) {
        return with(d -> d.reconciler = r);
    }

    public OrderServiceSettings withSleeper(RetryPolicy.Sleeper s) {
        return with(d -> d.sleeper = s);
    }

    /** @param b the payment bulkhead's settings, sized to the provider's connection pool, or {@code null} for none */
    public OrderServiceSettings withPaymentBulkhead(PaymentBulkhead.Settings b) {
        return with(d -> d.paymentBulkhead = b);
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
        RetryPolicy reserveRetry;
        RetryPolicy chargeRetry;
        CircuitBreaker.Settings paymentBreaker;
        Reconciler.Settings reconciler;
        RetryPolicy.Sleeper sleeper;
        PaymentBulkhead.Settings paymentBulkhead;

        Draft(OrderServiceSettings s) {
            clock = s.clock;
            executor = s.executor;
            tableReadLatency = s.tableReadLatency;
            cache = s.cache;
            payLimit = s.payLimit;
            payBucket = s.payBucket;
            relay = s.relay;
            reserveRetry = s.reserveRetry;
            chargeRetry = s.chargeRetry;
            paymentBreaker = s.paymentBreaker;
            reconciler = s.reconciler;
            sleeper = s.sleeper;
            paymentBulkhead = s.paymentBulkhead;
        }

        OrderServiceSettings build() {
            return new OrderServiceSettings(clock, executor, tableReadLatency, cache, payLimit, payBucket, relay,
                    reserveRetry, chargeRetry, paymentBreaker, reconciler, sleeper, paymentBulkhead);
        }
    }
}
