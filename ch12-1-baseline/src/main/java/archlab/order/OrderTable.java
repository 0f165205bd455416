package archlab.order;

import archlab.request.RequestContext;
import java.util.List;
import java.util.function.Function;

/**
 * Where the orders are kept, and the one lock that guards them: the port between {@link OrderService} and its store.
 * Two tables implement it: {@link InMemoryOrderTable} (the default: the book's {@code HashMap} behind a
 * {@code ReentrantLock}) and {@link PostgresOrderTable} (a table in PostgreSQL, the lock a row lock held by a transaction
 * on a pooled connection; {@code -Dlab.store=postgres}).
 *
 * <p><b>Why a locked unit of work, not a repository.</b> The port's one operation is {@link #locked}: "run this work
 * holding the table's lock, and give it the rows". The service's critical sections — find the order, call inventory,
 * payment and notify, mark it PAID — stay written in one place, the service, exactly as long as before; only the store
 * decides what "holding the lock" is. A repository port ({@code find}, {@code save}) would have left the lock in the
 * service, where it cannot become a database's: the flaw this checkpoint teaches is precisely that the lock is held
 * across the downstream calls, and with a database that means a transaction (and the connection it runs on) held
 * across them. The unit of work carries that over unchanged, so the two stores differ in what a waiter holds and where
 * it queues, not in what the service does.
 *
 * <p>The next checkpoint keeps the shape and shortens it: short units of work that never span a downstream call, and
 * rows of its own (an outbox appended in the same unit as the PAID update, claimed by a relay; an idempotency key that
 * the table keeps unique).
 *
 * <p>Contract, for both tables:
 * <ul>
 *   <li>{@link #locked} runs {@code work} once, with the lock held from before the first row is read until after the
 *       work returned (or threw) and its changes became visible to the next holder. A waiter cannot give up: the
 *       request's deadline is not consulted while waiting, in either table.</li>
 *   <li>{@link Rows} may be used only inside the work, on the thread that runs it.</li>
 *   <li>An error thrown by the work propagates unchanged. What the work changed before it threw is kept in memory and
 *       rolled back in PostgreSQL; the service changes a row only as the last step of a unit of work (after every
 *       downstream call), so for it the two tables behave alike.</li>
 * </ul>
 *
 * <p>Thread-safety: every method may be called from any number of threads at once.
 */
public interface OrderTable {

    /** Segment: waiting for the table's lock. */
    String LOCK_WAIT = "lock.wait";
    /** Segment: the work under the table's lock, the calls it makes included. */
    String LOCK_HELD = "lock.held";

    /**
     * Runs {@code work} holding the table's lock. Marks the segments {@value #LOCK_WAIT} (waiting for the
     * lock) and {@value #LOCK_HELD} (the work, under the lock); a table may mark more (the PostgreSQL table:
     * {@value PostgresOrderTable#CONNECTION_WAIT}, waiting for a pooled connection first).
     *
     * @return what {@code work} returned
     */
    <T> T locked(RequestContext ctx, Function<Rows, T> work);

    /**
     * @return whether order {@code orderId} exists and is PAID, as committed (for the ledger's charged-but-not-PAID
     *         count, after a run); false for null or an unknown id
     */
    boolean isPaid(String orderId);

    /** The rows, as the unit of work holding the lock sees them. */
    interface Rows {

        /**
         * Stores a new order: CREATED, version 0, with the next id ({@code ord-000001} onwards).
         *
         * @return the stored order (in memory the stored instance itself)
         */
        Order insert(String customerId, List<Item> items, long totalCents);

        /** @return the order with id {@code orderId}, or null when there is none (or {@code orderId} is null) */
        Order find(String orderId);

        /** Marks {@code order} (found by this unit of work) PAID and bumps its version, in the table and in the instance. */
        void markPaid(Order order);
    }
}
