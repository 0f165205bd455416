package archlab.chaos;

import archlab.downstream.Downstream;
import archlab.downstream.NotifierStub;
import archlab.loadgen.DeadlineOverrun;
import archlab.loadgen.RunResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * What one chaos run left behind, read after the checkpoint's reconcile and drain: the facts every invariant is
 * judged on ({@link ChaosVerdict}). A checkpoint builds it with {@link #measure} from its stubs, its order table and
 * its outbox; nothing here knows which checkpoint ran.
 *
 * <p>The trap it avoids: counting where it should name. "3 orders not notified" sends the reader to a debugger; the
 * order ids, next to the seed that replays the run, send them to the order.
 *
 * @param money              what the orders were charged and whether they were paid
 * @param delivery           whether every PAID order was notified exactly once
 * @param reservationsLeaked units reserved beyond what the PAID orders hold (negative: more released than reserved)
 * @param deadlines          whether callers were answered by their deadlines, and whether the machine kept up
 */
public record ChaosEvidence(Money money, Delivery delivery, long reservationsLeaked, Deadlines deadlines) {

    /**
     * What the orders were charged, after reconcile.
     *
     * @param paidOrders       orders PAID in the order table
     * @param doubleCharges    charges beyond the first per order
     * @param chargedNotPaid   orders charged (not refunded) that are not PAID, after reconcile
     * @param reconcilePending orders the reconciler still held when it stopped (0 for a checkpoint without one)
     */
    public record Money(long paidOrders, long doubleCharges, List<String> chargedNotPaid, int reconcilePending) {

        public Money {
            chargedNotPaid = List.copyOf(chargedNotPaid);
        }
    }

    /**
     * Whether every PAID order was notified exactly once.
     *
     * @param notNotifiedOnce       orders whose notification is wrong: PAID and notified other than once (unless
     *                              excused, below), or notified without being PAID; each with what was wrong
     * @param parked                PAID orders whose notification the outbox parked: a promise given up on
     * @param heldWhileNotifierDown PAID orders not notified yet, excused: their notification is pending or in flight in
     *                              the outbox and the notifier is still down at the end of the check
     */
    public record Delivery(List<String> notNotifiedOnce, List<String> parked, long heldWhileNotifierDown) {

        public Delivery {
            notNotifiedOnce = List.copyOf(notNotifiedOnce);
            parked = List.copyOf(parked);
        }
    }

    /**
     * Whether callers were answered by their deadlines, and whether the generator kept up to judge it.
     *
     * @param maxOverrunNanos the largest time a caller was answered past its deadline, ns
     * @param unfinished      requests never answered
     * @param sendLagMaxNanos the generator's worst lateness, ns: how far the machine itself fell behind
     * @param hiccupMaxNanos  the hiccup probe's longest stall, ns (0 when no probe ran)
     */
    public record Deadlines(long maxOverrunNanos, long unfinished, long sendLagMaxNanos, long hiccupMaxNanos) {

        /** @return the overrun judged against {@code bound}, by {@link DeadlineOverrun}'s rule */
        public DeadlineOverrun against(Duration bound) {
            return new DeadlineOverrun(maxOverrunNanos, sendLagMaxNanos, hiccupMaxNanos, bound.toNanos());
        }
    }

    /**
     * Reads the evidence of a run that is over: its requests answered, its reconciler and relay stopped.
     *
     * @param downstream        the run's stubs
     * @param orders            the orders that could have been paid (the workload's pay pool)
     * @param isPaid            whether an order is PAID in the order table
     * @param unitsOf           units of stock an order holds once PAID
     * @param heldOrderIds      orders whose notification is still pending or in flight in the outbox
     * @param parkedOrderIds    orders whose notification the outbox parked
     * @param notifierDownAtEnd whether the notifier is still down now, at the check
     * @param reconcilePending  orders the reconciler still holds (0 without one)
     * @param run               the load run's figures
     */
    public static ChaosEvidence measure(Downstream downstream, Collection<String> orders, Predicate<String> isPaid,
                                        ToLongFunction<String> unitsOf, Set<String> heldOrderIds, Set<String> parkedOrderIds,
                                        boolean notifierDownAtEnd, int reconcilePending, RunResult run) {
        NotifierStub notifier = downstream.notifier();
        long paid = 0;
        long paidUnits = 0;
        long held = 0;
        List<String> wrong = new ArrayList<>();
        List<String> parked = new ArrayList<>();
        for (String id : orders) {
            long notified = notifier.notificationsFor(id);
            if (!isPaid.test(id)) {
                if (notified > 0) {
                    wrong.add(id + " notified " + notified + "x, not PAID");
                }
                continue;
            }
            paid++;
            paidUnits += unitsOf.applyAsLong(id);
            if (parkedOrderIds.contains(id)) {
                parked.add(id);
            } else if (notified == 0 && notifierDownAtEnd && heldOrderIds.contains(id)) {
                held++;
            } else if (notified != 1) {
                wrong.add(id + " PAID, notified " + notified + "x" + (heldOrderIds.contains(id) ? ", held in the outbox" : ""));
            }
        }
        return new ChaosEvidence(
                new Money(paid, downstream.ledger().doubleCharges(), downstream.ledger().ordersChargedButNot(isPaid),
                        reconcilePending),
                new Delivery(wrong, parked, held),
                downstream.inventory().totalReservedUnits() - paidUnits,
                new Deadlines(run.maxOverrunNanos(), run.unfinished(), Math.round(run.sendLag().maxMicros() * 1_000),
                        run.hiccups().maxMicros() * 1_000L));
    }
}
