package archlab.report;

import archlab.downstream.Downstream;
import archlab.downstream.PaymentLedger;
import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * What the payment ledger, the order table, the notifier and the inventory say after a run.
 * A figure a checkpoint cannot measure is {@value #NOT_MEASURED} and printed as "n/a". Built by {@link #measure}, by
 * {@link #builder()}, or from the ledger's figures alone.
 *
 * @param charges               money movements the provider accepted
 * @param distinctOrdersCharged orders charged at least once
 * @param doubleCharges         charges beyond the first per order
 * @param paidOrders            orders the service marked PAID
 * @param chargedButNotPaid     orders charged (and not refunded) that are not PAID at the end of the run:
 *                              the customer paid, the shop doesn't know
 * @param chargedButNotPaidAfterReconcile the same after the checkpoint's reconciler ran; n/a without one
 * @param paidButNotNotified    PAID orders the notifier never received (after any outbox drained)
 * @param notifiedMoreThanOnce  orders whose notification took effect more than once
 * @param reservationsLeaked    units reserved and never released beyond what the PAID orders hold
 *                              (inventory's reserved total − Σ units of PAID orders): reservations of orders
 *                              that never became PAID, and second reservations of orders that did (a retry
 *                              after a timed-out reserve); negative when more was released than reserved
 */
public record MoneyEvidence(
        long charges,
        long distinctOrdersCharged,
        long doubleCharges,
        long paidOrders,
        long chargedButNotPaid,
        long chargedButNotPaidAfterReconcile,
        long paidButNotNotified,
        long notifiedMoreThanOnce,
        long reservationsLeaked) {

    /** Marks a figure the checkpoint cannot measure. */
    public static final long NOT_MEASURED = -1;

    /** The ledger's evidence alone: the other figures not measured. */
    public MoneyEvidence(long charges, long distinctOrdersCharged, long doubleCharges, long paidOrders, long chargedButNotPaid) {
        this(charges, distinctOrdersCharged, doubleCharges, paidOrders, chargedButNotPaid,
                NOT_MEASURED, NOT_MEASURED, NOT_MEASURED, NOT_MEASURED);
    }

    /**
     * Measures everything but the reconcile figure from the stubs and the order table.
     *
     * @param downstream the run's stubs
     * @param orders     the orders that could have been paid (the workload's pay pool)
     * @param isPaid     whether an order is PAID in the order table
     * @param unitsOf    units of stock an order reserves when paid (Σ item quantities)
     */
    public static MoneyEvidence measure(Downstream downstream, Collection<String> orders, Predicate<String> isPaid,
                                        ToLongFunction<String> unitsOf) {
        PaymentLedger ledger = downstream.ledger();
        long paid = 0;
        long paidUnits = 0;
        long paidNotNotified = 0;
        long notifiedTwice = 0;
        for (String id : orders) {
            long notified = downstream.notifier().notificationsFor(id);
            if (notified > 1) {
                notifiedTwice++;
            }
            if (isPaid.test(id)) {
                paid++;
                paidUnits += unitsOf.applyAsLong(id);
                if (notified == 0) {
                    paidNotNotified++;
                }
            }
        }
        return builder()
                .charges(ledger.charges())
                .distinctOrdersCharged(ledger.distinctOrdersCharged())
                .doubleCharges(ledger.doubleCharges())
                .paidOrders(paid)
                .chargedButNotPaid(ledger.chargedButNot(isPaid))
                .paidButNotNotified(paidNotNotified)
                .notifiedMoreThanOnce(notifiedTwice)
                .reservationsLeaked(downstream.inventory().totalReservedUnits() - paidUnits)
                .build();
    }

    /** @return a builder: the ledger's figures 0, the others (reconcile, notification, stock) not measured */
    public static Builder builder() {
        return new Builder();
    }

    /** @return this evidence with the charged-but-not-PAID count measured after a reconciler ran */
    public MoneyEvidence withAfterReconcile(long chargedButNotPaidAfterReconcile) {
        return new MoneyEvidence(charges, distinctOrdersCharged, doubleCharges, paidOrders, chargedButNotPaid,
                chargedButNotPaidAfterReconcile, paidButNotNotified, notifiedMoreThanOnce, reservationsLeaked);
    }

    /** @return {@code value} as text, "n/a" when not measured */
    public static String show(long value) {
        return value == NOT_MEASURED ? "n/a" : Long.toString(value);
    }

    /** Builds a {@link MoneyEvidence} figure by figure; a ledger figure not set is 0, any other {@value #NOT_MEASURED}. Not thread-safe. */
    public static final class Builder {
        private long charges;
        private long distinctOrdersCharged;
        private long doubleCharges;
        private long paidOrders;
        private long chargedButNotPaid;
        private long chargedButNotPaidAfterReconcile = NOT_MEASURED;
        private long paidButNotNotified = NOT_MEASURED;
        private long notifiedMoreThanOnce = NOT_MEASURED;
        private long reservationsLeaked = NOT_MEASURED;

        private Builder() {
        }

        /** @see MoneyEvidence#charges() */
        public Builder charges(long n) { charges = n; return this; }

        /** @see MoneyEvidence#distinctOrdersCharged() */
        public Builder distinctOrdersCharged(long n) { distinctOrdersCharged = n; return this; }

        /** @see MoneyEvidence#doubleCharges() */
        public Builder doubleCharges(long n) { doubleCharges = n; return this; }

        /** @see MoneyEvidence#paidOrders() */
        public Builder paidOrders(long n) { paidOrders = n; return this; }

        /** @see MoneyEvidence#chargedButNotPaid() */
        public Builder chargedButNotPaid(long n) { chargedButNotPaid = n; return this; }

        /** @see MoneyEvidence#chargedButNotPaidAfterReconcile() */
        public Builder chargedButNotPaidAfterReconcile(long n) { chargedButNotPaidAfterReconcile = n; return this; }

        /** @see MoneyEvidence#paidButNotNotified() */
        public Builder paidButNotNotified(long n) { paidButNotNotified = n; return this; }

        /** @see MoneyEvidence#notifiedMoreThanOnce() */
        public Builder notifiedMoreThanOnce(long n) { notifiedMoreThanOnce = n; return this; }

        /** @see MoneyEvidence#reservationsLeaked() */
        public Builder reservationsLeaked(long n) { reservationsLeaked = n; return this; }

        /** @return the evidence */
        public MoneyEvidence build() {
            return new MoneyEvidence(charges, distinctOrdersCharged, doubleCharges, paidOrders, chargedButNotPaid,
                    chargedButNotPaidAfterReconcile, paidButNotNotified, notifiedMoreThanOnce, reservationsLeaked);
        }
    }
}
