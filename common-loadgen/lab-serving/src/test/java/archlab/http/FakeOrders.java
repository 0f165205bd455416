package archlab.http;

import archlab.downstream.DownstreamException;
import archlab.loadgen.OrderTarget;
import archlab.request.DeadlineExceededException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A port with the checkpoints' kinds of failure, for the HTTP tests: orders in a map (id → paid), every call counted,
 * and ids that make the port throw what a checkpoint throws: {@code limited} (rejected), {@code late} (deadline),
 * {@code down} (downstream), {@code boom} (an unexpected exception), an unknown id (not found), a paid one (invalid
 * state). Thread-safe.
 */
final class FakeOrders implements OrderTarget {

    static final class OrderNotFoundException extends RuntimeException {
        OrderNotFoundException(String id) {
            super("order " + id + " not found");
        }
    }

    static final class InvalidStateException extends RuntimeException {
        InvalidStateException(String id) {
            super("order " + id + " is PAID: cannot pay");
        }
    }

    /** What ch12-3 throws when a charge went unanswered: the order stays PAYING for the reconciler. */
    static final class PaymentOutcomeUnknownException extends RuntimeException {
        PaymentOutcomeUnknownException(String id) {
            super("the payment of order " + id + " has no answer yet: it stays PAYING until reconciled");
        }
    }

    /** What ch12-3 throws when its breaker opened in the middle of a pay (nothing charged). */
    static final class CircuitOpenMidPayException extends RuntimeException {
        CircuitOpenMidPayException(String id) {
            super("the payment breaker opened during the pay of order " + id + ": nothing charged");
        }
    }

    /** What a checkpoint's PostgreSQL store throws when it fails or stalls. */
    static final class DatabaseException extends RuntimeException {
        DatabaseException(String message) {
            super(message);
        }
    }

    final Map<String, Boolean> paid = new ConcurrentHashMap<>();
    final AtomicInteger calls = new AtomicInteger();
    /** The last deadline the port was handed, as nanoseconds remaining when it arrived. */
    final AtomicLong lastRemainingNanos = new AtomicLong();
    private final AtomicInteger ids = new AtomicInteger();

    @Override
    public String create(RequestContext ctx) {
        calls.incrementAndGet();
        lastRemainingNanos.set(ctx.remainingNanos());
        String id = "o-" + ids.incrementAndGet();
        paid.put(id, false);
        return id;
    }

    @Override
    public void get(RequestContext ctx, String orderId) {
        calls.incrementAndGet();
        lastRemainingNanos.set(ctx.remainingNanos());
        failFor(orderId);
        if (!paid.containsKey(orderId)) {
            throw new OrderNotFoundException(orderId);
        }
    }

    @Override
    public void pay(RequestContext ctx, String orderId) {
        calls.incrementAndGet();
        lastRemainingNanos.set(ctx.remainingNanos());
        failFor(orderId);
        Boolean was = paid.get(orderId);
        if (was == null) {
            throw new OrderNotFoundException(orderId);
        }
        if (was || !paid.replace(orderId, false, true)) {
            throw new InvalidStateException(orderId);
        }
    }

    private static void failFor(String orderId) {
        switch (orderId) {
            case "limited" -> throw new RequestRejectedException("pay limit 100/s", Duration.ofMillis(1500));
            case "late" -> throw new DeadlineExceededException("payment");
            case "down" -> throw new DownstreamException("payment", 3, "injected error");
            case "boom" -> throw new IllegalStateException("secret internals at archlab.order.Hidden");
            case "unknown" -> throw new PaymentOutcomeUnknownException(orderId);
            case "opened" -> throw new CircuitOpenMidPayException(orderId);
            case "stalled" -> throw new DatabaseException("could not claim order: HikariPool-1 - Connection is not available,"
                    + " request timed out after 30000ms (table secret_orders)");
            default -> { }
        }
    }
}
