package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.downstream.ChargeRequest;
import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.ErrorInjection;
import archlab.downstream.Notification;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentReplyLostException;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.request.RequestContext;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A claim's faults fall on the claim's own orders: counted per order, a solution cannot use them up with calls for
 * orders no one placed (the trap of a fault chosen by the stub's global call number).
 */
class OrderFaultsTest {

    private static RequestContext deadline(Duration d) {
        return RequestContext.withTimeout(NanoClock.SYSTEM, d);
    }

    private static ChargeRequest charge(String order) {
        return new ChargeRequest(order, 100, "key-" + order);
    }

    @Test
    @DisplayName("an order's first charge is lost on its way however many charges of other orders came first, and nothing is charged for it")
    void lostRequestPerOrder() {
        PaymentsStub provider = new PaymentsStub(StubBehaviour.constant(Duration.ZERO), ErrorInjection.NONE);
        ChargesInFlight charges = new ChargesInFlight(provider, OrderFaults.lostRequests(1));
        assertThatThrownBy(() -> charges.charge(deadline(Duration.ofMillis(1)), charge("decoy"))).isInstanceOf(DownstreamTimeoutException.class);
        assertThatThrownBy(() -> charges.charge(deadline(Duration.ofMillis(1)), charge("order-1"))).isInstanceOf(DownstreamTimeoutException.class);
        assertThat(provider.ledger().chargesFor("order-1")).isEmpty();
        charges.charge(deadline(Duration.ofSeconds(1)), charge("order-1"));
        assertThat(provider.ledger().chargesFor("order-1")).hasSize(1);
    }

    @Test
    @DisplayName("an order's first charge loses its reply after the money moved; its second is answered")
    void lostReplyPerOrder() {
        PaymentsStub provider = new PaymentsStub(StubBehaviour.constant(Duration.ZERO), ErrorInjection.NONE);
        ChargesInFlight charges = new ChargesInFlight(provider, OrderFaults.lostReplies(1));
        assertThatThrownBy(() -> charges.charge(deadline(Duration.ofSeconds(1)), charge("decoy"))).isInstanceOf(PaymentReplyLostException.class);
        assertThatThrownBy(() -> charges.charge(deadline(Duration.ofSeconds(1)), charge("order-1"))).isInstanceOf(PaymentReplyLostException.class);
        assertThat(provider.ledger().chargesFor("order-1")).hasSize(1);
        assertThat(charges.charge(deadline(Duration.ofSeconds(1)), charge("order-1"))).isNotNull();
    }

    @Test
    @DisplayName("a slow first charge of an order times out at the caller's deadline with the money moved")
    void slowChargePerOrder() {
        PaymentsStub provider = new PaymentsStub(StubBehaviour.constant(Duration.ZERO), ErrorInjection.NONE);
        ChargesInFlight charges = new ChargesInFlight(provider, OrderFaults.slowCharges(1, Duration.ofSeconds(5)));
        long start = System.nanoTime();
        assertThatThrownBy(() -> charges.charge(deadline(Duration.ofMillis(20)), charge("order-1"))).isInstanceOf(DownstreamTimeoutException.class);
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the timeout").isLessThan(1_000);
        assertThat(provider.ledger().chargesFor("order-1")).hasSize(1);
    }

    @Test
    @DisplayName("an order's first notification is refused whatever other orders were notified before; nothing delivered until its retry")
    void failingNotificationsPerOrder() {
        NotifierStub stub = new NotifierStub(StubBehaviour.constant(Duration.ZERO));
        FailingNotifications notifier = new FailingNotifications(stub, 1);
        assertThatThrownBy(() -> notifier.notify(deadline(Duration.ofSeconds(1)), new Notification("m-0", "decoy")))
                .isInstanceOf(DownstreamException.class);
        assertThatThrownBy(() -> notifier.notify(deadline(Duration.ofSeconds(1)), new Notification("m-1", "order-1")))
                .isInstanceOf(DownstreamException.class);
        assertThat(stub.notificationsFor("order-1")).isZero();
        notifier.notify(deadline(Duration.ofSeconds(1)), new Notification("m-1", "order-1"));
        assertThat(stub.notificationsFor("order-1")).isEqualTo(1);
    }
}
