package archlab.order;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import java.util.ArrayList;
import java.util.List;

/**
 * An order as the service stores it: a <b>mutable</b> object inside the order table, changed in place
 * by {@link #markPaid()}. Callers only ever receive a deep copy (a JSON round trip, see
 * {@link OrderService}), so changing a returned order never changes the table — at the price of an
 * allocation-heavy copy on every call, one of this checkpoint's two deliberate hot spots. (With the PostgreSQL table the
 * stored order is a row; an instance is read from it for one unit of work and copied all the same, so both tables
 * answer with the same work.)
 *
 * <p>Thread-safety: none; the table's lock guards every stored instance ({@link OrderTable#locked}).
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY,
        getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class Order {

    private String id;
    private String customerId;
    private OrderStatus status;
    private List<Item> items = new ArrayList<>();
    private long totalCents;
    private int version;

    /** For Jackson's copy. */
    Order() {
    }

    Order(String id, String customerId, List<Item> items, long totalCents) {
        this.id = id;
        this.customerId = customerId;
        this.status = OrderStatus.CREATED;
        this.items = new ArrayList<>(items);
        this.totalCents = totalCents;
    }

    /** An order read back from a table row (the PostgreSQL table): as it was stored, status and version included. */
    Order(String id, String customerId, List<Item> items, long totalCents, OrderStatus status, int version) {
        this(id, customerId, items, totalCents);
        this.status = status;
        this.version = version;
    }

    /** @return the order id, {@code ord-000001} onwards */
    public String id() {
        return id;
    }

    public String customerId() {
        return customerId;
    }

    public OrderStatus status() {
        return status;
    }

    /** @return the items; in a returned copy this list is the copy's own */
    public List<Item> items() {
        return items;
    }

    /** @return Σ quantity × unit price, in cents */
    public long totalCents() {
        return totalCents;
    }

    /** @return 0 when created, +1 on every change */
    public int version() {
        return version;
    }

    /** CREATED → PAID, version + 1. Caller holds the table's lock ({@link OrderTable#locked}). */
    void markPaid() {
        status = OrderStatus.PAID;
        version++;
    }

    @Override
    public String toString() {
        return "Order[" + id + " " + status + " v" + version + " " + totalCents + "c " + items + "]";
    }
}
