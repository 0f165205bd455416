package archlab.order;

/**
 * One line of an order.
 *
 * @param sku            stock-keeping unit, not blank
 * @param quantity       at least 1
 * @param unitPriceCents price of one unit in cents, zero or more
 */
public record Item(String sku, int quantity, long unitPriceCents) {
}
