package archlab.claims;

/**
 * An error answer that crossed the {@link OrderPort}, classified by the adapter that knows the solution's exception
 * types. The claims read only {@link #kind()} and the message, never the solution's own classes.
 */
public final class OrderPortException extends RuntimeException {

    /** What kind of "no" the service answered. */
    public enum Kind {
        /** no such order */
        NOT_FOUND,
        /** the order's status does not allow the operation (e.g. paying a PAID order) */
        INVALID_STATE,
        /** the request itself is bad (blank customer, no items, negative price, …) */
        INVALID_INPUT,
        /** refused at the door without doing the work (a rate limit, an open breaker) */
        REJECTED,
        /** anything else: a downstream error, a timeout, an unknown outcome */
        FAILED
    }

    private final Kind kind;

    public OrderPortException(Kind kind, Throwable cause) {
        super(kind + ": " + cause, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
