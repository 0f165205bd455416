package archlab.order;

/** An order operation refused: the request was wrong for the order's current state or did not name one. */
public abstract class OrderException extends RuntimeException {

    protected OrderException(String message) {
        super(message);
    }
}
