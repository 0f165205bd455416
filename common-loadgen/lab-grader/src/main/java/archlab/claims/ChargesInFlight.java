package archlab.claims;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The payment provider as a solution sees it, with a gauge on the wire: how many charges were in flight at once, at
 * most. Whether a service serialises its pays is then a count, not a stopwatch reading that a busy machine can
 * stretch: a service that holds one lock across the charge never has two charges in flight.
 *
 * <p>Thread-safe; delegates every call unchanged, but for the one lost request a claim may ask for.
 */
final class ChargesInFlight implements Payments {

    private final Payments provider;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    private final boolean loseFirstRequest;
    private final AtomicInteger calls = new AtomicInteger();

    ChargesInFlight(Payments provider) {
        this(provider, false);
    }

    /**
     * @param loseFirstRequest whether the first charge is lost on its way: it never reaches the provider (nothing is
     *                         charged), and the service hears nothing until its deadline (at most {@link #LOST_WAIT}),
     *                         then a timeout whose outcome it cannot know — the case that tells "a lost reply means
     *                         charged" from asking the provider or retrying with the same key
     */
    ChargesInFlight(Payments provider, boolean loseFirstRequest) {
        this.provider = provider;
        this.loseFirstRequest = loseFirstRequest;
    }

    /** The longest a lost request keeps its caller waiting. */
    static final java.time.Duration LOST_WAIT = java.time.Duration.ofSeconds(2);

    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
        if (loseFirstRequest && calls.getAndIncrement() == 0) {
            long waitNanos = Math.min(Math.max(0, ctx.remainingNanos()), LOST_WAIT.toNanos());
            java.util.concurrent.locks.LockSupport.parkNanos(waitNanos);
            throw new archlab.downstream.DownstreamTimeoutException("payment", -1, false,
                    "payment: no answer within the deadline (the request was lost on its way; the outcome is unknown to the caller)");
        }
        most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            return provider.charge(ctx, request);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    @Override
    public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
        return provider.findByIdempotencyKey(idempotencyKey);
    }

    /** @return the most charges that were in flight at the same time so far */
    int most() {
        return most.get();
    }
}
