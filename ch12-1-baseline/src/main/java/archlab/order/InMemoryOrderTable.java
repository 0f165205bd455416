package archlab.order;

import archlab.profile.ProfiledLock;
import archlab.request.RequestContext;
import archlab.trace.Span;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The book's order table: a {@code HashMap} in the service's heap behind one global lock — the default store, and the
 * one every number of the book was measured on.
 *
 * <p>{@link #locked} takes the lock with {@link ReentrantLock#lock()}, which ignores the request's deadline: a waiter
 * cannot give up. The lock is non-fair. Changes are made in place, so what a unit of work changed before it threw stays
 * changed (see {@link OrderTable}).
 *
 * <p>Thread-safety: safe from any number of threads (that is the lock's job).
 */
public final class InMemoryOrderTable implements OrderTable {

    // tag::lock[]
    // A plain non-fair ReentrantLock that also reports its waits to JFR: JFR cannot see a virtual
    // thread parking on a ReentrantLock, and the runner gives each request a virtual thread.
    private final ReentrantLock lock = new ProfiledLock("orders");
    private final Map<String, Order> orders = new HashMap<>();
    // end::lock[]
    private int sequence;

    private final Rows rows = new Rows() {
        @Override
        public Order insert(String customerId, List<Item> items, long totalCents) {
            sequence++;
            Order order = new Order(String.format("ord-%06d", sequence), customerId, items, totalCents);
            orders.put(order.id(), order);
            return order;
        }

        @Override
        public Order find(String orderId) {
            return orderId == null ? null : orders.get(orderId);
        }

        @Override
        public void markPaid(Order order) {
            order.markPaid(); // the stored instance itself
        }
    };

    @Override
    public <T> T locked(RequestContext ctx, Function<Rows, T> work) {
        try (Span wait = ctx.span(LOCK_WAIT)) {
            lock.lock();
        }
        try (Span held = ctx.span(LOCK_HELD)) {
            return work.apply(rows);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isPaid(String orderId) {
        lock.lock();
        try {
            Order order = rows.find(orderId);
            return order != null && order.status() == OrderStatus.PAID;
        } finally {
            lock.unlock();
        }
    }
}
