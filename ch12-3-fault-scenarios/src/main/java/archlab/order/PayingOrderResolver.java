package archlab.order;

import archlab.downstream.Notification;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;

/**
 * What the {@link Reconciler} may do to an order it resolves, on the {@link OrderService}'s own state: PAYING →
 * PAID (with its notification into the outbox) or PAYING → CREATED, each under the table's write lock, each only for
 * an order that is still PAYING.
 *
 * <p>The trap it avoids: a background job that changes orders behind the service's back. The reconciler
 * resolves an order long after its pay returned, on another thread; if it wrote the table on its own terms it
 * could skip the lock every other change takes, mark an order PAID without recording its notification (a paid
 * order nobody is told about), leave the cache answering PAYING, or resolve an order that is no longer PAYING
 * and so no longer the reconciler's to finish. Here it takes the lock every change takes, checks that the
 * order is still PAYING, marks it PAID with its notification as one unit of the table's ({@link OrderTable#commitPaid},
 * as pay's commit does), and invalidates the cache after the lock is released.
 *
 * <p>After a crash ({@code -Dlab.store=postgres}) it also takes over the orders a dead process left PAYING
 * ({@link #orphans}): their claims are in the table, and their reservation keys follow from the claim's number.
 *
 * <p>Thread-safety: safe to call from any thread; every change is made under the table's write lock, if it has one
 * (PostgreSQL's conditional statements need none).
 */
final class PayingOrderResolver implements Reconciler.Resolver {

    private final java.util.Optional<Lock> lock;
    private final OrderTable table;
    private final Consumer<String> invalidate;

    /**
     * @param lock       the table's write lock, the one every change of {@code table} is made under (empty: none)
     * @param table      the service's order table, whose outbox a completed order's notification goes into
     * @param invalidate drops an order's entry from the service's read cache (a no-op without one)
     */
    PayingOrderResolver(java.util.Optional<Lock> lock, OrderTable table, Consumer<String> invalidate) {
        this.lock = lock;
        this.table = table;
        this.invalidate = invalidate;
    }

    @Override
    public boolean markPaid(String orderId) {
        lock.ifPresent(Lock::lock); // background work: no request's trace to mark the wait in
        try {
            Order order = table.current(orderId);
            if (order == null || order.status() != OrderStatus.PAYING) {
                return false;
            }
            Order paid = order.markPaid();
            if (!table.commitPaid(paid, Notification.orderPaid(paid.id()))) { // the PAID row and its notification, one unit
                return false;
            }
        } finally {
            lock.ifPresent(Lock::unlock);
        }
        invalidate.accept(orderId);
        return true;
    }

    @Override
    public boolean markCreated(String orderId) {
        lock.ifPresent(Lock::lock);
        try {
            Order order = table.current(orderId);
            if (order == null || order.status() != OrderStatus.PAYING) {
                return false;
            }
            if (!table.update(order.markCreated(), OrderStatus.PAYING)) {
                return false;
            }
        } finally {
            lock.ifPresent(Lock::unlock);
        }
        invalidate.accept(orderId);
        return true;
    }

    @Override
    public List<PayClaim> orphans() {
        return table.orphanedClaims().stream().map(c -> PayClaim.of(c.order(), c.number(), c.untilDeadline())).toList();
    }
}
