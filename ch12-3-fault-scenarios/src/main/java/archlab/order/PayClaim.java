package archlab.order;

import java.util.ArrayList;
import java.util.List;

/**
 * An order claimed by one pay (CREATED → PAYING) and the keys its items are reserved under, one per item.
 *
 * <p>The trap it avoids: a reservation key that lives too short or too long. Without a key, a reserve retried
 * after a reply that was only late reserves the stock twice. With a key made from the order alone, a pay after a
 * released claim would reserve nothing: a released key never reserves again (so that a reserve arriving after
 * its release cannot leak stock), and the order would become PAID holding no stock. So a key is the same on
 * every retry of one reserve and new for every claim ({@link #reservationKey}).
 *
 * <p>Thread-safety: immutable.
 *
 * @param order           the claimed order, PAYING
 * @param reservationKeys the key of each item's reservation, in the order of the items
 */
record PayClaim(Order order, List<String> reservationKeys) {

    /** @param number this claim's number among the order's claims (1 for its first), kept by the table */
    static PayClaim of(Order paying, long number) {
        List<String> keys = new ArrayList<>(paying.items().size());
        for (int i = 0; i < paying.items().size(); i++) {
            keys.add(reservationKey(paying.id(), number, i));
        }
        return new PayClaim(paying, List.copyOf(keys));
    }

    /**
     * The key of the reservation of item {@code item} in the {@code claim}-th claim of any order: the same on
     * every retry of one reserve, new for every claim (a pay after a released claim reserves afresh).
     */
    static String reservationKey(String orderId, long claim, int item) {
        return "rsv:" + orderId + ":" + claim + ":" + item;
    }
}
