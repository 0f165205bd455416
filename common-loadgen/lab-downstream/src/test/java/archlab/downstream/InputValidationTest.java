package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.request.RequestContext;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Bad input is an IllegalArgumentException with a clear message, and nothing is counted or charged")
class InputValidationTest {

    private static final RequestContext NO_DEADLINE = RequestContext.background();
    private final PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
    private final InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);

    private void assertNothingChargedOrCounted() {
        assertThat(payments.counters().calls()).isZero();
        assertThat(payments.ledger().charges()).isZero();
    }

    @ParameterizedTest(name = "orderId \"{0}\"")
    @ValueSource(strings = {"", " ", "\t"})
    @DisplayName("a blank order id is rejected")
    void blankOrderId(String orderId) {
        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest(orderId, 1_000, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orderId must not be blank");
        assertThatThrownBy(() -> ChargeRequest.withoutKey(null, 1_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orderId must not be blank");
        assertNothingChargedOrCounted();
    }

    @ParameterizedTest(name = "amount {0}")
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    @DisplayName("an amount of 0 or less is rejected")
    void nonPositiveAmount(long amountCents) {
        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-1", amountCents, "key-1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("amountCents must be > 0")
                .hasMessageContaining(String.valueOf(amountCents));
        assertNothingChargedOrCounted();
    }

    @ParameterizedTest(name = "key \"{0}\"")
    @ValueSource(strings = {"", "  "})
    @DisplayName("a blank idempotency key is rejected (null means no key)")
    void blankIdempotencyKey(String key) {
        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_000, key)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idempotencyKey must be null (no key) or not blank");
        assertThatThrownBy(() -> payments.findByIdempotencyKey(key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idempotencyKey must not be blank");
        assertNothingChargedOrCounted();
    }

    @ParameterizedTest(name = "quantity {0}")
    @ValueSource(ints = {0, -3})
    @DisplayName("a quantity below 1 is rejected by reserve and by release")
    void nonPositiveQuantity(int quantity) {
        assertThatThrownBy(() -> inventory.reserve(NO_DEADLINE, "sku-1", quantity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserve: quantity must be >= 1, was " + quantity);
        assertThatThrownBy(() -> inventory.release(NO_DEADLINE, "sku-1", quantity))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("release: quantity must be >= 1, was " + quantity);
        assertThat(inventory.counters().calls()).isZero();
        assertThat(inventory.reservedUnits("sku-1")).isZero();
    }

    @Test
    @DisplayName("a blank sku is rejected")
    void blankSku() {
        assertThatThrownBy(() -> inventory.reserve(NO_DEADLINE, " ", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sku must not be blank");
        assertThat(inventory.counters().calls()).isZero();
    }

    @Test
    @DisplayName("a notification with a blank message id or order id is rejected")
    void blankNotificationFields() {
        assertThatThrownBy(() -> new Notification(" ", "o-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messageId must not be blank");
        assertThatThrownBy(() -> new Notification("m-1", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orderId must not be blank");
    }

    @Test
    @DisplayName("a negative latency is rejected wherever a latency is given")
    void negativeLatency() {
        Duration negative = Duration.ofMillis(-1);
        assertThatThrownBy(() -> LatencyModel.constant(negative))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latency must not be null or negative, was PT-0.001S");
        assertThatThrownBy(() -> StubBehaviour.constant(negative))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DownstreamSettings.BOOK.withLatencies(Duration.ZERO, negative, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("paymentLatency must not be null or negative");
    }

    @Test
    @DisplayName("a latency model that returns a negative latency fails the call with IllegalStateException")
    void latencyModelReturningNegativeLatency() {
        NotifierStub notifier = new NotifierStub(new StubBehaviour(callIndex -> Duration.ofMillis(-5), ErrorInjection.NONE));

        assertThatThrownBy(() -> notifier.notify(NO_DEADLINE, Notification.orderPaid("o-1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("notifier latency model returned PT-0.005S for call #0");
    }

    @ParameterizedTest(name = "rate {0}")
    @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
    @DisplayName("an error rate outside [0, 1] is rejected")
    void rateOutsideUnitInterval(double rate) {
        assertThatThrownBy(() -> new ErrorInjection(1L, rate))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("error rate must be in [0, 1], was " + rate);
        assertThatThrownBy(() -> DownstreamSettings.BOOK.withPaymentDeclineRate(rate))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("paymentDeclineRate must be in [0, 1]");
        assertThatThrownBy(() -> DownstreamSettings.BOOK.withPaymentLostReplyRate(rate))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("paymentLostReplyRate must be in [0, 1]");
    }
}
