package archlab.downstream;

/**
 * An idempotency key was reused for a different order or amount. Nothing is charged: the provider
 * cannot tell which of the two requests the caller meant. A programming error of the caller, hence an
 * {@link IllegalArgumentException}.
 */
public class IdempotencyKeyConflictException extends IllegalArgumentException {

    private final String idempotencyKey;

    /**
     * @param idempotencyKey the reused key
     * @param first          the request the key was first used for (charged or declined)
     * @param conflicting    the request that reused it
     */
    public IdempotencyKeyConflictException(String idempotencyKey, ChargeRequest first, ChargeRequest conflicting) {
        super("idempotency key '" + idempotencyKey + "' was first used for order " + first.orderId()
                + " amount " + first.amountCents() + " cents, now for order " + conflicting.orderId()
                + " amount " + conflicting.amountCents() + " cents; nothing charged");
        this.idempotencyKey = idempotencyKey;
    }

    /**
     * A conflict rebuilt from its key and message, e.g. by a remote client re-throwing the server's.
     *
     * @param message the whole message, as the original's
     */
    public IdempotencyKeyConflictException(String idempotencyKey, String message) {
        super(message);
        this.idempotencyKey = idempotencyKey;
    }

    /** @return the reused key */
    public String idempotencyKey() {
        return idempotencyKey;
    }
}
