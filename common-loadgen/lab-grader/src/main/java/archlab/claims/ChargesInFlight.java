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
 * <p>Thread-safe; delegates every call unchanged.
 */
final class ChargesInFlight implements Payments {

    private final Payments provider;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger most = new AtomicInteger();

    ChargesInFlight(Payments provider) {
        this.provider = provider;
    }

    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
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
