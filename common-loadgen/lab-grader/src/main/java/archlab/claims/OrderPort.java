package archlab.claims;

import archlab.request.RequestContext;
import java.util.List;

/**
 * The one door through which the graders reach a solution: the book's service as chapter 12.1 defines it — create,
 * get, pay, each taking the request's {@link RequestContext} (its deadline), and {@code isPaid}. Every claim judges a
 * checkpoint through this port, the downstream stubs and the open-loop runner only, so the same claim grades
 * ch12-1, ch12-2, ch12-3 or a student's refactor of ch12-1, whatever it does inside.
 *
 * <p>The trap it avoids: a grading test that calls a reference solution's internals (its settings, its cache, its
 * outbox) does not compile against any other solution, and then grades nothing.
 *
 * <p>Errors cross the port as {@link OrderPortException}s whose {@link OrderPortException.Kind} says what kind of
 * answer the service gave. Implementations are adapters written once per checkpoint ({@code GradedCheckpoint});
 * they must be safe to call from many threads at once, as the service is.
 */
public interface OrderPort extends AutoCloseable {

    /** One line of an order: {@code quantity} units of {@code sku} at {@code unitPriceCents} each. */
    record Line(String sku, int quantity, long unitPriceCents) {
    }

    /**
     * What the service answered about one order.
     *
     * @param id         the order's id
     * @param status     the status's name: CREATED, PAYING, PAID, …
     * @param totalCents Σ quantity × unit price, cents
     * @param version    increases with every change of the order
     */
    record OrderView(String id, String status, long totalCents, int version) {
    }

    /** Creates an order for {@code customerId}; {@code lines} may be {@code null} or hold {@code null}s (bad input). */
    OrderView create(RequestContext ctx, String customerId, List<Line> lines);

    /** Reads order {@code orderId}. */
    OrderView get(RequestContext ctx, String orderId);

    /** Pays order {@code orderId}: charges its total and marks it PAID. */
    OrderView pay(RequestContext ctx, String orderId);

    /** @return whether order {@code orderId} is PAID now, read without a deadline (for the books after a run) */
    boolean isPaid(String orderId);

    /** Stops the solution's background work, if it has any (an outbox relay, a reconciler). */
    @Override
    void close();
}
