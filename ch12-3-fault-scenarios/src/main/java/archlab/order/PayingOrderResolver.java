package archlab.order;

import archlab.downstream.Notification;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * What the {@link Reconciler} may do to an order it resolves, on the {@link OrderService}'s own state: PAYING →
 * PAID (with its notification into the outbox) or PAYING → CREATED, each under the service's lock, each only for
 * an order that is still PAYING.
 *
 * <p>The trap it avoids: a background job that changes orders behind the service's back. The reconciler
 * resolves an order long after its pay returned, on another thread; if it wrote the table on its own terms it
 * could skip the lock every other change takes, mark an order PAID without recording its notification (a paid
 * order nobody is told about), leave the cache answering PAYING, or resolve an order that is no longer PAYING
 * and so no longer the reconciler's to finish. Here it takes the lock every change takes, checks that the
 * order is still PAYING, appends the notification before it writes the table (as pay's commit does), and
 * invalidates the cache after the lock is released.
 *
 * <p>Thread-safety: safe to call from any thread; every change is made under the service's lock.
 */
final class PayingOrderResolver implements Reconciler.Resolver {

    private final ReentrantLock lock;
    private final OrderTable table;
    private final Outbox outbox;
    private final Consumer<String> invalidate;

    /**
     * @param lock       the service's lock, the one every change of {@code table} is made under
     * @param table      the service's order table
     * @param outbox     the service's outbox, where a completed order's notification goes
     * @param invalidate drops an order's entry from the service's read cache (a no-op without one)
     */
    PayingOrderResolver(ReentrantLock lock, OrderTable table, Outbox outbox, Consumer<String> invalidate) {
        this.lock = lock;
        this.table = table;
        this.outbox = outbox;
        this.invalidate = invalidate;
    }

    @Override
    public boolean markPaid(String orderId) {
        lock.lock(); // background work: no request's trace to mark the wait in
        try {
            Order order = table.current(orderId);
            if (order == null || order.status() != OrderStatus.PAYING) {
                return false;
            }
            Order paid = order.markPaid();
            outbox.append(Notification.orderPaid(paid.id())); // first: if it throws, nothing changed
            table.put(paid);
        } finally {
            lock.unlock();
        }
        invalidate.accept(orderId);
        return true;
    }

    @Override
    public boolean markCreated(String orderId) {
        lock.lock();
        try {
            Order order = table.current(orderId);
            if (order == null || order.status() != OrderStatus.PAYING) {
                return false;
            }
            table.put(order.markCreated());
        } finally {
            lock.unlock();
        }
        invalidate.accept(orderId);
        return true;
    }
}
