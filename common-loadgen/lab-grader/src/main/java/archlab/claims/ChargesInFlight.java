package archlab.claims;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.PaymentReplyLostException;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The payment provider as a solution sees it, with a gauge on the wire: how many charges were in flight at once, at
 * most. Whether a service serialises its pays is then a count, not a stopwatch reading that a busy machine can
 * stretch: a service that holds one lock across the charge never has two charges in flight.
 *
 * <p>It also injects the claim's charge faults, per order ({@link OrderFaults}). Thread-safe.
 */
final class ChargesInFlight implements Payments {

    private final Payments provider;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    private final OrderFaults faults;
    private final java.util.concurrent.ConcurrentHashMap<String, AtomicInteger> chargesByOrder = new java.util.concurrent.ConcurrentHashMap<>();
    /** Per order, completed when its first charge reached the provider: the stub's book, not the service's word. */
    private final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.CompletableFuture<Void>> firstCharge =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** @param faults the charge faults to inject, counted per order ({@link OrderFaults}) */
    ChargesInFlight(Payments provider, OrderFaults faults) {
        this.provider = provider;
        this.faults = faults;
    }

    /** The longest a lost request keeps its caller waiting. */
    static final java.time.Duration LOST_WAIT = java.time.Duration.ofSeconds(2);

    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
        int nth = request == null || request.orderId() == null ? Integer.MAX_VALUE
                : chargesByOrder.computeIfAbsent(request.orderId(), id -> new AtomicInteger()).getAndIncrement();
        if (request != null && request.orderId() != null) {
            firstCharge.computeIfAbsent(request.orderId(), id -> new java.util.concurrent.CompletableFuture<>()).complete(null);
        }
        if (nth < faults.lostRequests()) {
            parkUntilDeadline(ctx, LOST_WAIT.toNanos());
            throw new DownstreamTimeoutException("payment", -1, false,
                    "payment: no answer within the deadline (the request was lost on its way; the outcome is unknown to the caller)");
        }
        most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            long start = System.nanoTime();
            ChargeResult result = provider.charge(ctx, request);
            if (nth < faults.slowCharges()) {
                long left = faults.slowLatency().toNanos() - (System.nanoTime() - start);
                if (left > 0 && !parkUntilDeadline(ctx, left)) {
                    throw new DownstreamTimeoutException("payment", -1, false,
                            "payment: no answer within the deadline (the charge was made; its reply is late)");
                }
            }
            if (nth < faults.lostReplies()) {
                throw new PaymentReplyLostException(-1, request.orderId());
            }
            return result;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Waits {@code nanos}, or until the caller's deadline if that comes first; @return whether the wait ended in time. */
    private static boolean parkUntilDeadline(RequestContext ctx, long nanos) {
        long remaining = Math.max(0, ctx.remainingNanos());
        long end = System.nanoTime() + Math.min(nanos, remaining);
        // parkNanos may return at once (a permit left by an earlier unpark) or early: wait out the whole time
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
        return nanos < remaining;
    }

    @Override
    public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
        return provider.findByIdempotencyKey(idempotencyKey);
    }

    /**
     * Waits until a charge of order {@code orderId} has reached the provider, at most {@code timeout}.
     *
     * @return whether one did
     */
    boolean awaitFirstCharge(String orderId, java.time.Duration timeout) throws InterruptedException {
        try {
            firstCharge.computeIfAbsent(orderId, id -> new java.util.concurrent.CompletableFuture<>())
                    .get(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a charge's marker never fails", e);
        }
    }

    /** @return the most charges that were in flight at the same time so far */
    int most() {
        return most.get();
    }
}
