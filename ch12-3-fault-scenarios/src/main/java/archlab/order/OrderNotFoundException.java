package archlab.order;

/** No order has the given id (the book's {@code ErrNotFound}). */
public final class OrderNotFoundException extends OrderException {

    public OrderNotFoundException(String orderId) {
        super("order not found: " + orderId);
    }
}
