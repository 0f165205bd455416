package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.Inventory;
import archlab.downstream.InventoryStub;
import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.NotifierStub;
import archlab.downstream.Payments;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What 12.3 adds to pay, one fault at a time: a keyed reserve retried after an inventory error, a caller
 * answered by its deadline however slow the provider, and a breaker that fails pays fast while the provider
 * keeps timing out. The wrong way is ch12-2's (its tests stay beside these in that module): one attempt,
 * compensation inside the request, every pay paying the full timeout.
 */
class PayUnderFaultsTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ONE_ITEM = List.of(new Item("sku-a", 1, 1999));

    private final FakeClock clock = new FakeClock();
    private final NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT);

    private OrderServiceSettings onTheManualClock() {
        return OrderServiceSettings.DEFAULT.withPayLimit(null).withClock(clock).withExecutor(Runnable::run)
                .withSleeper(nanos -> clock.advance(Duration.ofNanos(nanos)));
    }

    @Test
    @DisplayName("an inventory error on the first reserve is retried with the same reservation key: pay succeeds and one unit is reserved")
    void refusedReserveIsRetried() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT.withErrors(call -> call == 0));
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier, onTheManualClock());
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThat(service.pay(CTX, id).status()).isEqualTo(OrderStatus.PAID);

        assertThat(parts.retries()).isEqualTo(1);
        assertThat(inventory.counters().calls()).isEqualTo(2);
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(1);
        assertThat(payments.ledger().charges()).isEqualTo(1);
    }

    @Test
    @DisplayName("a reserve refused on every attempt fails pay without charging; the reconciler releases whatever a late reply reserved and the order is payable again")
    void reserveThatKeepsFailingChargesNothing() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT.withErrors(call -> call < 3));
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier, onTheManualClock());
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(DownstreamException.class);
        assertThat(payments.counters().calls()).isZero();

        parts.reconciler().reconcileDue();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
        assertThat(inventory.totalReservedUnits()).isZero();
        assertThat(service.pay(CTX, id).status()).isEqualTo(OrderStatus.PAID);
    }

    @Test
    @DisplayName("a provider that never answers: pay gives up by its 200 ms deadline (real clock, generous slack), after at most 3 attempts of 80 ms, and leaves the order to the reconciler")
    void callerIsAnsweredByItsDeadline() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        PaymentsStub payments = new PaymentsStub(StubBehaviour.constant(Duration.ofSeconds(5)));
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier,
                OrderServiceSettings.DEFAULT.withPayLimit(null).withPaymentBreaker(null));
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();
        RequestContext request = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofMillis(200));

        long started = System.nanoTime();
        assertThatThrownBy(() -> service.pay(request, id)).isInstanceOf(DownstreamTimeoutException.class);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("answered by the deadline; slack for a noisy machine").isLessThan(Duration.ofMillis(200 + 150));
        assertThat(payments.counters().calls()).isBetween(2L, 3L);
        assertThat(service.get(CTX, id).status()).as("the charge may have happened").isEqualTo(OrderStatus.PAYING);
        assertThat(parts.reconciler().pending()).isEqualTo(1);
        service.close();
    }

    @Test
    @DisplayName("while the provider keeps timing out, the breaker opens and pays fail at once as rejected: nothing claimed, reserved or charged; after the open time a trial closes it again")
    void openBreakerFailsPaysFast() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        TimingOutUntilHealthy payments = new TimingOutUntilHealthy(new PaymentsStub(StubBehaviour.INSTANT));
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier,
                onTheManualClock().withRetries(OrderServiceSettings.RESERVE_RETRY,
                        new RetryPolicy(1, Duration.ZERO, Duration.ZERO, Duration.ofMillis(80), 1L)));
        OrderService service = parts.service();
        CircuitBreaker.Settings b = OrderServiceSettings.PAYMENT_BREAKER;
        for (int i = 0; i < b.minimumCalls(); i++) {
            String id = service.create(CTX, "cust", ONE_ITEM).id();
            assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(DownstreamTimeoutException.class);
        }
        assertThat(parts.paymentBreaker().orElseThrow().state()).isEqualTo(CircuitBreaker.State.OPEN);
        long reserves = inventory.counters().calls();
        String next = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, next)).isInstanceOf(CircuitOpenException.class)
                .isInstanceOf(RequestRejectedException.class);
        assertThat(service.get(CTX, next).status()).as("not claimed").isEqualTo(OrderStatus.CREATED);
        assertThat(inventory.counters().calls()).as("not reserved").isEqualTo(reserves);
        assertThat(parts.paymentBreaker().orElseThrow().rejected()).isEqualTo(1);

        clock.advance(b.openDuration());
        payments.healthy = true;
        assertThat(service.pay(CTX, next).status()).as("the trial call").isEqualTo(OrderStatus.PAID);
        assertThat(parts.paymentBreaker().orElseThrow().state()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(payments.delegate.ledger().charges()).as("only the trial charged").isEqualTo(1);
    }

    @Test
    @DisplayName("a breaker that opens while a pay is under way refuses its charge after the reserve: pay answers CircuitOpenMidPayException, not a rejection, so the runner counts it failed with its latency; nothing charged, the stock released")
    void breakerOpeningMidPayIsNotARejection() {
        InventoryStub stock = new InventoryStub(StubBehaviour.INSTANT);
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
        OrderServiceAssembly[] parts = new OrderServiceAssembly[1];
        Inventory opensTheBreakerDuringTheReserve = new Inventory() {
            @Override
            public void reserve(RequestContext ctx, String sku, int quantity) {
                stock.reserve(ctx, sku, quantity);
            }

            @Override
            public void release(RequestContext ctx, String sku, int quantity) {
                stock.release(ctx, sku, quantity);
            }

            @Override
            public void reserve(RequestContext ctx, String reservationKey, String sku, int quantity) {
                stock.reserve(ctx, reservationKey, sku, quantity);
                CircuitBreaker breaker = parts[0].paymentBreaker().orElseThrow(); // other pays' timeouts, meanwhile
                for (int i = 0; i < OrderServiceSettings.PAYMENT_BREAKER.minimumCalls(); i++) {
                    breaker.acquire();
                    breaker.record(new DownstreamTimeoutException(PaymentsStub.NAME, i, false));
                }
            }

            @Override
            public void release(RequestContext ctx, String reservationKey) {
                stock.release(ctx, reservationKey);
            }
        };
        parts[0] = OrderServiceAssembly.assemble(opensTheBreakerDuringTheReserve, payments, notifier, onTheManualClock());
        OrderService service = parts[0].service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(CircuitOpenMidPayException.class)
                .isNotInstanceOf(RequestRejectedException.class).hasCauseInstanceOf(CircuitOpenException.class)
                .hasMessageContaining(id).hasMessageContaining("nothing was charged");
        assertThat(payments.counters().calls()).as("the charge attempt was never sent").isZero();
        assertThat(stock.reservedUnits("sku-a")).as("reserved before the breaker said no").isEqualTo(1);
        assertThat(parts[0].reconciler().reconcileDue().released()).isEqualTo(1);
        assertThat(stock.reservedUnits("sku-a")).isZero();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
    }

    /** A provider whose every charge times out (an unanswered call) until {@link #healthy} is set; single-threaded use. */
    private static final class TimingOutUntilHealthy implements Payments {
        private final PaymentsStub delegate;
        private boolean healthy;

        TimingOutUntilHealthy(PaymentsStub delegate) {
            this.delegate = delegate;
        }

        @Override
        public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
            if (!healthy) {
                throw new DownstreamTimeoutException(PaymentsStub.NAME, 0, false);
            }
            return delegate.charge(ctx, request);
        }

        @Override
        public Optional<ChargeResult> findByIdempotencyKey(String key) {
            return delegate.findByIdempotencyKey(key);
        }
    }
}
