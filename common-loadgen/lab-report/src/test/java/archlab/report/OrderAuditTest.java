package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.Downstream;
import archlab.downstream.Notification;
import archlab.request.RequestContext;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The audit per order, on hand-played books: each fault its own figure, where a global difference hides them. */
class OrderAuditTest {

    private static final RequestContext CTX = RequestContext.background();
    /** Keys as "rsv:&lt;order&gt;:&lt;claim&gt;:&lt;item&gt;": the order is the second field. */
    private static final Function<String, Optional<String>> ORDER_OF_KEY = key -> {
        String[] parts = key.split(":");
        return parts.length == 4 && parts[0].equals("rsv") ? Optional.of(parts[1]) : Optional.empty();
    };

    /** An order paid as it should be: one keyed reservation, one charge, one notification, PAID. */
    private static void paidProperly(Downstream d, String id) {
        d.inventory().reserve(CTX, "rsv:" + id + ":1:0", "sku", 1);
        d.payments().charge(CTX, new ChargeRequest(id, 1999, "pay:" + id));
        d.notifier().notify(CTX, new Notification("n-" + id, id));
    }

    @Test
    @DisplayName("orders paid as they should be audit clean, and a redelivered notification or a replayed charge is not a second one")
    void cleanBooksAuditClean() {
        Downstream d = Downstream.instant();
        paidProperly(d, "o1");
        paidProperly(d, "o2");
        d.notifier().notify(CTX, new Notification("n-o1", "o1")); // redelivery of one message id
        d.payments().charge(CTX, new ChargeRequest("o1", 1999, "pay:o1")); // replay of one key: no money moves
        OrderAudit a = OrderAudit.of(d, List.of("o1", "o2", "o3"), Set.of("o1", "o2")::contains, id -> 1, ORDER_OF_KEY);
        assertThat(a.clean()).as(a.line()).isTrue();
        assertThat(a.line()).startsWith("audit orders=3 paid_not_charged=0 charged_not_paid=0 charged_twice=0"
                + " notified_not_paid=0 paid_not_notified=0 notified_twice=0 reservations_leaked_orders=0");
    }

    @Test
    @DisplayName("a reconciler that marks an orphan PAID without asking the provider is caught: PAID with no charge standing,"
            + " though the ledger's charged-but-not-PAID count is 0")
    void paidWithoutACharge() {
        Downstream d = Downstream.instant();
        paidProperly(d, "o1");
        d.inventory().reserve(CTX, "rsv:o2:1:0", "sku", 1); // the orphan: reserved, its charge never arrived
        d.notifier().notify(CTX, new Notification("n-o2", "o2"));
        Set<String> paid = Set.of("o1", "o2");
        OrderAudit a = OrderAudit.of(d, List.of("o1", "o2"), paid::contains, id -> 1, ORDER_OF_KEY);
        assertThat(d.ledger().chargedButNot(paid::contains)).as("what the old figure saw").isZero();
        assertThat(a.paidNotCharged()).isEqualTo(1);
        assertThat(a.clean()).isFalse();
        assertThat(a.examples()).containsExactly("o2: PAID, no charge stands");
    }

    @Test
    @DisplayName("a leak and a PAID order holding no stock cancel out in the global difference, and are two orders here")
    void leaksThatCancelOut() {
        Downstream d = Downstream.instant();
        paidProperly(d, "o1");
        d.payments().charge(CTX, new ChargeRequest("o2", 1999, "pay:o2")); // PAID holding no stock
        d.notifier().notify(CTX, new Notification("n-o2", "o2"));
        d.inventory().reserve(CTX, "rsv:o3:1:0", "sku", 1); // released never: a leak of an order not PAID
        Set<String> paid = Set.of("o1", "o2");
        MoneyEvidence global = MoneyEvidence.measure(d, List.of("o1", "o2", "o3"), paid::contains, id -> 1);
        OrderAudit a = OrderAudit.of(d, List.of("o1", "o2", "o3"), paid::contains, id -> 1, ORDER_OF_KEY);
        assertThat(global.reservationsLeaked()).as("units reserved − units of PAID orders").isZero();
        assertThat(a.reservationsLeakedOrders()).isEqualTo(2);
        assertThat(a.examples()).containsExactly("o2: holds 0 units, owes 1", "o3: holds 1 units, owes 0");
    }

    @Test
    @DisplayName("a charge refunded no longer stands: a second charge refunded clears charged_twice, the only one refunded makes a PAID order paid_not_charged")
    void refundsCount() {
        Downstream d = Downstream.instant();
        paidProperly(d, "o1");
        ChargeResult extra = d.payments().charge(CTX, ChargeRequest.withoutKey("o1", 1999));
        OrderAudit twice = OrderAudit.of(d, List.of("o1"), Set.of("o1")::contains, id -> 1, ORDER_OF_KEY);
        assertThat(twice.chargedTwice()).isEqualTo(1);
        d.ledger().refund(extra.paymentId());
        assertThat(OrderAudit.of(d, List.of("o1"), Set.of("o1")::contains, id -> 1, ORDER_OF_KEY).clean()).isTrue();
        d.ledger().chargesFor("o1").forEach(c -> d.ledger().refund(c.paymentId()));
        assertThat(OrderAudit.of(d, List.of("o1"), Set.of("o1")::contains, id -> 1, ORDER_OF_KEY).paidNotCharged()).isEqualTo(1);
    }

    @Test
    @DisplayName("charged and not PAID, notified and not PAID, notified twice (two message ids), and no key mapping: reservations not measured")
    void theOtherFigures() {
        Downstream d = Downstream.instant();
        d.payments().charge(CTX, new ChargeRequest("o1", 1999, "pay:o1"));
        d.notifier().notify(CTX, new Notification("n1", "o1"));
        d.notifier().notify(CTX, new Notification("n2", "o1"));
        OrderAudit a = OrderAudit.of(d, List.of("o1"), id -> false, id -> 1, null);
        assertThat(List.of(a.chargedNotPaid(), a.notifiedNotPaid(), a.notifiedTwice())).containsExactly(1L, 1L, 1L);
        assertThat(a.reservationsLeakedOrders()).isEqualTo(OrderAudit.NOT_MEASURED);
        assertThat(a.line()).contains("reservations_leaked_orders=n/a");
    }
}
