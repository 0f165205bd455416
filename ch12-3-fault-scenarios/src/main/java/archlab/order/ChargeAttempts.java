package archlab.order;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.Payments;
import archlab.request.RequestContext;

/**
 * The attempts of one charge: each through the payment breaker, all with the same idempotency key; remembers
 * whether money may have moved. {@link OrderService#pay} makes one per pay and hands {@link #attempt} to the
 * charge's {@link RetryPolicy}.
 *
 * <p>The trap it avoids: judging a charge by its last attempt. Once an attempt has reached the provider and
 * ended without an answer (a lost reply, a reply after the deadline), the money may have moved, whatever the
 * attempts after it say: a retry that is declined, or refused by an open breaker, does not undo it. So every
 * attempt's outcome is looked at ({@link DownstreamErrors#unanswered}) and {@link #mayHaveCharged()}, once true,
 * stays true; pay then leaves the order to the reconciler instead of releasing it. And every attempt, not only
 * the first, asks the breaker and reports to it, so a provider that keeps timing out opens it even while pays
 * are retrying. A refusal here comes after the claim and the reserve, so it is not the instant "no" of a
 * rejection: it is thrown as {@link CircuitOpenMidPayException}.
 *
 * <p>Thread-safety: not thread-safe; one instance per pay, confined to the thread that pays (the retry runs
 * the attempts one after another on it).
 */
// tag::attempt[]
final class ChargeAttempts {
    private final Payments payments;
    private final CircuitBreaker paymentBreaker; // null: no breaker
    private final ChargeRequest request;
    /** Whether some attempt ended without an answer after it reached the provider: the money may have moved. */
    private boolean mayHaveCharged;

    /** @param paymentBreaker the breaker every attempt goes through, or {@code null} for none */
    ChargeAttempts(Payments payments, CircuitBreaker paymentBreaker, Order paying) {
        this.payments = payments;
        this.paymentBreaker = paymentBreaker;
        this.request = new ChargeRequest(paying.id(), paying.totalCents(), ChargeKey.of(paying.id()));
    }

    ChargeResult attempt(RequestContext call) {
        if (paymentBreaker != null) {
            try {
                paymentBreaker.acquire();
            } catch (CircuitOpenException open) { // this attempt was never sent, but the pay has been under way
                throw new CircuitOpenMidPayException(request.orderId(), open);
            }
        }
        try {
            ChargeResult result = payments.charge(call, request);
            record(null);
            return result;
        } catch (RuntimeException e) {
            record(e);
            mayHaveCharged |= DownstreamErrors.unanswered(e);
            throw e;
        }
    }

    /** @return whether some attempt so far ended without an answer after it reached the provider */
    boolean mayHaveCharged() {
        return mayHaveCharged;
    }

    private void record(RuntimeException e) {
        if (paymentBreaker != null) {
            paymentBreaker.record(e);
        }
    }
}
// end::attempt[]
