package archlab.order;

/** The order is not in a state that allows the operation, e.g. paying a PAID order (the book's {@code ErrInvalidState}). */
public final class InvalidStateException extends OrderException {

    public InvalidStateException(String orderId, OrderStatus status, String operation) {
        super("invalid state: cannot " + operation + " order " + orderId + " in status " + status);
    }
}
