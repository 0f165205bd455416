package archlab.order;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.PaymentDeclinedException;
import archlab.downstream.PaymentReplyLostException;

/**
 * What an exception from a downstream call means to the order service: whether the call may have taken effect,
 * and whether it was the downstream's fault.
 *
 * <p>The trap it avoids: reading every exception as "it failed". A call ends in one of three ways, not two:
 * <ul>
 *   <li><b>answered</b>: a result, or a clean "no" (a decline: the provider working, not failing);</li>
 *   <li><b>certainly not done</b>: refused before it was sent (an open breaker, a key conflict, bad input), or
 *       its deadline passed before it arrived — safe to undo;</li>
 *   <li><b>unknown</b>: it reached the downstream and ended without an answer (a timeout while the reply was on
 *       its way, a lost reply, an error we do not understand) — it may have happened, so it is not undone but
 *       asked about later ({@link Reconciler}).</li>
 * </ul>
 * ch12-2 treated unknown as failed: it made an order CREATED again whose money had moved ("charged but not
 * PAID"). And a decline taken for a fault would be retried for nothing and would open the breaker on a healthy
 * provider.
 *
 * <p>Two more questions are asked of an error: whether another attempt may help ({@link #worthRetrying}) and
 * whether the provider is failing ({@link #providerFailed}). They differ in two cases, a lost reply and a timeout on
 * arrival: both are worth a retry, and neither says the provider is failing.
 *
 * <p>Retrying: yes for a call that got no answer or an error of the downstream's own; never for a decline (the
 * provider working: a retry cannot change its answer, and with the same key it replays it) or a refusal before the
 * call.
 *
 * <p>Failing: the breaker is there to stop callers waiting on a provider that cannot answer, so it counts what says
 * the provider cannot — a call it saw and did not answer in time, or an error of its own. Not a lost reply: the
 * provider took the call and did its work (the charge is in its books); only the reply did not come back, and the
 * retry with the same key is answered at once from its record, so the pay succeeds inside its budget. Counting it
 * would open the breaker on a provider that charges every call: at 50 % lost replies half the window "fails" while
 * every pay could succeed on its retry, and the breaker would refuse pays the provider was taking. A reply that never
 * comes is a timeout, and a timeout counts. Not a timeout on arrival either: the caller's own deadline had passed
 * before the call left, and the provider never saw it.
 *
 * <p>Thread-safety: stateless.
 */
final class DownstreamErrors {

    private DownstreamErrors() {
    }

    // tag::classify[]
    /** @return whether the call reached the downstream and ended without an answer: it may have taken effect */
    static boolean unanswered(RuntimeException e) {
        return switch (e) {
            case DownstreamTimeoutException t -> !t.passedOnArrival();
            case PaymentReplyLostException lost -> true;
            case PaymentDeclinedException declined -> false;
            case DownstreamException other -> true; // no answer we understand: assume it may have happened
            default -> false; // refused before the call (open breaker, key conflict, bad input)
        };
    }

    /**
     * @return whether another attempt may help (the reserve's and the charge's {@link RetryPolicy}): a timeout, or a
     *         downstream error other than a decline
     */
    static boolean worthRetrying(Throwable e) {
        return e instanceof DownstreamTimeoutException
                || (e instanceof DownstreamException && !(e instanceof PaymentDeclinedException));
    }

    /**
     * @return whether the provider is failing (what the payment {@link CircuitBreaker} counts): it saw the call and did
     *         not answer in time, or answered with an error of its own
     */
    static boolean providerFailed(Throwable e) {
        return switch (e) {
            case DownstreamTimeoutException t -> !t.passedOnArrival();
            case PaymentReplyLostException lost -> false; // the provider answered; the network lost it
            case PaymentDeclinedException declined -> false; // the provider working
            case DownstreamException other -> true;
            default -> false; // refused before the call: the provider never saw it
        };
    }
    // end::classify[]
}
