package archlab.order;

/**
 * The life of an order: created, then paid once. PAYING marks a pay in progress (its charge is on the
 * way), so a second pay of the same order is refused at once; a failed charge returns it to CREATED.
 */
public enum OrderStatus {
    CREATED,
    PAYING,
    PAID
}
