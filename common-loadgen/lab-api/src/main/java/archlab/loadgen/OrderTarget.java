package archlab.loadgen;

import archlab.request.RequestContext;

/**
 * The three operations of the book's order service, as the {@link BookWorkload} drives them. Each
 * chapter module adapts its own service to this interface, so every checkpoint runs the very same
 * sequence of requests. Exceptions propagate to the runner, which classifies them.
 */
public interface OrderTarget {

    /** Creates an order for {@link BookWorkload#CUSTOMER} with the book's one item; returns its id. */
    String create(RequestContext ctx) throws Exception;

    /** Reads order {@code orderId}. */
    void get(RequestContext ctx, String orderId) throws Exception;

    /**
     * Reads order {@code orderId} and says its status as the service spells it ({@code CREATED}, {@code PAYING},
     * {@code PAID}), for a client that compares what it reads with what it was answered before (the stale reads of two
     * instances, {@code archlab.fleet}). A target that does not say — the default — reads with {@link #get} and
     * returns empty; the HTTP front then answers the id alone, as it always did.
     */
    default java.util.Optional<String> status(RequestContext ctx, String orderId) throws Exception {
        get(ctx, orderId);
        return java.util.Optional.empty();
    }

    /**
     * An order as the service knows it, what {@code GET /orders/{id}} answers when the target says it.
     *
     * @param id         the order's id
     * @param status     as the service spells it: {@code CREATED}, {@code PAYING}, {@code PAID}
     * @param totalCents the order's total, in cents
     * @param version    how many changes of its status the service has made (0 when created)
     */
    record OrderSnapshot(String id, String status, long totalCents, int version) {
    }

    /**
     * Reads order {@code orderId} whole, for a client that wants to see it (a reader curling the served checkpoint). A
     * target that does not say — the default — returns empty without reading; the HTTP front then answers as
     * {@link #status} says.
     */
    default java.util.Optional<OrderSnapshot> order(RequestContext ctx, String orderId) throws Exception {
        return java.util.Optional.empty();
    }

    /** Pays order {@code orderId}. */
    void pay(RequestContext ctx, String orderId) throws Exception;
}
