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

    /** Pays order {@code orderId}. */
    void pay(RequestContext ctx, String orderId) throws Exception;
}
