package archlab.downstream;

import archlab.request.RequestContext;
import java.util.Optional;

/**
 * The payment provider: moves money from the customer for an order.
 *
 * <p>Implementations must be safe to call from any number of threads.
 */
public interface Payments {

    /** The provider's name in errors, counters and reports. */
    String NAME = "payments";

    /**
     * Charges {@code request.amountCents()} for {@code request.orderId()}.
     *
     * <p>With an idempotency key, a repeated request (same key, same order, same amount) charges nothing
     * more and returns the first charge's result with {@link ChargeResult#replayed()} set. Without a key,
     * every call is a new charge.
     *
     * @throws DownstreamTimeoutException      the deadline passed; the money may or may not have been charged
     * @throws PaymentDeclinedException        the provider declined; no money moved
     * @throws PaymentReplyLostException       the money was charged, but the reply never arrived
     * @throws IdempotencyKeyConflictException the key was used before for another order or amount; nothing charged
     */
    ChargeResult charge(RequestContext ctx, ChargeRequest request);

    /**
     * Asks the provider "did this key charge?" &mdash; what a reconciler does after a timeout or a lost reply.
     * An out-of-band query: no latency, no injected faults, not counted as a call.
     *
     * @param idempotencyKey a key sent with an earlier {@link #charge}; not blank
     * @return the first charge made with that key ({@code replayed == false}), or empty if it never charged
     */
    Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey);
}
