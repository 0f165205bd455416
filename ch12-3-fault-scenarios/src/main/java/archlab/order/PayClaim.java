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
 * @param untilDeadline   how long until the claiming pay's deadline when the claim was read (an orphan's: when adopted)
 */
record PayClaim(Order order, List<String> reservationKeys, java.time.Duration untilDeadline) {

    /** @param number this claim's number among the order's claims (1 for its first), kept by the table */
    static PayClaim of(Order paying, long number) {
        return of(paying, number, java.time.Duration.ZERO);
    }

    /**
     * @param number        this claim's number among the order's claims (1 for its first), kept by the table
     * @param untilDeadline how long until the deadline of the pay that made the claim (zero: passed, or unknown)
     */
    static PayClaim of(Order paying, long number, java.time.Duration untilDeadline) {
        List<String> keys = new ArrayList<>(paying.items().size());
        for (int i = 0; i < paying.items().size(); i++) {
            keys.add(reservationKey(paying.id(), number, i));
        }
        return new PayClaim(paying, List.copyOf(keys), untilDeadline);
    }

    /**
     * The key of the reservation of item {@code item} in the {@code claim}-th claim of any order: the same on
     * every retry of one reserve, new for every claim (a pay after a released claim reserves afresh).
     */
    static String reservationKey(String orderId, long claim, int item) {
        return "rsv:" + orderId + ":" + claim + ":" + item;
    }

    /** @return the order a {@link #reservationKey} names; empty for a key not made by it */
    static java.util.Optional<String> orderOf(String reservationKey) {
        String[] parts = reservationKey.split(":", -1);
        return parts.length == 4 && parts[0].equals("rsv") && !parts[1].isEmpty() ? java.util.Optional.of(parts[1]) : java.util.Optional.empty();
    }
}
