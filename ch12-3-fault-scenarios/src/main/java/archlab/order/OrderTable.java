package archlab.order;

import archlab.downstream.LatencyModel;
import archlab.request.RequestContext;
import archlab.trace.Span;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The order table: the book's in-memory map of orders, with an injectable <em>read latency</em>, so a
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
 *   <li>{@link #current} and {@link #put} are the state transitions of the service (a conditional
 *       {@code UPDATE … WHERE status = 'CREATED'} in a database): modelled as instantaneous, because their
 *       latency is not this lab's variable.</li>
 * </ul>
 *
 * <p>Thread-safety: every method may be called from any thread; writes of one order must be serialised
 * by the caller (the service's lock does it).
 */
final class OrderTable {

    private final ConcurrentHashMap<String, Order> rows = new ConcurrentHashMap<>();
    private final LatencyModel readLatency;
    private final AtomicLong reads = new AtomicLong();

    /** @param readLatency how long each {@link #read} takes; {@link LatencyModel#ZERO} for the book's table */
    OrderTable(LatencyModel readLatency) {
        this.readLatency = Objects.requireNonNull(readLatency, "readLatency");
    }

    /**
     * Reads one row, marked as segment {@value OrderService#TABLE_READ}.
     *
     * @return the order, or {@code null} if no order has this id
     * @throws IllegalStateException if interrupted during the read delay (interrupt flag restored)
     */
    Order read(RequestContext ctx, String orderId) {
        try (Span s = ctx.span(OrderService.TABLE_READ)) {
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

    /** @return the row as the writer sees it, at no cost; {@code null} if absent */
    Order current(String orderId) {
        return orderId == null ? null : rows.get(orderId);
    }

    /** Inserts or replaces the row of {@code order.id()}. */
    void put(Order order) {
        rows.put(order.id(), order);
    }

    /** @return how many {@link #read}s reached the table so far */
    long reads() {
        return reads.get();
    }
}
