package archlab.order;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Inventory;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import archlab.trace.Span;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The book's order service, <b>faithfully flawed</b> — this checkpoint is the "before".
 *
 * <p>The trap it teaches: one global lock guards the order table, and {@link #pay} holds it while it
 * calls inventory (once per item), payment and notify. Its critical section is therefore as long as
 * the three downstream calls together (2 + 4 + 2 ms by default), and every create and get waits
 * behind it. A waiter cannot give up: the lock ignores the request's deadline.
 * The second hot spot is {@link #copy(Order)}: every returned order is a deep copy made by a JSON
 * round trip.
 *
 * <p>The table and its lock are a port, {@link OrderTable}: each operation is one unit of work run by
 * {@link OrderTable#locked}. In memory ({@link InMemoryOrderTable}, the default) the lock is a
 * {@code ReentrantLock}; in PostgreSQL ({@link PostgresOrderTable}) it is a row lock held by a transaction on a
 * pooled connection, across the same downstream calls — the same flaw, where real services have it. The port is a
 * locked unit of work rather than a repository's find and save because the lock is what the two stores hold
 * differently, and the critical sections must stay written here, as long as before (see {@link OrderTable}).
 *
 * <p>Segments marked for "where the time went": {@value OrderTable#LOCK_WAIT}, {@value OrderTable#LOCK_HELD} (inclusive of
 * the calls made under it), {@value #INVENTORY}, {@value #PAYMENT}, {@value #NOTIFY}, {@value #JSON_COPY};
 * the PostgreSQL table adds {@value PostgresOrderTable#CONNECTION_WAIT}.
 *
 * <p>Thread-safety: all methods are safe to call from any number of threads (that is the lock's job).
 */
public final class OrderService {

    public static final String INVENTORY = "inventory";
    public static final String PAYMENT = "payment";
    public static final String NOTIFY = "notify";
    public static final String JSON_COPY = "json.copy";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OrderTable table;
    private final Inventory inventory;
    private final Payments payments;
    private final Notifier notifier;
    private final AtomicLong notificationIds = new AtomicLong();

    /** The book's service: orders in memory ({@link InMemoryOrderTable}). */
    public OrderService(Inventory inventory, Payments payments, Notifier notifier) {
        this(inventory, payments, notifier, new InMemoryOrderTable());
    }

    /** @param table where the orders are kept, and the lock that guards them */
    public OrderService(Inventory inventory, Payments payments, Notifier notifier, OrderTable table) {
        this.inventory = inventory;
        this.payments = payments;
        this.notifier = notifier;
        this.table = java.util.Objects.requireNonNull(table, "table");
    }

    /**
     * Creates an order in status CREATED with version 0.
     *
     * @throws InvalidOrderException for a blank customer, no items, a blank SKU, a quantity ≤ 0, a
     *                               negative price or a total that overflows a long; nothing is stored
     */
    public Order create(RequestContext ctx, String customerId, List<Item> items) {
        long total = validatedTotal(customerId, items);
        return table.locked(ctx, rows -> copy(ctx, rows.insert(customerId, items, total)));
    }

    /** @throws OrderNotFoundException if no order has this id */
    public Order get(RequestContext ctx, String orderId) {
        return table.locked(ctx, rows -> copy(ctx, find(rows, orderId)));
    }

    /**
     * Reserves stock, charges and notifies — all while holding the table's lock — then marks the order
     * PAID. A downstream error (or the deadline passing inside a downstream call) leaves the order
     * CREATED, even when the charge already went through: the book's "charged but not PAID".
     *
     * @throws OrderNotFoundException if no order has this id
     * @throws InvalidStateException  if the order is not CREATED
     */
    // tag::pay[]
    public Order pay(RequestContext ctx, String orderId) {
        return table.locked(ctx, rows -> {
            Order order = find(rows, orderId);
            if (order.status() != OrderStatus.CREATED) {
                throw new InvalidStateException(orderId, order.status(), "pay");
            }
            for (Item item : order.items()) {
                try (Span s = ctx.span(INVENTORY)) {
                    inventory.reserve(ctx, item.sku(), item.quantity());
                }
            }
            try (Span s = ctx.span(PAYMENT)) {
                // no idempotency key: a retry would be a second charge
                payments.charge(ctx, new ChargeRequest(order.id(), order.totalCents(), null));
            }
            try (Span s = ctx.span(NOTIFY)) {
                notifier.notify(ctx, new Notification("ntf-" + notificationIds.incrementAndGet(), order.id()));
            }
            rows.markPaid(order);
            return copy(ctx, order);
        });
    }
    // end::pay[]

    /** @return whether order {@code orderId} exists and is PAID (for the ledger's charged-but-not-PAID count) */
    public boolean isPaid(String orderId) {
        return table.isPaid(orderId);
    }

    private static Order find(OrderTable.Rows rows, String orderId) {
        Order order = rows.find(orderId);
        if (order == null) {
            throw new OrderNotFoundException(orderId);
        }
        return order;
    }

    // tag::copy[]
    /** The deliberate hot spot: a deep copy by JSON round trip, as the book's {@code clone}. */
    private static Order copy(RequestContext ctx, Order order) {
        try (Span s = ctx.span(JSON_COPY)) {
            return JSON.readValue(JSON.writeValueAsBytes(order), Order.class);
        } catch (IOException e) {
            throw new UncheckedIOException("JSON copy of " + order.id() + " failed", e);
        }
    }
    // end::copy[]

    private static long validatedTotal(String customerId, List<Item> items) {
        if (customerId == null || customerId.isBlank()) {
            throw new InvalidOrderException("customer id is blank");
        }
        if (items == null || items.isEmpty()) {
            throw new InvalidOrderException("an order needs at least one item");
        }
        long total = 0;
        for (Item item : items) {
            if (item == null || item.sku() == null || item.sku().isBlank()) {
                throw new InvalidOrderException("every item needs a SKU, got " + item);
            }
            if (item.quantity() <= 0) {
                throw new InvalidOrderException("quantity must be at least 1, got " + item.quantity() + " for " + item.sku());
            }
            if (item.unitPriceCents() < 0) {
                throw new InvalidOrderException("unit price must not be negative, got " + item.unitPriceCents() + " for " + item.sku());
            }
            try {
                total = Math.addExact(total, Math.multiplyExact(item.quantity(), item.unitPriceCents()));
            } catch (ArithmeticException e) {
                throw new InvalidOrderException("total overflows a long (" + items.size() + " items)");
            }
        }
        return total;
    }
}
