package archlab.order;

/**
 * The idempotency key of an order's charge: what pay charges with and what the provider is asked about later.
 *
 * <p>Derived from the order's id alone, so it is the same on every attempt. Not from the amount: a key that changed
 * with the amount would turn a wrong amount into a silent second charge; with this key the provider refuses it
 * ({@code IdempotencyKeyConflictException}).
 */
public final class ChargeKey {

    private ChargeKey() {
    }

    /** @return the key of every charge of order {@code orderId} */
    public static String of(String orderId) {
        return "pay:" + orderId;
    }
}
