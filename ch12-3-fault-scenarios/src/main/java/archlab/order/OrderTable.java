package archlab.order;

import archlab.downstream.Notification;
import archlab.request.RequestContext;
import java.util.List;

/**
 * Where the orders and their outbox are kept: the port between {@link OrderService} and its store. Two tables implement
 * it: {@link InMemoryOrderTable} (the default: the book's map of immutable rows, the outbox a list beside it) and
 * {@link PostgresOrderTable} ({@code -Dlab.store=postgres}: tables in PostgreSQL, every change one short transaction).
 *
 * <p>The trap it fixes, against ch12-1's port: there, the port's one operation ran the service's whole critical section
 * — downstream calls included — holding the table's lock, so in PostgreSQL a transaction (and its pooled connection)
 * stayed open across inventory, payment and notify. Here every operation is one short unit of work that never spans a
 * downstream call: the service claims an order ({@link #claim} CREATED → PAYING), lets go, calls inventory and payment
 * with nothing held, then commits the outcome ({@link #commitPaid}). The lock that serialises the service's changes is
 * the table's ({@link #writeLock()}): the rows' lock in memory, where it guards no I/O; none in PostgreSQL.
 *
 * <p>The outbox's promise lives here, not in the service: {@link #commitPaid} marks the order PAID <em>and</em> records
 * its notification as one unit — under one lock in memory, in one transaction in PostgreSQL — so there is no moment,
 * and no crash, with one and not the other.
 *
 * <p>Contract, for both tables:
 * <ul>
 *   <li>{@link #update} and {@link #commitPaid} are conditional: they change the row only if it is in the expected
 *       status, and say whether they did. A caller that serialises its own changes (the service's lock) always finds
 *       what it expects; a second process on the same database may not, and the condition is what keeps it honest.</li>
 *   <li>{@link #read} is the read path a cache sits in front of and is marked {@value #TABLE_READ};
 *       {@link #current} is the writer's view, unmarked.</li>
 *   <li>A row is an immutable {@link Order} snapshot: a reader never sees half a change.</li>
 * </ul>
 *
 * <p>Chapter 12.3 adds what its reconciler needs to finish a pay whose process died: a claim is numbered per order and
 * stamped with the process that made it ({@link #claim}), so a live process can take over the PAYING orders a dead one
 * claimed ({@link #orphanedClaims}) and rebuild their reservation keys ({@link PayClaim#of}).
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface OrderTable {

    /** Segment: waiting for the table's write lock. */
    String LOCK_WAIT = "lock.wait";
    /** Segment: a state change under the table's write lock. */
    String LOCK_HELD = "lock.held";
    /** Segment: a state change's step on a table without a write lock (PostgreSQL): its statements and commit. */
    String STORE_WRITE = "store.write";
    /** Segment: one row read by {@link #read}. */
    String TABLE_READ = "table.read";

    /**
     * An order's claim by a pay: the order PAYING, the claim's number among the order's claims (1 for its first), and
     * how long until the claiming pay's deadline, as it was when the claim was read.
     *
     * @param order         the claimed order, PAYING
     * @param number        1, 2, …: a new number for every claim of this order, kept with the row
     * @param untilDeadline how long until the deadline of the pay that made the claim (zero: passed, or none kept); a
     *                      charge of that pay can reach the provider until then, so an orphan is asked about only after
     */
    record Claim(Order order, long number, java.time.Duration untilDeadline) {
        public Claim(Order order, long number) {
            this(order, number, java.time.Duration.ZERO);
        }
    }

    /**
     * Reads one row, marked as segment {@value #TABLE_READ}.
     *
     * @return the order, or {@code null} if no order has this id
     */
    Order read(RequestContext ctx, String orderId);

    /** @return the row as the writer sees it; {@code null} if absent (or {@code orderId} is null) */
    Order current(String orderId);

    /**
     * Stores a new order: CREATED, version 0, with the next id ({@code ord-000001} onwards).
     *
     * @return the stored order
     */
    Order insert(String customerId, List<Item> items, long totalCents);

    /**
     * Replaces the row of {@code next.id()} with {@code next} if the row's status is {@code expected}.
     *
     * @return whether it did (false: no such row, or another status; nothing changed)
     */
    boolean update(Order next, OrderStatus expected);

    /**
     * Claims {@code paying.id()} for a pay of this process: CREATED → PAYING, its claim count one up.
     *
     * @param paying the order as PAYING ({@link Order#markPaying()} of the row the caller found CREATED)
     * @return the claim, or empty if the order was not CREATED (nothing changed)
     */
    java.util.Optional<Claim> claim(Order paying);

    /**
     * {@link #claim(Order)}, keeping with the row when the pay's deadline falls, for whoever adopts the claim if this
     * process dies ({@link #orphanedClaims}); a table whose claims die with the process keeps nothing.
     *
     * @param untilDeadline how long until the pay's deadline; {@code null} for a pay without one
     */
    default java.util.Optional<Claim> claim(Order paying, java.time.Duration untilDeadline) {
        return claim(paying);
    }

    /**
     * Takes over the PAYING orders whose claimer is dead — another process that died between its claim and its commit
     * (PostgreSQL: its {@link ProcessLease} is gone) — making them this process's claims; a live neighbour's claims are
     * left alone. None in memory, where every claim is this process's and dies with it.
     *
     * @return the orders taken over, with their claim numbers; each is taken by one process only
     */
    List<Claim> orphanedClaims();

    /**
     * Replaces the row of {@code paid.id()} with {@code paid} if it is PAYING, and appends {@code notification} to
     * {@link #outbox()}: both, in one unit, or neither.
     *
     * @return whether it did (false: the order was not PAYING, or — on PostgreSQL — its claim is another process's now,
     *         the fence; nothing changed)
     * @throws IllegalStateException if the notification's message id is in the outbox already (nothing changed)
     */
    boolean commitPaid(Order paid, Notification notification);

    /**
     * The lock the service holds around each of its check-then-write steps (find the order, check its status, write):
     * in memory the rows' one lock, because the map checks and writes in two steps; in PostgreSQL none, because the
     * database checks and writes in one statement, and a lock in the process held across a commit would queue every
     * commit — and its flush of the write-ahead log — behind the one before: ch12-1's flaw again, one I/O long.
     *
     * @return the same lock on every call, or empty when the table needs none
     */
    java.util.Optional<java.util.concurrent.locks.Lock> writeLock();

    /**
     * Told by the service after each change of {@code orderId}, once its write lock is released and before the change
     * returns: a table with a cache in front of its store drops the entry there. Never under the lock — a cache call
     * held under it would queue every change behind a round trip. Does nothing by default.
     */
    default void changed(String orderId) {
    }

    /** {@link #changed(String)}, for a change made by the request {@code ctx}: a table may mark the time it takes. */
    default void changed(RequestContext ctx, String orderId) {
        changed(orderId);
    }

    /**
     * Asks to be told of changes other instances of the service make ({@code listener} gets the order's id, on a
     * thread of the table's), so that a cache in this instance's heap drops what another instance changed. A table that
     * hears of no other instance does nothing — the default, and the naive fleet: each instance's first level then
     * serves what another changed until the entry's lifetime ends.
     */
    default void onChangedElsewhere(java.util.function.Consumer<String> listener) {
    }

    /** @return the outbox {@link #commitPaid} appends to */
    Outbox outbox();

    /** @return how many {@link #read}s reached the table so far (in this process) */
    long reads();
}
