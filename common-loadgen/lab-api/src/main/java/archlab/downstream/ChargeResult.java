package archlab.downstream;

/**
 * The provider's answer to a successful charge.
 *
 * @param paymentId   the provider's id of the money movement, such as {@code "pay-17"}
 * @param orderId     the order charged
 * @param amountCents the amount charged, in cents
 * @param replayed    {@code true} if this answer repeats an earlier charge with the same idempotency key
 *                    (no money moved this time); {@code false} if this call moved the money
 */
public record ChargeResult(String paymentId, String orderId, long amountCents, boolean replayed) {

    public ChargeResult {
        if (paymentId == null || paymentId.isBlank()) {
            throw new IllegalArgumentException("paymentId must not be blank");
        }
        if (orderId == null || orderId.isBlank()) {
            throw new IllegalArgumentException("orderId must not be blank");
        }
        if (amountCents <= 0) {
            throw new IllegalArgumentException("amountCents must be > 0, was " + amountCents);
        }
    }

    /** @return this result as the answer to a repeated request: same payment, {@code replayed = true} */
    public ChargeResult asReplay() {
        return new ChargeResult(paymentId, orderId, amountCents, true);
    }
}
