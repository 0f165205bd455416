package archlab.downstream;

/**
 * What the order service asks the payment provider to charge.
 *
 * @param orderId        the order being paid; not blank
 * @param amountCents    the amount, in cents; greater than 0
 * @param idempotencyKey {@code null} for no key (the baseline sends none: every call charges); otherwise
 *                       not blank, and the same for every retry of one payment
 */
public record ChargeRequest(String orderId, long amountCents, String idempotencyKey) {

    public ChargeRequest {
        if (orderId == null || orderId.isBlank()) {
            throw new IllegalArgumentException("orderId must not be blank, was '" + orderId + "'");
        }
        if (amountCents <= 0) {
            throw new IllegalArgumentException("amountCents must be > 0, was " + amountCents + " (order " + orderId + ")");
        }
        if (idempotencyKey != null && idempotencyKey.isBlank()) {
            throw new IllegalArgumentException(
                    "idempotencyKey must be null (no key) or not blank, was '" + idempotencyKey + "' (order " + orderId + ")");
        }
    }

    /** A request without an idempotency key: every such call is a new charge. */
    public static ChargeRequest withoutKey(String orderId, long amountCents) {
        return new ChargeRequest(orderId, amountCents, null);
    }
}
