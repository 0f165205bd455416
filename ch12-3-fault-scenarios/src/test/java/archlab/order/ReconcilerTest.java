package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.InventoryStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.request.Deadline;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The reconciler's contract, on a manual clock with every task worked on the test's thread: an unknown charge
 * is asked about only after its deadline and the settle delay, completed to PAID if the provider has the key,
 * released and made CREATED if not; a failing release is retried after a back-off until it is done.
 */
class ReconcilerTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final Reconciler.Settings SETTINGS = new Reconciler.Settings(Duration.ofMillis(1),
            Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMillis(5), Duration.ofMillis(40), 64);

    private final FakeClock clock = new FakeClock();
    private final PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
    private final RecordingResolver resolver = new RecordingResolver();

    /** Records what the reconciler asked the service to do; every order counts as PAYING until resolved once. */
    private static final class RecordingResolver implements Reconciler.Resolver {
        final Set<String> paid = ConcurrentHashMap.newKeySet();
        final Set<String> created = ConcurrentHashMap.newKeySet();
        final List<PayClaim> orphans = new java.util.ArrayList<>();

        @Override
        public boolean markPaid(String orderId) {
            return !created.contains(orderId) && paid.add(orderId);
        }

        @Override
        public boolean markCreated(String orderId) {
            return !paid.contains(orderId) && created.add(orderId);
        }

        @Override
        public List<PayClaim> orphans() {
            return List.copyOf(orphans);
        }
    }

    private Reconciler reconciler(InventoryStub inventory) {
        return new Reconciler(inventory, payments, clock, Runnable::run, SETTINGS, resolver);
    }

    @Test
    @DisplayName("orders a dead process left PAYING are adopted when the reconciler starts: charged ones completed to PAID, the others released by their claim's keys and CREATED")
    void orphansOfADeadProcessAreAdoptedAtStart() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        Order charged = new Order("ord-1", "cust", List.of(new Item("sku-a", 2, 250)), 500).markPaying();
        Order notCharged = new Order("ord-2", "cust", List.of(new Item("sku-a", 3, 100)), 300).markPaying();
        PayClaim first = PayClaim.of(charged, 1);
        PayClaim second = PayClaim.of(notCharged, 2); // its second claim: the keys carry the number the table kept
        inventory.reserve(CTX, first.reservationKeys().get(0), "sku-a", 2);
        inventory.reserve(CTX, second.reservationKeys().get(0), "sku-a", 3);
        payments.charge(CTX, new ChargeRequest("ord-1", 500, ChargeKey.of("ord-1")));
        resolver.orphans.addAll(List.of(first, second)); // then the process died
        Reconciler reconciler = reconciler(inventory);

        assertThat(reconciler.adoptOrphans()).isEqualTo(2);
        clock.advance(SETTINGS.settleDelay());
        reconciler.reconcileDue();

        assertThat(resolver.paid).containsExactly("ord-1");
        assertThat(resolver.created).containsExactly("ord-2");
        assertThat(inventory.reservedUnits("sku-a")).as("ord-1's stock kept, ord-2's released").isEqualTo(2);
        assertThat(reconciler.adopted()).isEqualTo(2);
    }

    @Test
    @DisplayName("an orphan is asked about only after the dead pay's own deadline (kept with its claim) and the settle delay: a charge"
            + " still on its way then is found, and the order is PAID, not released; asked at adoption, the provider had nothing yet")
    void anOrphanWaitsForTheDeadPaysDeadline() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        Order paying = new Order("ord-7", "cust", List.of(new Item("sku-a", 1, 400)), 400).markPaying();
        PayClaim orphan = PayClaim.of(paying, 1, Duration.ofMillis(300)); // the dead pay had 300 ms left
        inventory.reserve(CTX, orphan.reservationKeys().get(0), "sku-a", 1);
        resolver.orphans.add(orphan);
        Reconciler reconciler = reconciler(inventory);

        assertThat(reconciler.adoptOrphans()).isEqualTo(1);
        clock.advance(Duration.ofMillis(300).plus(SETTINGS.settleDelay()).minusNanos(1));
        assertThat(reconciler.reconcileDue().taken()).as("not before the dead pay's deadline and the settle delay").isZero();
        assertThat(reconciler.checked()).isZero();
        payments.charge(CTX, new ChargeRequest("ord-7", 400, ChargeKey.of("ord-7"))); // the dead pay's charge lands
        clock.advance(Duration.ofNanos(1));
        reconciler.reconcileDue();

        assertThat(resolver.paid).containsExactly("ord-7");
        assertThat(resolver.created).isEmpty();
        assertThat(inventory.reservedUnits("sku-a")).as("its stock kept").isEqualTo(1);
    }

    @Test
    @DisplayName("a charge the provider says is in progress is asked about again later, never taken for 'no charge'")
    void inProgressIsAskedAgain() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        Downstream late = Downstream.withLateCharges(archlab.downstream.DownstreamSettings.INSTANT,
                archlab.downstream.LatencyModel.constant(Duration.ofSeconds(30)));
        Order paying = new Order("ord-8", "cust", List.of(new Item("sku-a", 1, 400)), 400).markPaying();
        PayClaim claim = PayClaim.of(paying, 1);
        inventory.reserve(CTX, claim.reservationKeys().get(0), "sku-a", 1);
        assertThatThrownBy(() -> late.payments().charge(RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofMillis(5)),
                new ChargeRequest("ord-8", 400, ChargeKey.of("ord-8")))).isInstanceOf(DownstreamTimeoutException.class);
        Reconciler reconciler = new Reconciler(inventory, late.payments(), clock, Runnable::run, SETTINGS, resolver);
        reconciler.checkCharge("ord-8", claim.reservationKeys(), Deadline.after(clock, Duration.ZERO));
        clock.advance(SETTINGS.settleDelay());
        reconciler.reconcileDue();

        assertThat(resolver.created).as("not released while the charge is in progress").isEmpty();
        assertThat(resolver.paid).isEmpty();
        assertThat(reconciler.pending()).as("asked again later").isEqualTo(1);
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(1);
    }

    @Test
    @DisplayName("an unknown charge is not asked about before its deadline + settle delay; then, found by its key, the order is completed to PAID and its stock kept")
    void unknownChargeFoundIsCompletedToPaid() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        inventory.reserve(CTX, "rsv:ord-1:1:0", "sku-a", 2);
        payments.charge(CTX, new ChargeRequest("ord-1", 500, ChargeKey.of("ord-1")));
        Reconciler reconciler = reconciler(inventory);
        Deadline deadline = Deadline.after(clock, Duration.ofMillis(200));

        reconciler.checkCharge("ord-1", List.of("rsv:ord-1:1:0"), deadline);
        clock.advance(Duration.ofMillis(249));
        assertThat(reconciler.reconcileDue().taken()).as("1 ms before deadline + settle").isZero();
        assertThat(reconciler.pending()).isEqualTo(1);

        clock.advance(Duration.ofMillis(1));
        assertThat(reconciler.reconcileDue()).isEqualTo(new Reconciler.Pass(1, 1, 0, 0));

        assertThat(resolver.paid).containsExactly("ord-1");
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(2);
        assertThat(reconciler.pending()).isZero();
        assertThat(reconciler.checked()).isEqualTo(1);
        assertThat(reconciler.completedPaid()).isEqualTo(1);
    }

    @Test
    @DisplayName("an unknown charge the provider never received releases every reservation of the claim by key and makes the order CREATED")
    void unknownChargeNotFoundIsReleased() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        inventory.reserve(CTX, "rsv:ord-2:1:0", "sku-a", 1);
        inventory.reserve(CTX, "rsv:ord-2:1:1", "sku-b", 3);
        Reconciler reconciler = reconciler(inventory);

        reconciler.checkCharge("ord-2", List.of("rsv:ord-2:1:0", "rsv:ord-2:1:1"), Deadline.after(clock, Duration.ZERO));
        clock.advance(SETTINGS.settleDelay());

        assertThat(reconciler.reconcileDue()).isEqualTo(new Reconciler.Pass(1, 0, 1, 0));
        assertThat(resolver.created).containsExactly("ord-2");
        assertThat(inventory.totalReservedUnits()).isZero();
        assertThat(reconciler.released()).isEqualTo(1);
    }

    @Test
    @DisplayName("a release the inventory refuses is retried after base × 2^(n−1) back-off, not before, until it is done; the order becomes CREATED once")
    void failedReleaseIsRetriedWithBackoff() {
        // call 0 is the reserve below; releases 1 and 2 fail, 3 succeeds
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT.withErrors(call -> call == 1 || call == 2));
        inventory.reserve(CTX, "rsv:ord-3:1:0", "sku-a", 1);
        Reconciler reconciler = reconciler(inventory);

        reconciler.release("ord-3", List.of("rsv:ord-3:1:0"));
        assertThat(reconciler.reconcileDue()).isEqualTo(new Reconciler.Pass(1, 0, 0, 1));
        clock.advance(Duration.ofMillis(4));
        assertThat(reconciler.reconcileDue().taken()).as("back-off 5 ms not over").isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(reconciler.reconcileDue().retrying()).as("second failure").isEqualTo(1);
        clock.advance(Duration.ofMillis(9));
        assertThat(reconciler.reconcileDue().taken()).as("back-off 10 ms not over").isZero();
        clock.advance(Duration.ofMillis(1));
        assertThat(reconciler.reconcileDue().released()).isEqualTo(1);

        assertThat(inventory.totalReservedUnits()).isZero();
        assertThat(resolver.created).containsExactly("ord-3");
        assertThat(reconciler.releaseFailures()).isEqualTo(2);
        assertThat(reconciler.pending()).isZero();
        assertThat(reconciler.backoff(1)).isEqualTo(Duration.ofMillis(5));
        assertThat(reconciler.backoff(4)).isEqualTo(Duration.ofMillis(40));
        assertThat(reconciler.backoff(30)).as("capped").isEqualTo(Duration.ofMillis(40));
    }

    @Test
    @DisplayName("releasing a key whose reserve never arrived tombstones it: a reserve that arrives later reserves nothing")
    void releaseBeforeTheLateReserveLeaksNothing() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        Reconciler reconciler = reconciler(inventory);

        reconciler.release("ord-4", List.of("rsv:ord-4:1:0"));
        reconciler.reconcileDue();
        inventory.reserve(CTX, "rsv:ord-4:1:0", "sku-a", 1); // the late reserve

        assertThat(inventory.totalReservedUnits()).isZero();
    }

    @Test
    @DisplayName("reconcileAll works every task now, due or not (the end of a run)")
    void reconcileAllIgnoresDueTimes() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        payments.charge(CTX, new ChargeRequest("ord-5", 100, ChargeKey.of("ord-5")));
        Reconciler reconciler = reconciler(inventory);
        reconciler.checkCharge("ord-5", List.of("rsv:ord-5:1:0"), Deadline.after(clock, Duration.ofHours(1)));
        reconciler.checkCharge("ord-6", List.of("rsv:ord-6:1:0"), Deadline.after(clock, Duration.ofHours(1)));

        assertThat(reconciler.reconcileAll(Duration.ofSeconds(10))).isTrue();

        assertThat(resolver.paid).containsExactly("ord-5");
        assertThat(resolver.created).containsExactly("ord-6");
        assertThat(reconciler.pending()).isZero();
    }

    @Test
    @DisplayName("started, the reconciler resolves a due task in the background on the real clock; stopped, it leaves the rest pending")
    void backgroundLoopResolvesDueTasks() throws InterruptedException {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        Reconciler reconciler = new Reconciler(inventory, payments, NanoClock.SYSTEM, Runnable::run, SETTINGS, resolver);
        reconciler.start();
        try {
            reconciler.release("ord-7", List.of("rsv:ord-7:1:0"));
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (reconciler.pending() > 0 && System.nanoTime() - until < 0) {
                Thread.sleep(1);
            }
            assertThat(resolver.created).containsExactly("ord-7");
        } finally {
            reconciler.stop();
        }
        assertThat(reconciler.isRunning()).isFalse();
        reconciler.checkCharge("ord-8", List.of(), Deadline.NONE);
        Thread.sleep(20);
        assertThat(reconciler.pending()).as("nobody works it after stop").isEqualTo(1);
    }

    @Test
    @DisplayName("bad settings are refused with a clear error")
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new Reconciler.Settings(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1),
                Duration.ofMillis(5), Duration.ofMillis(40), 1)).hasMessageContaining("pollInterval");
        assertThatThrownBy(() -> new Reconciler.Settings(Duration.ofMillis(1), Duration.ofMillis(-1), Duration.ofSeconds(1),
                Duration.ofMillis(5), Duration.ofMillis(40), 1)).hasMessageContaining("settleDelay");
        assertThatThrownBy(() -> new Reconciler.Settings(Duration.ofMillis(1), Duration.ZERO, Duration.ofSeconds(1),
                Duration.ofMillis(50), Duration.ofMillis(40), 1)).hasMessageContaining("shorter");
        assertThatThrownBy(() -> new Reconciler.Settings(Duration.ofMillis(1), Duration.ZERO, Duration.ofSeconds(1),
                Duration.ofMillis(5), Duration.ofMillis(40), 0)).hasMessageContaining("batchSize");
    }
}
