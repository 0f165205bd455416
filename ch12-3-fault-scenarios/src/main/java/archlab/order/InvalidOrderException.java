package archlab.order;

/** The request itself is wrong (no items, a bad quantity or price, a blank customer, a total that overflows). Nothing was changed. */
public final class InvalidOrderException extends OrderException {

    public InvalidOrderException(String message) {
        super("invalid order: " + message);
    }
}
