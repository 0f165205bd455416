package archlab.order;

/**
 * Pay's answer when an earlier charge attempt reached the provider and got no answer, and the last attempt
 * ended in something other than a timeout (a decline of the retry, an open breaker, a lost reply): the money
 * may have moved, so neither "paid" nor "declined" would be true. (A last attempt that timed out is answered
 * with its timeout, which already says "unknown".) The order stays PAYING
 * until the reconciler has asked the provider by idempotency key; then it is PAID or CREATED again. The last
 * attempt's error is the {@link #getCause() cause}.
 *
 * <p>The trap it avoids: rethrowing the last attempt's error. After a lost reply, a retry that is declined or
 * refused by an open breaker would tell the caller "declined" or "rejected" about an order the reconciler
 * then completes to PAID.
 */
public final class PaymentOutcomeUnknownException extends RuntimeException {

    private final String orderId;

    public PaymentOutcomeUnknownException(String orderId, RuntimeException lastAttempt) {
        super("order " + orderId + ": the charge may have happened (an attempt went unanswered); the reconciler will"
                + " resolve it by idempotency key; last attempt: " + lastAttempt.getMessage(), lastAttempt);
        this.orderId = orderId;
    }

    /** @return the order whose charge outcome is unknown */
    public String orderId() {
        return orderId;
    }
}
