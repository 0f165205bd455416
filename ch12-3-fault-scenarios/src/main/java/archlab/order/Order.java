package archlab.order;

import java.util.List;
import java.util.Objects;

/**
 * An order as the service stores it and hands it out: an <b>immutable snapshot</b>. A change makes a
 * new snapshot ({@link #markPaying()}, {@link #markPaid()}, {@link #markCreated()}) that replaces the old
 * one in the order table, so a returned order can be shared with any thread and never changes under its
 * reader. The trap it fixes: ch12-1 stored a mutable object and deep-copied it by a JSON round trip on
 * every call, an allocation-heavy copy on the hot path; a snapshot needs no copy at all.
 *
 * <p>Thread-safety: immutable; {@link #items()} is an unmodifiable list.
 *
 * @param id         the order id, {@code ord-000001} onwards
 * @param customerId the customer
 * @param status     CREATED, PAYING while a pay is in progress, PAID
 * @param items      the items, unmodifiable
 * @param totalCents Σ quantity × unit price, in cents
 * @param version    0 when created, +1 on every completed change (PAID); the transient PAYING claim and its
 *                   release after a failed charge do not count
 */
public record Order(String id, String customerId, OrderStatus status, List<Item> items, long totalCents, int version) {

    public Order {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        items = List.copyOf(items);
    }

    Order(String id, String customerId, List<Item> items, long totalCents) {
        this(id, customerId, OrderStatus.CREATED, items, totalCents, 0);
    }

    /** @return this order claimed by a pay: PAYING, same version */
    Order markPaying() {
        return new Order(id, customerId, OrderStatus.PAYING, items, totalCents, version);
    }

    /** @return this order paid: PAID, version + 1 */
    Order markPaid() {
        return new Order(id, customerId, OrderStatus.PAID, items, totalCents, version + 1);
    }

    /** @return this order payable again after a failed charge: CREATED, same version */
    Order markCreated() {
        return new Order(id, customerId, OrderStatus.CREATED, items, totalCents, version);
    }

    @Override
    public String toString() {
        return "Order[" + id + " " + status + " v" + version + " " + totalCents + "c " + items + "]";
    }
}
