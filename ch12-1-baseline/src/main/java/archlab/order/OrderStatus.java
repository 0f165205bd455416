package archlab.order;

/** The life of an order: created, then paid once. */
public enum OrderStatus {
    CREATED,
    PAID
}
