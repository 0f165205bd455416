package archlab.downstream;

import archlab.loadgen.RequestContext;

/**
 * The inventory system: holds stock for an order while it is paid for.
 *
 * <p>Implementations must be safe to call from any number of threads.
 */
public interface Inventory {

    /**
     * Reserves {@code quantity} units of {@code sku}. The order service calls it once per order item.
     *
     * @param ctx      the request's context; the call gives up when its deadline passes
     * @param sku      the stock-keeping unit; not blank
     * @param quantity how many units; at least 1
     * @throws IllegalArgumentException   on a blank sku or a quantity below 1 (nothing is called)
     * @throws DownstreamTimeoutException when the deadline passes before the reply arrives
     * @throws DownstreamException        when the inventory refuses the call
     */
    void reserve(RequestContext ctx, String sku, int quantity);

    /**
     * Gives back {@code quantity} units of {@code sku} reserved earlier: the compensation of
     * {@link #reserve} (used from chapter 12.2 on). Same contract as {@link #reserve}.
     */
    void release(RequestContext ctx, String sku, int quantity);
}
