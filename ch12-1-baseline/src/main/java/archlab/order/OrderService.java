package archlab.order;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Inventory;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import archlab.profile.ProfiledLock;
import archlab.trace.Span;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The book's in-memory order service, <b>faithfully flawed</b> — this checkpoint is the "before".
 *
 * <p>The trap it teaches: one global lock guards the order table, and {@link #pay} holds it while it
 * calls inventory (once per item), payment and notify. Its critical section is therefore as long as
 * the three downstream calls together (2 + 4 + 2 ms by default), and every create and get waits
 * behind it. A waiter cannot give up: {@link ReentrantLock#lock()} ignores the request's deadline.
 * The second hot spot is {@link #copy(Order)}: every returned order is a deep copy made by a JSON
 * round trip.
 *
 * <p>Segments marked for "where the time went": {@value #LOCK_WAIT}, {@value #LOCK_HELD} (inclusive of
 * the calls made under it), {@value #INVENTORY}, {@value #PAYMENT}, {@value #NOTIFY}, {@value #JSON_COPY}.
 *
 * <p>Thread-safety: all methods are safe to call from any number of threads (that is the lock's job).
 */
public final class OrderService {

    public static final String LOCK_WAIT = "lock.wait";
    public static final String LOCK_HELD = "lock.held";
    public static final String INVENTORY = "inventory";
    public static final String PAYMENT = "payment";
    public static final String NOTIFY = "notify";
    public static final String JSON_COPY = "json.copy";

    private static final ObjectMapper JSON = new ObjectMapper();

    // tag::lock[]
    // A plain non-fair ReentrantLock that also reports its waits to JFR: JFR cannot see a virtual
    // thread parking on a ReentrantLock, and the runner gives each request a virtual thread.
    private final ReentrantLock lock = new ProfiledLock("orders");
    private final Map<String, Order> orders = new HashMap<>();
    // end::lock[]
    private int sequence;

    private final Inventory inventory;
    private final Payments payments;
    private final Notifier notifier;
    private final AtomicLong notificationIds = new AtomicLong();

    public OrderService(Inventory inventory, Payments payments, Notifier notifier) {
        this.inventory = inventory;
        this.payments = payments;
        this.notifier = notifier;
    }

    /**
     * Creates an order in status CREATED with version 0.
     *
     * @throws InvalidOrderException for a blank customer, no items, a blank SKU, a quantity ≤ 0, a
     *                               negative price or a total that overflows a long; nothing is stored
     */
    public Order create(RequestContext ctx, String customerId, List<Item> items) {
        long total = validatedTotal(customerId, items);
        acquire(ctx);
        try (Span held = ctx.span(LOCK_HELD)) {
            sequence++;
            Order order = new Order(String.format("ord-%06d", sequence), customerId, items, total);
            orders.put(order.id(), order);
            return copy(ctx, order);
        } finally {
            lock.unlock();
        }
    }

    /** @throws OrderNotFoundException if no order has this id */
    public Order get(RequestContext ctx, String orderId) {
        acquire(ctx);
        try (Span held = ctx.span(LOCK_HELD)) {
            return copy(ctx, find(orderId));
        } finally {
            lock.unlock();
        }
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
        acquire(ctx);
        try (Span held = ctx.span(LOCK_HELD)) {
            Order order = find(orderId);
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
            order.markPaid();
            return copy(ctx, order);
        } finally {
            lock.unlock();
        }
    }
    // end::pay[]

    /** @return whether order {@code orderId} exists and is PAID (for the ledger's charged-but-not-PAID count) */
    public boolean isPaid(String orderId) {
        lock.lock();
        try {
            Order order = orders.get(orderId);
            return order != null && order.status() == OrderStatus.PAID;
        } finally {
            lock.unlock();
        }
    }

    private void acquire(RequestContext ctx) {
        try (Span wait = ctx.span(LOCK_WAIT)) {
            lock.lock();
        }
    }

    private Order find(String orderId) {
        Order order = orderId == null ? null : orders.get(orderId);
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
