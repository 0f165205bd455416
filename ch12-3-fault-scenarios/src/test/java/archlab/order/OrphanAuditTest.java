package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.Notification;
import archlab.loadgen.testing.FakeClock;
import archlab.report.OrderAudit;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The audit per order ({@link OrderAudit}) against mutants of the reconciler, on the orphans a dead process left: the
 * reconciler as shipped leaves the books clean; one that marks every orphan PAID without asking the provider, and one
 * that never adopts, each fail it — with the figure that names their fault. The crash series print the same audit; these
 * mutants show that a zero there is evidence, not a count that cannot fail.
 */
class OrphanAuditTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final Reconciler.Settings SETTINGS = new Reconciler.Settings(Duration.ofMillis(1),
            Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMillis(5), Duration.ofMillis(40), 64);

    private final FakeClock clock = new FakeClock();
    private final Downstream books = Downstream.instant();
    private final Map<String, OrderStatus> store = new ConcurrentHashMap<>();

    /** The store's side of the reconciler: PAID commits its notification (as the relay would deliver it). */
    private final Reconciler.Resolver resolver = new Reconciler.Resolver() {
        @Override
        public boolean markPaid(String orderId) {
            if (!store.replace(orderId, OrderStatus.PAYING, OrderStatus.PAID)) {
                return false;
            }
            books.notifier().notify(CTX, Notification.orderPaid(orderId));
            return true;
        }

        @Override
        public boolean markCreated(String orderId) {
            return store.replace(orderId, OrderStatus.PAYING, OrderStatus.CREATED);
        }

        @Override
        public List<PayClaim> orphans() {
            return orphans;
        }
    };

    private List<PayClaim> orphans;

    /** Two orders a dead process left PAYING, each with its unit reserved: ord-1 charged, ord-2 not. */
    private void aProcessDiedMidPay() {
        Order charged = new Order("ord-1", "cust", List.of(new Item("sku-a", 1, 500)), 500).markPaying();
        Order notCharged = new Order("ord-2", "cust", List.of(new Item("sku-a", 1, 300)), 300).markPaying();
        orphans = List.of(PayClaim.of(charged, 1), PayClaim.of(notCharged, 1));
        for (PayClaim c : orphans) {
            store.put(c.order().id(), OrderStatus.PAYING);
            books.inventory().reserve(CTX, c.reservationKeys().get(0), "sku-a", 1);
        }
        books.payments().charge(CTX, new ChargeRequest("ord-1", 500, ChargeKey.of("ord-1")));
    }

    private OrderAudit audit() {
        return OrderAudit.of(books, List.of("ord-1", "ord-2"), id -> store.get(id) == OrderStatus.PAID, id -> 1, PayClaim::orderOf);
    }

    private void reconcileWith(Consumer<Reconciler> reconciler) {
        aProcessDiedMidPay();
        Reconciler r = new Reconciler(books.inventory(), books.payments(), clock, Runnable::run, SETTINGS, resolver);
        reconciler.accept(r);
        clock.advance(Duration.ofSeconds(1));
        r.reconcileDue();
    }

    @Test
    @DisplayName("the reconciler as shipped: the charged orphan PAID and notified, the other released and CREATED — the audit is clean")
    void asShippedTheBooksAreClean() {
        reconcileWith(Reconciler::adoptOrphans);
        assertThat(audit().clean()).as(audit().line()).isTrue();
        assertThat(store).containsEntry("ord-1", OrderStatus.PAID).containsEntry("ord-2", OrderStatus.CREATED);
    }

    @Test
    @DisplayName("a mutant that marks every orphan PAID without asking the provider fails the audit: paid_not_charged=1")
    void markingOrphansPaidWithoutAskingIsCaught() {
        reconcileWith(r -> orphans.forEach(o -> resolver.markPaid(o.order().id())));
        OrderAudit a = audit();
        assertThat(a.paidNotCharged()).as(a.line()).isEqualTo(1);
        assertThat(a.clean()).isFalse();
    }

    @Test
    @DisplayName("a mutant that never adopts fails the audit: the charged orphan charged_not_paid=1, both holding stock while not"
            + " PAID (reservations_leaked_orders=2)")
    void neverAdoptingIsCaught() {
        reconcileWith(r -> { });
        OrderAudit a = audit();
        assertThat(a.chargedNotPaid()).as(a.line()).isEqualTo(1);
        assertThat(a.reservationsLeakedOrders()).isEqualTo(2);
        assertThat(a.clean()).isFalse();
    }
}
