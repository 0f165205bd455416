package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import archlab.request.RequestContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Downstream: the three stubs of a run, built from one settings record")
class DownstreamTest {

    private static final RequestContext NO_DEADLINE = RequestContext.background();

    @Test
    @DisplayName("BOOK settings are the book's latencies: inventory 2 ms, payment 4 ms, notify 2 ms, no faults")
    void bookSettings() {
        DownstreamSettings book = DownstreamSettings.BOOK;

        assertThat(book.inventoryBehaviour().latency().latencyOf(0)).isEqualTo(Duration.ofMillis(2));
        assertThat(book.paymentBehaviour().latency().latencyOf(0)).isEqualTo(Duration.ofMillis(4));
        assertThat(book.notifyBehaviour().latency().latencyOf(0)).isEqualTo(Duration.ofMillis(2));
        assertThat(((ErrorInjection) book.paymentBehaviour().errors()).rate()).isZero();
        assertThat(book.paymentLostReplies().rate()).isZero();
    }

    @Test
    @DisplayName("counts() adds up one pay flow: two reservations, one charge, one notification")
    void countsOfOnePayFlow() {
        Downstream downstream = Downstream.instant();

        downstream.inventory().reserve(NO_DEADLINE, "sku-1", 1);
        downstream.inventory().reserve(NO_DEADLINE, "sku-2", 2);
        downstream.payments().charge(NO_DEADLINE, ChargeRequest.withoutKey("o-1", 2_500));
        downstream.notifier().notify(NO_DEADLINE, Notification.orderPaid("o-1"));

        DownstreamCounts counts = downstream.counts();
        assertThat(counts)
                .isEqualTo(DownstreamCounts.builder().inventoryCalls(2).paymentCalls(1).notifyCalls(1).charges(1).build());
        assertThat(counts.reportLine()).startsWith("downstream inventory=2 payment=1 notify=1 ");
        assertThat(downstream.ledger().chargedOrderIds()).containsExactly("o-1");
    }

    @Test
    @DisplayName("two bundles from the same settings fail the same calls; declines and lost replies fail unrelated calls")
    void faultsRepeatAcrossRunsAndStreamsAreIndependent() {
        DownstreamSettings settings = DownstreamSettings.INSTANT.withPaymentDeclineRate(0.5).withPaymentLostReplyRate(0.5);

        List<String> firstRun = outcomes(Downstream.create(settings), 2_000);
        List<String> secondRun = outcomes(Downstream.create(settings), 2_000);
        assertThat(secondRun).isEqualTo(firstRun);

        FaultModel declines = settings.paymentBehaviour().errors();
        ErrorInjection lostReplies = settings.paymentLostReplies();
        int n = 100_000;
        int both = 0;
        for (long i = 0; i < n; i++) {
            if (declines.failsCall(i) && lostReplies.failsCall(i)) {
                both++;
            }
        }
        assertThat((double) both / n).as("independent streams overlap on about 0.5 * 0.5 of calls")
                .isBetween(0.23, 0.27);
    }

    private static List<String> outcomes(Downstream downstream, int calls) {
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            Throwable t = catchThrowable(() -> downstream.payments().charge(NO_DEADLINE, ChargeRequest.withoutKey("o-1", 100)));
            outcomes.add(t == null ? "ok" : t.getClass().getSimpleName());
        }
        assertThat(outcomes).contains("ok", "PaymentDeclinedException", "PaymentReplyLostException");
        return outcomes;
    }
}
