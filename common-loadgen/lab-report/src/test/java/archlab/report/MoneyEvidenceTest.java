package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.Notification;
import archlab.request.RequestContext;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The integrity evidence measured from the stubs and an order table, on a hand-played history. */
class MoneyEvidenceTest {

    private static final RequestContext CTX = RequestContext.background();

    /**
     * o1 reserved, charged twice, notified, PAID; o2 reserved, charged, PAID, never notified; o3 reserved and
     * charged, not PAID; o4 notified twice (two message ids), never charged or PAID.
     */
    private static MoneyEvidence measured() {
        Downstream d = Downstream.instant();
        for (String id : List.of("o1", "o2", "o3")) {
            d.inventory().reserve(CTX, "sku", 1);
            d.payments().charge(CTX, ChargeRequest.withoutKey(id, 1999));
        }
        d.payments().charge(CTX, ChargeRequest.withoutKey("o1", 1999));
        d.notifier().notify(CTX, new Notification("n1", "o1"));
        d.notifier().notify(CTX, new Notification("n1", "o1")); // a redelivery: no second effect
        d.notifier().notify(CTX, new Notification("n2", "o4"));
        d.notifier().notify(CTX, new Notification("n3", "o4"));
        Set<String> paid = Set.of("o1", "o2");
        return MoneyEvidence.measure(d, List.of("o1", "o2", "o3", "o4"), paid::contains, id -> 1);
    }

    @Test
    @DisplayName("the ledger's figures: charges, distinct orders charged, double charges, charged but not PAID")
    void ledgerFigures() {
        MoneyEvidence m = measured();
        assertThat(m.charges()).isEqualTo(4);
        assertThat(m.distinctOrdersCharged()).isEqualTo(3);
        assertThat(m.doubleCharges()).isEqualTo(1);
        assertThat(m.paidOrders()).isEqualTo(2);
        assertThat(m.chargedButNotPaid()).isEqualTo(1);
    }

    @Test
    @DisplayName("PAID orders never notified, orders notified more than once (redeliveries do not count), units leaked")
    void integrityFigures() {
        MoneyEvidence m = measured();
        assertThat(m.paidButNotNotified()).isEqualTo(1);
        assertThat(m.notifiedMoreThanOnce()).isEqualTo(1);
        assertThat(m.reservationsLeaked()).isEqualTo(1);
    }

    @Test
    @DisplayName("measure leaves the reconcile figure not measured; withAfterReconcile sets it and nothing else")
    void reconcileFigure() {
        MoneyEvidence m = measured();
        assertThat(m.chargedButNotPaidAfterReconcile()).isEqualTo(MoneyEvidence.NOT_MEASURED);
        MoneyEvidence reconciled = m.withAfterReconcile(0);
        assertThat(reconciled.chargedButNotPaidAfterReconcile()).isZero();
        assertThat(reconciled.withAfterReconcile(MoneyEvidence.NOT_MEASURED)).isEqualTo(m);
    }

    @Test
    @DisplayName("the ledger-only constructor marks the other four figures not measured, shown as n/a")
    void ledgerOnlyConstructorMarksTheRestNotMeasured() {
        MoneyEvidence m = new MoneyEvidence(5, 4, 1, 3, 1);
        assertThat(List.of(m.chargedButNotPaidAfterReconcile(), m.paidButNotNotified(), m.notifiedMoreThanOnce(),
                m.reservationsLeaked())).containsOnly(MoneyEvidence.NOT_MEASURED);
        assertThat(MoneyEvidence.show(m.paidButNotNotified())).isEqualTo("n/a");
        assertThat(MoneyEvidence.show(0)).isEqualTo("0");
    }
}
