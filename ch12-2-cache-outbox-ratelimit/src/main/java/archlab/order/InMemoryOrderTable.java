package archlab.order;

import archlab.clock.NanoClock;
import archlab.downstream.LatencyModel;
import archlab.downstream.Notification;
import archlab.profile.ProfiledLock;
import archlab.request.RequestContext;
import archlab.trace.Span;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The book's order table, the default {@link OrderTable}: an in-memory map of orders, with an injectable <em>read latency</em>, so a
 * lab run can ask what a read cache buys when a table read costs 1 ms (default 0: the book's table).
 *
 * <p>The trap it fixes: in ch12-1 the table was a {@code HashMap} behind the service's one lock, so
 * every read queued behind every pay. Here a row is an immutable {@link Order} snapshot in a
 * {@link ConcurrentHashMap}: a read takes no lock, and a writer replaces a row whole.
 *
 * <p>Two kinds of access, with different costs:
 * <ul>
 *   <li>{@link #read} is the read path a cache sits in front of (get). It follows the stubs' rule: the row
 *       is looked up, then the reply takes the latency model's time (the model's call index is the read's
 *       number, 0-based). The delay ignores the request's deadline, as a read without a timeout would.</li>
 *   <li>{@link #current} and the writes ({@link #insert}, {@link #update}, {@link #commitPaid}) are the state transitions of the service (a conditional
 *       {@code UPDATE … WHERE status = 'CREATED'} in a database): modelled as instantaneous, because their
 *       latency is not this lab's variable.</li>
 * </ul>
 *
 * <p>Thread-safety: every method may be called from any thread; the conditional writes ({@link #update},
 * {@link #commitPaid}) check and write in two steps, so the changes of one order must be serialised by the caller (the
 * service's lock does it).
 */
public final class InMemoryOrderTable implements OrderTable {

    private final ConcurrentHashMap<String, Order> rows = new ConcurrentHashMap<>();
    private final LatencyModel readLatency;
    private final AtomicLong reads = new AtomicLong();
    private final AtomicInteger sequence = new AtomicInteger();
    // A plain non-fair ReentrantLock that also reports its waits to JFR: JFR cannot see a virtual
    // thread parking on a ReentrantLock, and the runner gives each request a virtual thread.
    private final ReentrantLock lock = new ProfiledLock("orders");
    private final InMemoryOutbox outbox;

    /**
     * @param readLatency how long each {@link #read} takes; {@link LatencyModel#ZERO} for the book's table
     * @param clock       the clock of the outbox's instants
     */
    public InMemoryOrderTable(LatencyModel readLatency, NanoClock clock) {
        this.readLatency = Objects.requireNonNull(readLatency, "readLatency");
        this.outbox = new InMemoryOutbox(clock);
    }

    /**
     * Reads one row, marked as segment {@value #TABLE_READ}.
     *
     * @return the order, or {@code null} if no order has this id
     * @throws IllegalStateException if interrupted during the read delay (interrupt flag restored)
     */
    @Override
    public Order read(RequestContext ctx, String orderId) {
        try (Span s = ctx.span(TABLE_READ)) {
            long readIndex = reads.getAndIncrement();
            Order row = rows.get(orderId);
            Duration delay = readLatency.latencyOf(readIndex);
            if (delay == null || delay.isNegative()) {
                throw new IllegalStateException("table read latency model returned " + delay + " for read #" + readIndex);
            }
            if (!delay.isZero()) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while reading order " + orderId, e);
                }
            }
            return row;
        }
    }

    /** The row as the writer sees it, at no cost. */
    @Override
    public Order current(String orderId) {
        return orderId == null ? null : rows.get(orderId);
    }

    @Override
    public Order insert(String customerId, List<Item> items, long totalCents) {
        Order order = new Order(String.format("ord-%06d", sequence.incrementAndGet()), customerId, items, totalCents);
        rows.put(order.id(), order);
        return order;
    }

    @Override
    public boolean update(Order next, OrderStatus expected) {
        Order now = rows.get(next.id());
        if (now == null || now.status() != expected) {
            return false;
        }
        rows.put(next.id(), next);
        return true;
    }

    /** The append first: if it throws (a message id seen before), the row is unchanged. */
    @Override
    public boolean commitPaid(Order paid, Notification notification) {
        Order now = rows.get(paid.id());
        if (now == null || now.status() != OrderStatus.PAYING) {
            return false;
        }
        outbox.append(notification);
        rows.put(paid.id(), paid);
        return true;
    }

    @Override
    public java.util.Optional<java.util.concurrent.locks.Lock> writeLock() {
        return java.util.Optional.of(lock);
    }

    @Override
    public Outbox outbox() {
        return outbox;
    }

    @Override
    public long reads() {
        return reads.get();
    }
}
