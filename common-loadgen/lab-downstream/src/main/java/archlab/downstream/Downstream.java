package archlab.downstream;

import java.util.Objects;

/**
 * The three downstream stubs of one run, created together from one {@link DownstreamSettings}.
 * A service takes them as the interfaces ({@link Inventory}, {@link Payments}, {@link Notifier});
 * the harness keeps the bundle to read the counters and the ledger afterwards.
 *
 * <p>Stubs count from their creation and are never reset: create a fresh bundle for every run.
 *
 * @param inventory the inventory stub
 * @param payments  the payment stub, owner of the {@link PaymentLedger}
 * @param notifier  the notifier stub
 */
public record Downstream(InventoryStub inventory, PaymentsStub payments, NotifierStub notifier) {

    public Downstream {
        Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(payments, "payments");
        Objects.requireNonNull(notifier, "notifier");
    }

    /** @return fresh stubs behaving as {@code settings} say */
    public static Downstream create(DownstreamSettings settings) {
        Objects.requireNonNull(settings, "settings");
        return new Downstream(
                new InventoryStub(settings.inventoryBehaviour()),
                new PaymentsStub(settings.paymentBehaviour(), settings.paymentLostReplies()),
                new NotifierStub(settings.notifyBehaviour()));
    }

    /** @return fresh stubs behaving as {@code settings} say, the payment provider refusing calls beyond {@code quota} */
    public static Downstream create(DownstreamSettings settings, PaymentsStub.Quota quota) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(quota, "quota");
        return new Downstream(
                new InventoryStub(settings.inventoryBehaviour()),
                new PaymentsStub(settings.paymentBehaviour(), settings.paymentLostReplies(), null, quota),
                new NotifierStub(settings.notifyBehaviour()));
    }

    /**
     * @param landing each keyed charge's latency, drawn per call: its money moves at the end of it, not on arrival
     *                ({@link PaymentsStub}'s late mode; the settings' payment latency is not used)
     * @return fresh stubs behaving as {@code settings} say, but the provider's charges landing late
     */
    public static Downstream withLateCharges(DownstreamSettings settings, LatencyModel landing) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(landing, "landing");
        return new Downstream(
                new InventoryStub(settings.inventoryBehaviour()),
                new PaymentsStub(new StubBehaviour(landing, settings.paymentBehaviour().errors()), settings.paymentLostReplies(),
                        null, null, true),
                new NotifierStub(settings.notifyBehaviour()));
    }

    /** @return fresh stubs with zero latency and no faults ({@link DownstreamSettings#INSTANT}): for unit tests */
    public static Downstream instant() {
        return create(DownstreamSettings.INSTANT);
    }

    /** @return the payment provider's books */
    public PaymentLedger ledger() {
        return payments.ledger();
    }

    /** @return a snapshot of the three stubs' counters and the ledger's headline numbers */
    public DownstreamCounts counts() {
        StubCounters inventoryCounters = inventory.counters();
        StubCounters paymentCounters = payments.counters();
        StubCounters notifyCounters = notifier.counters();
        PaymentLedger ledger = payments.ledger();
        return DownstreamCounts.builder()
                .inventoryCalls(inventoryCounters.calls())
                .paymentCalls(paymentCounters.calls())
                .notifyCalls(notifyCounters.calls())
                .injectedErrors(inventoryCounters.injectedErrors() + paymentCounters.injectedErrors()
                        + notifyCounters.injectedErrors())
                .timeouts(inventoryCounters.timeouts() + paymentCounters.timeouts() + notifyCounters.timeouts())
                .charges(ledger.charges())
                .doubleCharges(ledger.doubleCharges())
                .replays(ledger.replays())
                .redeliveries(notifier.redeliveries())
                .paymentPool(payments.pool().map(ConnectionPool::snapshot).orElse(null))
                .build();
    }
}
