package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NotifierStub: the receiver recognises redelivered messages")
class NotifierStubTest {

    private static final RequestContext NO_DEADLINE = RequestContext.background();

    @Test
    @DisplayName("a message delivered twice is recognised: counted as a redelivery, its effect happens once")
    void redeliveryIsRecognised() {
        NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT);
        Notification paid = Notification.orderPaid("o-1");

        notifier.notify(NO_DEADLINE, paid);
        notifier.notify(NO_DEADLINE, paid);

        assertThat(notifier.deliveries()).isEqualTo(2);
        assertThat(notifier.distinctMessages()).isEqualTo(1);
        assertThat(notifier.redeliveries()).isEqualTo(1);
        assertThat(notifier.notificationsFor("o-1")).isEqualTo(1);
        assertThat(notifier.ordersNotified()).isEqualTo(1);
        assertThat(notifier.duplicateNotifications()).isZero();
        assertThat(notifier.counters()).isEqualTo(new StubCounters(2, 2, 0, 0));
    }

    @Test
    @DisplayName("a message whose reply timed out was delivered, so its retry is a redelivery")
    void retryAfterTimeoutIsARedelivery() {
        FakeClock clock = new FakeClock();
        NotifierStub notifier = new NotifierStub(StubBehaviour.constant(Duration.ofMillis(5)));
        Notification paid = Notification.orderPaid("o-1");

        assertThatThrownBy(() -> notifier.notify(RequestContext.withTimeout(clock, Duration.ofMillis(1)), paid))
                .isInstanceOf(DownstreamTimeoutException.class);
        notifier.notify(NO_DEADLINE, paid);

        assertThat(notifier.redeliveries()).isEqualTo(1);
        assertThat(notifier.notificationsFor("o-1")).isEqualTo(1);
    }

    @Test
    @DisplayName("two distinct messages about one order notify the customer twice: a duplicate notification")
    void distinctMessagesForOneOrderAreDuplicates() {
        NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT);

        notifier.notify(NO_DEADLINE, new Notification("m-1", "o-1"));
        notifier.notify(NO_DEADLINE, new Notification("m-2", "o-1"));

        assertThat(notifier.notificationsFor("o-1")).isEqualTo(2);
        assertThat(notifier.duplicateNotifications()).isEqualTo(1);
        assertThat(notifier.redeliveries()).isZero();
        assertThat(notifier.notificationsFor("o-never")).isZero();
    }

    @Test
    @DisplayName("a message id reused for another order is a permanent refusal (retrying can never deliver it) and delivers nothing")
    void messageIdReusedForAnotherOrderIsRejected() {
        NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT);
        notifier.notify(NO_DEADLINE, new Notification("m-1", "o-1"));

        assertThatThrownBy(() -> notifier.notify(NO_DEADLINE, new Notification("m-1", "o-2")))
                .isInstanceOf(PermanentDeliveryException.class)
                .hasMessageContaining("permanent")
                .hasMessageContaining("m-1")
                .hasMessageContaining("o-2");

        assertThat(notifier.deliveries()).isEqualTo(1);
        assertThat(notifier.notificationsFor("o-2")).isZero();
    }

    @Test
    @DisplayName("an injected error delivers nothing and names the stub and call index")
    void injectedErrorDeliversNothing() {
        NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT.withErrors(new ErrorInjection(3L, 1.0)));

        assertThatThrownBy(() -> notifier.notify(NO_DEADLINE, Notification.orderPaid("o-1")))
                .isExactlyInstanceOf(DownstreamException.class)
                .hasMessageContaining("notifier call #0");

        assertThat(notifier.deliveries()).isZero();
        assertThat(notifier.counters()).isEqualTo(new StubCounters(1, 0, 1, 0));
    }
}
