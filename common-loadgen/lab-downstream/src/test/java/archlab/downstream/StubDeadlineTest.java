package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import archlab.request.DeadlineExceededException;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("Stubs honour the caller's deadline")
class StubDeadlineTest {

    private static final Duration FIVE_SECONDS = Duration.ofSeconds(5);
    /** Generous: far above 50 ms on a noisy machine, far below the 5 s latency. */
    private static final Duration WELL_BEFORE_THE_LATENCY = Duration.ofSeconds(2);

    /** One call of one stub, and a way to read its counters. */
    record StubCall(String name, Consumer<RequestContext> call, Supplier<StubCounters> counters) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> slowStubs() {
        StubBehaviour slow = StubBehaviour.constant(FIVE_SECONDS);
        InventoryStub inventory = new InventoryStub(slow);
        PaymentsStub payments = new PaymentsStub(slow);
        NotifierStub notifier = new NotifierStub(slow);
        return Stream.of(
                Arguments.of(new StubCall(InventoryStub.NAME, ctx -> inventory.reserve(ctx, "sku-1", 1), inventory::counters)),
                Arguments.of(new StubCall(PaymentsStub.NAME,
                        ctx -> payments.charge(ctx, ChargeRequest.withoutKey("o-1", 1_000)), payments::counters)),
                Arguments.of(new StubCall(NotifierStub.NAME,
                        ctx -> notifier.notify(ctx, Notification.orderPaid("o-1")), notifier::counters)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slowStubs")
    @DisplayName("a 5 s call with a 50 ms deadline ends at the deadline, well before 5 s, with DownstreamTimeoutException")
    void callEndsAtTheDeadlineWhenItPassesDuringTheDelay(StubCall stub) {
        RequestContext ctx = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofMillis(50));
        long startNanos = System.nanoTime();

        DownstreamTimeoutException timeout = catchThrowableOfType(DownstreamTimeoutException.class,
                () -> stub.call().accept(ctx));

        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        assertThat(timeout).isNotNull().isInstanceOf(DeadlineExceededException.class);
        assertThat(timeout.getMessage()).contains(stub.name() + " call #0").contains("during the reply delay");
        assertThat(timeout.passedOnArrival()).isFalse();
        assertThat(ctx.deadline().isExpired(NanoClock.SYSTEM)).as("ended at (not before) the deadline").isTrue();
        assertThat(elapsed).isLessThan(WELL_BEFORE_THE_LATENCY);
        assertThat(stub.counters().get()).isEqualTo(new StubCounters(1, 0, 0, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slowStubs")
    @DisplayName("a call arriving after its deadline is counted, then throws at once without waiting its latency")
    void callArrivingAfterTheDeadlineIsCountedAndThrowsAtOnce(StubCall stub) {
        RequestContext expired = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ZERO);
        long startNanos = System.nanoTime();

        DownstreamTimeoutException timeout = catchThrowableOfType(DownstreamTimeoutException.class,
                () -> stub.call().accept(expired));

        assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(WELL_BEFORE_THE_LATENCY);
        assertThat(timeout).isNotNull();
        assertThat(timeout.passedOnArrival()).isTrue();
        assertThat(timeout.getMessage()).contains(stub.name() + " call #0").contains("on arrival");
        assertThat(stub.counters().get()).isEqualTo(new StubCounters(1, 0, 0, 1));
    }

    @Test
    @DisplayName("on a manual clock the timeout decision is exact: latency 1 h, 1 ms left -> timeout after sleeping 1 ms")
    void timeoutDecisionUsesTheRequestClock() {
        FakeClock clock = new FakeClock();
        InventoryStub inventory = new InventoryStub(StubBehaviour.constant(Duration.ofHours(1)));

        assertThatThrownBy(() -> inventory.reserve(RequestContext.withTimeout(clock, Duration.ofMillis(1)), "sku-1", 2))
                .isInstanceOf(DownstreamTimeoutException.class);

        assertThat(inventory.counters()).isEqualTo(new StubCounters(1, 0, 0, 1));
        assertThat(inventory.reservedUnits("sku-1"))
                .as("the reservation was made before the reply timed out, and it stays")
                .isEqualTo(2);
    }

    @Test
    @DisplayName("a call whose latency fits in the time left succeeds")
    void callWithinTheDeadlineSucceeds() {
        NotifierStub notifier = new NotifierStub(StubBehaviour.constant(Duration.ofMillis(1)));

        notifier.notify(RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(30)), Notification.orderPaid("o-1"));

        assertThat(notifier.counters()).isEqualTo(new StubCounters(1, 1, 0, 0));
    }

    @Test
    @DisplayName("an interrupted delay throws DownstreamException and keeps the thread's interrupt flag set")
    void interruptedDelayRestoresTheInterruptFlag() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.constant(FIVE_SECONDS));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> inventory.reserve(RequestContext.background(), "sku-1", 1))
                    .isExactlyInstanceOf(DownstreamException.class)
                    .hasMessageContaining("inventory call #0")
                    .hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted(); // leave the test thread clean
        }
    }
}
