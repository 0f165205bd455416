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
     * One classification, two uses: whether another attempt may help (what the reserve's and the charge's
     * {@link RetryPolicy} retry) and whether the provider is failing (what the payment {@link CircuitBreaker}
     * counts). Both ask the same question — did the downstream fail to answer, or answer with an error of its
     * own? Never a decline (the provider working: retrying cannot change its answer) or a refusal before the call.
     *
     * @return whether {@code e} is a fault of the downstream: no answer, or a downstream error other than a decline
     */
    static boolean isFault(Throwable e) {
        return e instanceof DownstreamTimeoutException
                || (e instanceof DownstreamException && !(e instanceof PaymentDeclinedException));
    }
    // end::classify[]
}
