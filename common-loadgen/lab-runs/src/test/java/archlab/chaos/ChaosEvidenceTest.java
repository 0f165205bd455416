package archlab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.Notification;
import archlab.loadgen.LatencySummary;
import archlab.loadgen.LoadSpec;
import archlab.request.RequestContext;
import archlab.loadgen.RunResult;
import archlab.loadgen.RunResult.Latencies;
import archlab.loadgen.RunResult.Outcomes;
import archlab.loadgen.RunResult.Requests;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChaosEvidenceTest {

    private static final RequestContext CTX = RequestContext.background();

    private static RunResult run(long maxOverrunNanos, long unfinished, double sendLagMaxMicros) {
        LatencySummary none = LatencySummary.builder().build();
        LatencySummary lag = LatencySummary.builder().count(1).meanMicros(sendLagMaxMicros).maxMicros(sendLagMaxMicros)
                .build();
        return RunResult.builder().spec(LoadSpec.book()).requests(new Requests(1, 1, 0))
                .outcomes(new Outcomes(1, 0, 0, 0, 0))
                .unfinished(unfinished).wallNanos(1).latencies(new Latencies(none, Map.of(), lag, Map.of(), maxOverrunNanos))
                .build();
    }

    @Test
    @DisplayName("measure names every order that breaks a rule: notified other than once, notified unpaid, parked, charged unpaid; a PAID order held in the outbox is excused only while the notifier is still down")
    void measureNamesTheOrders() {
        Downstream d = Downstream.instant();
        for (String id : List.of("o-1", "o-2", "o-3", "o-4", "o-6")) {
            d.payments().charge(CTX, new ChargeRequest(id, 100, "pay:" + id));
            d.inventory().reserve(CTX, "rsv:" + id, "sku-a", 1);
        }
        d.notifier().notify(CTX, Notification.orderPaid("o-1"));
        d.notifier().notify(CTX, Notification.orderPaid("o-5"));
        Set<String> paid = Set.of("o-1", "o-2", "o-3", "o-4");
        Set<String> held = Set.of("o-2", "o-3");

        ChaosEvidence down = ChaosEvidence.measure(d, List.of("o-1", "o-2", "o-3", "o-4", "o-5", "o-6"), paid::contains,
                id -> 1, held, Set.of("o-4"), true, 0, run(2_000_000, 0, 700));
        assertThat(down.money().paidOrders()).isEqualTo(4);
        assertThat(down.delivery().heldWhileNotifierDown()).as("o-2 and o-3 held while the notifier is down").isEqualTo(2);
        assertThat(down.delivery().parked()).containsExactly("o-4");
        assertThat(down.delivery().notNotifiedOnce()).containsExactly("o-5 notified 1x, not PAID");
        assertThat(down.money().chargedNotPaid()).containsExactly("o-6");
        assertThat(down.reservationsLeaked()).as("o-6 holds a unit it is not PAID for").isEqualTo(1);
        assertThat(down.deadlines().maxOverrunNanos()).isEqualTo(2_000_000);
        assertThat(down.deadlines().sendLagMaxNanos()).isEqualTo(700_000);

        ChaosEvidence up = ChaosEvidence.measure(d, List.of("o-1", "o-2", "o-3", "o-4", "o-5", "o-6"), paid::contains,
                id -> 1, held, Set.of("o-4"), false, 0, run(0, 0, 0));
        assertThat(up.delivery().heldWhileNotifierDown()).isZero();
        assertThat(up.delivery().notNotifiedOnce()).containsExactly("o-2 PAID, notified 0x, held in the outbox",
                "o-3 PAID, notified 0x, held in the outbox", "o-5 notified 1x, not PAID");
    }
}
