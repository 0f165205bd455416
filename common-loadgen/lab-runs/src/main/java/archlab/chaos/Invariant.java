package archlab.chaos;

/**
 * A promise of chapter 12.3 that must hold whatever the fault mix: the money invariants, the delivery invariant, and
 * the caller's deadline. Each has a short key for the summary lines ({@code double_charge=0}).
 */
public enum Invariant {
    /** No order is charged twice. */
    DOUBLE_CHARGE("double_charge"),
    /** After reconcile nothing is charged but not PAID, and the reconciler holds nothing. */
    CHARGED_NOT_PAID("charged_not_paid"),
    /**
     * Every PAID order is notified exactly once, or its notification is still held, visible, in the outbox while the
     * notifier is still down; nothing is parked; nothing is notified that is not PAID.
     */
    PAID_NOTIFIED_ONCE("paid_notified_once"),
    /** No stock is reserved beyond what the PAID orders hold. */
    RESERVATION_LEAKED("reservation_leaked"),
    /** Every caller is answered, and none more than the stated bound past its deadline. */
    DEADLINE_KEPT("deadline_kept");

    private final String key;

    Invariant(String key) {
        this.key = key;
    }

    /** @return the invariant's short name in the summary lines */
    public String key() {
        return key;
    }
}
