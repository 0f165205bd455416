package archlab.downstream;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * The payment provider's books: every money movement, kept apart from what the order service believes.
 * "Charged" here means the money moved; whether the service marked the order PAID is the service's
 * business, and {@link #chargedButNot(Predicate)} compares the two.
 *
 * <p>Owned and written by {@link PaymentsStub}; anyone may read it, and a reconciler may
 * {@link #refund(String) refund}. A charge is recorded the moment the provider accepts it, before the
 * reply travels back, so it is here even if the caller then timed out or the reply was lost.
 *
 * <p>Thread-safe and lock-free ({@link ConcurrentHashMap}, {@link LongAdder}). Each answer is exact once
 * the calls have ended; read while calls run, different answers may see slightly different moments.
 */
public final class PaymentLedger {

    private final ConcurrentHashMap<String, Queue<ChargeResult>> chargesByOrder = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ChargeResult> chargesByPaymentId = new ConcurrentHashMap<>();
    private final Set<String> refundedPaymentIds = ConcurrentHashMap.newKeySet();
    private final LongAdder charges = new LongAdder();
    private final LongAdder replays = new LongAdder();
    private final LongAdder totalChargedCents = new LongAdder();
    private final LongAdder refundedCents = new LongAdder();

    PaymentLedger() {
    }

    /** Records a money movement. Called by {@link PaymentsStub} when the provider accepts a charge. */
    ChargeResult recordCharge(ChargeResult charge) {
        if (charge.replayed()) {
            throw new IllegalArgumentException("a replayed result moves no money: " + charge);
        }
        chargesByPaymentId.put(charge.paymentId(), charge);
        chargesByOrder.computeIfAbsent(charge.orderId(), id -> new ConcurrentLinkedQueue<>()).add(charge);
        totalChargedCents.add(charge.amountCents());
        charges.increment();
        return charge;
    }

    /** Records a request answered from its idempotency key, which moved no money. */
    void recordReplay() {
        replays.increment();
    }

    /** @return money movements: successful charges, including those whose reply timed out or was lost */
    public long charges() {
        return charges.sum();
    }

    /** @return the number of distinct orders charged at least once */
    public long distinctOrdersCharged() {
        return chargesByOrder.size();
    }

    /**
     * @return charges beyond the first, summed over orders: &Sigma; max(0, charges &minus; 1). Counts money
     *         movements as they happened; a later refund does not lower it (see {@link #refunds()}).
     */
    public long doubleCharges() {
        return chargesByOrder.values().stream().mapToLong(c -> Math.max(0, c.size() - 1)).sum();
    }

    /** @return requests answered from their idempotency key without moving money */
    public long replays() {
        return replays.sum();
    }

    /** @return the sum of all charges, in cents, before refunds */
    public long totalChargedCents() {
        return totalChargedCents.sum();
    }

    /** @return a sorted snapshot of the ids of all orders charged at least once */
    public SortedSet<String> chargedOrderIds() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(chargesByOrder.keySet()));
    }

    /**
     * @param orderId an order
     * @return that order's charges in the order they were recorded (empty if never charged)
     */
    public List<ChargeResult> chargesFor(String orderId) {
        Queue<ChargeResult> ofOrder = chargesByOrder.get(orderId);
        return ofOrder == null ? List.of() : List.copyOf(ofOrder);
    }

    /**
     * The lesson's question: "how many customers paid for an order the service does not call PAID?"
     *
     * @param isPaid whether the service considers an order paid (say, {@code id -> store.get(id).isPaid()})
     * @return the number of distinct orders with at least one charge that is not refunded, for which
     *         {@code isPaid} is false
     */
    public long chargedButNot(Predicate<String> isPaid) {
        return ordersChargedButNot(isPaid).size();
    }

    /** @return the ids counted by {@link #chargedButNot(Predicate)}, sorted */
    public List<String> ordersChargedButNot(Predicate<String> isPaid) {
        Objects.requireNonNull(isPaid, "isPaid");
        return chargesByOrder.entrySet().stream()
                .filter(e -> e.getValue().stream().anyMatch(c -> !isRefunded(c.paymentId())))
                .map(Map.Entry::getKey)
                .filter(isPaid.negate())
                .sorted()
                .toList();
    }

    /**
     * Gives the money of one charge back, as a reconciler does for a double charge or a charge of an
     * order that never became PAID. The charge itself stays in the books ({@link #charges()},
     * {@link #doubleCharges()} do not change).
     *
     * @param paymentId the id of a recorded charge
     * @return {@code true} if refunded now, {@code false} if it was refunded before
     * @throws IllegalArgumentException if no charge has that id
     */
    public boolean refund(String paymentId) {
        ChargeResult charge = chargesByPaymentId.get(paymentId);
        if (charge == null) {
            throw new IllegalArgumentException("no charge with payment id '" + paymentId + "' to refund");
        }
        if (!refundedPaymentIds.add(paymentId)) {
            return false;
        }
        refundedCents.add(charge.amountCents());
        return true;
    }

    /** @return whether the charge {@code paymentId} was refunded */
    public boolean isRefunded(String paymentId) {
        return refundedPaymentIds.contains(paymentId);
    }

    /** @return charges refunded */
    public long refunds() {
        return refundedPaymentIds.size();
    }

    /** @return the sum of all refunds, in cents */
    public long refundedCents() {
        return refundedCents.sum();
    }

    @Override
    public String toString() {
        return "PaymentLedger[charges=" + charges() + ", distinctOrders=" + distinctOrdersCharged()
                + ", doubleCharges=" + doubleCharges() + ", replays=" + replays() + ", refunds=" + refunds() + "]";
    }
}
