package archlab.downstream;

import archlab.request.RequestContext;

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

    /**
     * Reserves {@code quantity} units of {@code sku} under {@code reservationKey}, idempotently: the first
     * call that takes effect reserves; a repeat with the same key (a retry after a timeout) reserves nothing
     * more; a key already {@linkplain #release(RequestContext, String) released} reserves nothing ever again,
     * so a reserve that arrives after its compensation cannot leak stock. Used from chapter 12.3 on.
     *
     * @param reservationKey identifies one reservation; not blank; the same on every retry of it
     * @throws IllegalArgumentException   on a blank key, a blank sku, a quantity below 1, or a key reused for
     *                                    another sku or quantity (nothing changes)
     * @throws DownstreamTimeoutException when the deadline passes before the reply arrives
     * @throws DownstreamException        when the inventory refuses the call (nothing changed)
     * @throws UnsupportedOperationException if this inventory has no keyed reservations (the default)
     */
    default void reserve(RequestContext ctx, String reservationKey, String sku, int quantity) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no keyed reservations");
    }

    /**
     * Releases the reservation made under {@code reservationKey}, idempotently: releases its units once; a
     * repeat does nothing; a key never reserved is remembered as released (a late reserve with it then does
     * nothing). Same errors as the keyed {@link #reserve(RequestContext, String, String, int)}.
     */
    default void release(RequestContext ctx, String reservationKey) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no keyed reservations");
    }
}
