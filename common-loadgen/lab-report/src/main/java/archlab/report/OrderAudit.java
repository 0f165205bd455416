package archlab.report;

import archlab.downstream.ChargeResult;
import archlab.downstream.Downstream;
import archlab.downstream.PaymentLedger;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The books read order by order, never the service's counters: for every order of a run, whether what the
 * provider charged, what the inventory holds and what the notifier received agree with whether the store says PAID.
 *
 * <p>The trap it avoids: a global difference. "Units reserved − units of PAID orders = 0" holds when one order leaks its
 * stock and another is PAID holding none; "charged but not PAID = 0" holds for a reconciler that marks every orphan
 * PAID without asking the provider. Counted per order, each fault is its own figure:
 * <ul>
 *   <li>{@code paid_not_charged}: PAID, and no charge of it stands (never charged, or every charge refunded);</li>
 *   <li>{@code charged_not_paid}: a charge stands, and it is not PAID;</li>
 *   <li>{@code charged_twice}: more than one charge stands (a refund of the extra one clears it);</li>
 *   <li>{@code notified_not_paid} / {@code paid_not_notified} / {@code notified_twice}: the notifier's book against
 *       PAID (a redelivery the notifier recognised is not a second notification);</li>
 *   <li>{@code reservations_leaked_orders}: orders whose held units are not their units when PAID, or not 0 when not
 *       PAID; {@value #NOT_MEASURED} when the run's reservations carry no key that names their order.</li>
 * </ul>
 *
 * @param orders                   orders audited
 * @param money                    the provider's book against PAID
 * @param notices                  the notifier's book against PAID
 * @param reservationsLeakedOrders see above; {@value #NOT_MEASURED} if not measured
 * @param examples                 up to {@link #EXAMPLES} ids of orders that broke a rule, each with the rule
 */
public record OrderAudit(long orders, Money money, Notices notices, long reservationsLeakedOrders, List<String> examples) {

    /** The provider's book against PAID, in orders: {@code paid_not_charged}, {@code charged_not_paid}, {@code charged_twice}. */
    public record Money(long paidNotCharged, long chargedNotPaid, long chargedTwice) {
    }

    /** The notifier's book against PAID, in orders: {@code notified_not_paid}, {@code paid_not_notified}, {@code notified_twice}. */
    public record Notices(long notifiedNotPaid, long paidNotNotified, long notifiedTwice) {
    }

    /** @return PAID orders no charge of which stands */
    public long paidNotCharged() {
        return money.paidNotCharged();
    }

    /** @return orders a charge of which stands, not PAID */
    public long chargedNotPaid() {
        return money.chargedNotPaid();
    }

    /** @return orders more than one charge of which stands */
    public long chargedTwice() {
        return money.chargedTwice();
    }

    /** @return orders notified, not PAID */
    public long notifiedNotPaid() {
        return notices.notifiedNotPaid();
    }

    /** @return PAID orders never notified */
    public long paidNotNotified() {
        return notices.paidNotNotified();
    }

    /** @return orders notified more than once, in effect */
    public long notifiedTwice() {
        return notices.notifiedTwice();
    }

    /** Marks a figure not measured. */
    public static final long NOT_MEASURED = -1;
    /** How many failing orders a result names. */
    public static final int EXAMPLES = 5;

    public OrderAudit {
        examples = List.copyOf(examples);
    }

    /**
     * Audits {@code orders} against the books of {@code downstream}.
     *
     * @param isPaid          whether the store says PAID
     * @param unitsOf         units an order holds when PAID
     * @param orderOfKey      the order a reservation key names, empty for a key of no order; {@code null} when the
     *                        run's keys name no order (the reservation figure is then not measured)
     */
    public static OrderAudit of(Downstream downstream, Collection<String> orders, Predicate<String> isPaid,
                                ToLongFunction<String> unitsOf, Function<String, Optional<String>> orderOfKey) {
        PaymentLedger ledger = downstream.ledger();
        Map<String, Long> held = new HashMap<>();
        if (orderOfKey != null) {
            downstream.inventory().heldUnitsByKey().forEach((key, units) ->
                    orderOfKey.apply(key).ifPresent(order -> held.merge(order, units, Long::sum)));
        }
        long paidNotCharged = 0;
        long chargedNotPaid = 0;
        long chargedTwice = 0;
        long notifiedNotPaid = 0;
        long paidNotNotified = 0;
        long notifiedTwice = 0;
        long leaked = 0;
        List<String> examples = new java.util.ArrayList<>();
        for (String id : orders) {
            boolean paid = isPaid.test(id);
            long standing = ledger.chargesFor(id).stream().map(ChargeResult::paymentId).filter(p -> !ledger.isRefunded(p)).count();
            long notified = downstream.notifier().notificationsFor(id);
            String broke = null;
            if (paid && standing == 0) {
                paidNotCharged++;
                broke = "PAID, no charge stands";
            }
            if (!paid && standing > 0) {
                chargedNotPaid++;
                broke = "charged, not PAID";
            }
            if (standing > 1) {
                chargedTwice++;
                broke = standing + " charges stand";
            }
            if (!paid && notified > 0) {
                notifiedNotPaid++;
                broke = "notified, not PAID";
            }
            if (paid && notified == 0) {
                paidNotNotified++;
                broke = "PAID, never notified";
            }
            if (notified > 1) {
                notifiedTwice++;
                broke = "notified " + notified + " times";
            }
            if (orderOfKey != null) {
                long holds = held.getOrDefault(id, 0L);
                long owed = paid ? unitsOf.applyAsLong(id) : 0;
                if (holds != owed) {
                    leaked++;
                    broke = "holds " + holds + " units, owes " + owed;
                }
            }
            if (broke != null && examples.size() < EXAMPLES) {
                examples.add(id + ": " + broke);
            }
        }
        return new OrderAudit(orders.size(), new Money(paidNotCharged, chargedNotPaid, chargedTwice),
                new Notices(notifiedNotPaid, paidNotNotified, notifiedTwice), orderOfKey == null ? NOT_MEASURED : leaked, examples);
    }

    /** @return whether every measured figure is 0 */
    public boolean clean() {
        return money.equals(new Money(0, 0, 0)) && notices.equals(new Notices(0, 0, 0)) && reservationsLeakedOrders <= 0;
    }

    /** @return {@code audit orders=… paid_not_charged=… …}, and the first failing orders if any */
    public String line() {
        return String.format(Locale.ROOT, "audit orders=%d paid_not_charged=%d charged_not_paid=%d charged_twice=%d"
                        + " notified_not_paid=%d paid_not_notified=%d notified_twice=%d reservations_leaked_orders=%s%s",
                orders, paidNotCharged(), chargedNotPaid(), chargedTwice(), notifiedNotPaid(), paidNotNotified(), notifiedTwice(),
                MoneyEvidence.show(reservationsLeakedOrders), examples.isEmpty() ? "" : " e.g. " + String.join("; ", examples));
    }
}
