package archlab.order;

import archlab.request.RequestRejectedException;
import java.time.Duration;

/**
 * Pay's answer when the payment breaker refused a charge attempt of a pay already under way (the order claimed, its
 * stock reserved, perhaps a charge attempt and its backoff spent) and no attempt had gone unanswered: nothing was
 * charged, the stock goes back through the reconciler, and paying again later may succeed. The breaker's refusal is
 * the {@link #getCause() cause}.
 *
 * <p>The trap it avoids: answering it as a rejection. The runner counts a {@link RequestRejectedException} as an
 * instant "no" and leaves it out of the latency histograms. That is right for the breaker's check before the claim
 * ({@link CircuitOpenException}), which costs the caller nothing; it is wrong here, where the caller waited for a
 * reserve and perhaps a whole charge attempt before the breaker said no. Counted as a rejection, that wait would
 * vanish from the figures and flatter the breaker. So it is an outcome of its own: not a rejection, hence a failure
 * with its latency, named in the report's failure causes.
 */
public final class CircuitOpenMidPayException extends RuntimeException {

    private final String orderId;

    /** @param refusal the breaker's refusal of the charge attempt */
    public CircuitOpenMidPayException(String orderId, CircuitOpenException refusal) {
        super("order " + orderId + ": the payment breaker opened while this pay was under way and refused its charge"
                + " attempt; nothing was charged; " + refusal.getMessage(), refusal);
        this.orderId = orderId;
    }

    /** @return the order whose pay was refused */
    public String orderId() {
        return orderId;
    }

    /** @return how long until the breaker lets a trial call through */
    public Duration retryAfter() {
        return ((CircuitOpenException) getCause()).retryAfter();
    }
}
