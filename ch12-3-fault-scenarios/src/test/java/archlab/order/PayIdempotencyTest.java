package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.IdempotencyKeyConflictException;
import archlab.downstream.InventoryStub;
import archlab.downstream.LatencyModel;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentDeclinedException;
import archlab.downstream.PaymentReplyLostException;
import archlab.downstream.Payments;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Money moves once per order: the PAYING claim stops a concurrent second pay before it reaches any
 * downstream, and the idempotency key makes every retry of a charge, after a decline, a timeout or a lost
 * reply, safe: the provider answers a repeated key with its first answer (the charge, or the decline) and moves no
 * more money. In 12.3 the
 * retries happen inside pay, and a charge left without an answer is resolved by the reconciler, not by the caller.
 * The service runs on a manual clock; retries' backoffs advance it, and background work runs on the test's thread.
 */
class PayIdempotencyTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ONE_ITEM = List.of(new Item("sku-a", 1, 1999));

    private final InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
    private final NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT);
    private final FakeClock clock = new FakeClock();

    private OrderServiceAssembly service(Payments payments) {
        return service(inventory, payments);
    }

    private OrderServiceAssembly service(InventoryStub inventory, Payments payments) {
        return OrderServiceAssembly.assemble(inventory, payments, notifier, OrderServiceSettings.DEFAULT.withPayLimit(null)
                .withClock(clock).withExecutor(Runnable::run).withSleeper(nanos -> clock.advance(Duration.ofNanos(nanos))));
    }

    @Test
    @DisplayName("a second pay of an order whose pay is inside its charge fails at once with invalid state PAYING and touches no downstream")
    void concurrentSecondPayFailsAtOnce() throws Exception {
        PaymentsStub stub = new PaymentsStub(StubBehaviour.INSTANT);
        CountDownLatch inCharge = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Payments blocking = new Payments() {
            @Override
            public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
                inCharge.countDown();
                await(release);
                return stub.charge(ctx, request);
            }

            @Override
            public Optional<ChargeResult> findByIdempotencyKey(String key) {
                return stub.findByIdempotencyKey(key);
            }
        };
        OrderServiceAssembly parts = service(blocking);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        CompletableFuture<Order> first = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> first.complete(service.pay(CTX, id)));
        try {
            assertThat(inCharge.await(30, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(() -> service.pay(CTX, id))
                    .isInstanceOf(InvalidStateException.class).hasMessageContaining("PAYING").hasMessageContaining(id);
            assertThat(inventory.counters().calls()).as("the second pay reserved nothing").isEqualTo(1);
            assertThat(stub.counters().calls()).as("and charged nothing").isZero();
        } finally {
            release.countDown();
        }
        assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(OrderStatus.PAID);
        assertThat(stub.ledger().charges()).isEqualTo(1);
    }

    @Test
    @DisplayName("32 concurrent pays of one order: exactly one succeeds, the rest are invalid state, and the order is charged once")
    void concurrentPaysOfOneOrderChargeOnce() throws Exception {
        PaymentsStub stub = new PaymentsStub(StubBehaviour.constant(Duration.ofMillis(2)));
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();
        int threads = 32;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        service.pay(CTX, id);
                        return true;
                    } catch (InvalidStateException expected) {
                        return false;
                    }
                }));
            }
            go.countDown();
            long succeeded = 0;
            for (Future<Boolean> r : results) {
                succeeded += r.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(succeeded).isEqualTo(1);
        }
        assertThat(stub.ledger().charges()).isEqualTo(1);
        assertThat(stub.ledger().doubleCharges()).isZero();
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(1);
        assertThat(parts.outbox().appended()).as("one notification").isEqualTo(1);
    }

    @Test
    @DisplayName("a charge the provider accepted but whose reply came after the deadline leaves the order PAYING, not payable; the reconciler finds the charge by its key and completes it to PAID, charged once")
    void unansweredChargeIsCompletedByTheReconciler() {
        // payment replies take 50 ms; the pay's deadline is 1 ms away: the provider accepts, the reply is late
        PaymentsStub stub = new PaymentsStub(StubBehaviour.constant(Duration.ofMillis(50)));
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(RequestContext.withTimeout(clock, Duration.ofMillis(1)), id))
                .isInstanceOf(DownstreamTimeoutException.class);
        assertThat(stub.ledger().charges()).as("the money moved").isEqualTo(1);
        assertThat(service.get(CTX, id).status()).as("unknown is not failed").isEqualTo(OrderStatus.PAYING);
        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(InvalidStateException.class).hasMessageContaining("PAYING");
        assertThat(inventory.reservedUnits("sku-a")).as("the stock stays reserved").isEqualTo(1);
        assertThat(parts.reconciler().reconcileDue().taken()).as("not asked before deadline + settle delay").isZero();

        clock.advance(Duration.ofMillis(1).plus(parts.reconciler().settings().settleDelay()));
        assertThat(parts.reconciler().reconcileDue().paid()).isEqualTo(1);

        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.PAID);
        assertThat(stub.ledger().charges()).as("no second charge").isEqualTo(1);
        assertThat(stub.ledger().chargedButNot(service::isPaid)).isZero();
        assertThat(parts.outbox().appended()).as("notified once, through the outbox").isEqualTo(1);
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(1);
        assertThat(parts.reconciler().pending()).isZero();
    }

    @Test
    @DisplayName("a lost reply (the provider charged, the reply never came) is retried inside pay with the same key: pay succeeds, charged once, replayed once")
    void lostReplyIsRetriedInsidePay() {
        PaymentsStub stub = new PaymentsStub(StubBehaviour.INSTANT, callIndex -> callIndex == 0);
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThat(service.pay(CTX, id).status()).isEqualTo(OrderStatus.PAID);

        assertThat(stub.lostReplies()).isEqualTo(1);
        assertThat(parts.retries()).isEqualTo(1);
        assertThat(stub.ledger().charges()).isEqualTo(1);
        assertThat(stub.ledger().doubleCharges()).isZero();
        assertThat(stub.ledger().replays()).isEqualTo(1);
        assertThat(stub.ledger().chargesFor(id)).hasSize(1);
    }

    @Test
    @DisplayName("a declined charge is not retried; the reconciler releases the stock by key and makes the order CREATED; paying again sends the same key, the provider replays its decline, and the second claim's stock is released too")
    void declinedThenRetriedIsDeclinedAgain() {
        // only call 0 draws a decline: call 1 would be charged, were its key new
        PaymentsStub stub = new PaymentsStub(new StubBehaviour(LatencyModel.ZERO, callIndex -> callIndex == 0));
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(PaymentDeclinedException.class);
        assertThat(stub.counters().calls()).as("a decline is an answer: no retry").isEqualTo(1);
        assertThat(stub.ledger().charges()).isZero();
        assertThat(service.get(CTX, id).status()).as("until the release is done").isEqualTo(OrderStatus.PAYING);

        assertThat(parts.reconciler().reconcileDue().released()).isEqualTo(1);
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
        assertThat(inventory.reservedUnits("sku-a")).isZero();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(PaymentDeclinedException.class)
                .hasMessageContaining("replayed");
        assertThat(stub.counters().calls()).as("the replayed decline is an answer too: no retry").isEqualTo(2);
        assertThat(stub.ledger().charges()).as("the key's first answer was a decline").isZero();
        assertThat(inventory.reservedUnits("sku-a")).as("the second claim reserved under a new key").isEqualTo(1);
        assertThat(parts.reconciler().reconcileDue().released()).isEqualTo(1);
        assertThat(inventory.reservedUnits("sku-a")).isZero();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
    }

    @Test
    @DisplayName("a lost reply, then a retry that a provider judging it afresh declines: pay answers 'outcome unknown', not 'declined', and the reconciler finds the first charge and completes the order to PAID")
    void lostReplyThenDeclinedRetryIsUnknownNotDeclined() {
        // call 0: charged, reply lost; call 1 (the retry, same key): declined by a provider that, unlike PaymentsStub,
        // judges a retry afresh instead of replaying the key's first answer. Pay must not trust the last answer.
        PaymentsStub stub = new PaymentsStub(StubBehaviour.INSTANT, callIndex -> callIndex == 0);
        Payments judgesAfresh = new Payments() {
            private int calls;

            @Override
            public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
                if (calls++ == 1) {
                    throw new PaymentDeclinedException(1, request.orderId());
                }
                return stub.charge(ctx, request);
            }

            @Override
            public Optional<ChargeResult> findByIdempotencyKey(String key) {
                return stub.findByIdempotencyKey(key);
            }
        };
        OrderServiceAssembly parts = service(judgesAfresh);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(PaymentOutcomeUnknownException.class)
                .hasCauseInstanceOf(PaymentDeclinedException.class).hasMessageContaining(id);
        assertThat(stub.ledger().charges()).as("the first attempt's money moved").isEqualTo(1);
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.PAYING);

        clock.advance(parts.reconciler().settings().settleDelay());
        assertThat(parts.reconciler().reconcileDue().paid()).isEqualTo(1);
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.PAID);
        assertThat(stub.ledger().charges()).isEqualTo(1);
    }

    @Test
    @DisplayName("reusing an order's key with a different amount is a clear error: nothing charged, nothing replayed, the order stays payable")
    void reusedKeyWithAnotherAmountIsRefused() {
        PaymentsStub stub = new PaymentsStub(StubBehaviour.INSTANT);
        OrderServiceAssembly firstParts = service(stub);
        OrderService first = firstParts.service();
        Order paid = first.pay(CTX, first.create(CTX, "cust", ONE_ITEM).id());

        assertThatThrownBy(() -> stub.charge(CTX, new ChargeRequest(paid.id(), 1000, ChargeKey.of(paid.id()))))
                .isInstanceOf(IdempotencyKeyConflictException.class).hasMessageContaining("1999").hasMessageContaining("1000");

        // a second service whose ids collide with the first's: its ord-000001 costs another amount
        InventoryStub secondInventory = new InventoryStub(StubBehaviour.INSTANT);
        OrderServiceAssembly secondParts = service(secondInventory, stub);
        OrderService second = secondParts.service();
        String clash = second.create(CTX, "cust", List.of(new Item("sku-b", 1, 1000))).id();
        assertThat(clash).isEqualTo(paid.id());
        assertThatThrownBy(() -> second.pay(CTX, clash)).isInstanceOf(IdempotencyKeyConflictException.class);

        assertThat(stub.ledger().charges()).isEqualTo(1);
        assertThat(stub.ledger().replays()).isZero();
        assertThat(secondParts.reconciler().reconcileDue().released()).as("a refusal is not retried; its stock is given back").isEqualTo(1);
        assertThat(second.get(CTX, clash).status()).isEqualTo(OrderStatus.CREATED);
        assertThat(secondInventory.reservedUnits("sku-b")).isZero();
    }

    @Test
    @DisplayName("the book's stubs with 30% lost replies: pay retries with the same key, the reconciler completes what it could not, and every order is PAID and charged exactly once")
    void lostRepliesUnderRetriesNeverDoubleCharge() {
        DownstreamSettings faulty = DownstreamSettings.INSTANT.withPaymentLostReplyRate(0.30);
        PaymentsStub stub = new PaymentsStub(faulty.paymentBehaviour(), faulty.paymentLostReplies());
        // no breaker: at 30% lost replies it would open and fail pays fast, which is its own test's lesson
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, stub, notifier, OrderServiceSettings.DEFAULT.withPayLimit(null)
                .withPaymentBreaker(null).withClock(clock).withExecutor(Runnable::run)
                .withSleeper(nanos -> clock.advance(Duration.ofNanos(nanos))));
        OrderService service = parts.service();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ids.add(service.create(CTX, "cust", ONE_ITEM).id());
        }
        int unanswered = 0;
        for (String id : ids) {
            try {
                service.pay(CTX, id);
            } catch (PaymentOutcomeUnknownException lostEveryTime) {
                assertThat(lostEveryTime).hasCauseInstanceOf(PaymentReplyLostException.class);
                unanswered++;
            }
        }
        assertThat(parts.retries()).as("some replies were lost and retried (seeded)").isPositive();
        assertThat(unanswered).as("some lost all three (0.3^3 of 200, seeded)").isPositive();
        assertThat(parts.reconciler().reconcileAll(Duration.ofSeconds(10))).isTrue();

        assertThat(parts.reconciler().completedPaid()).isEqualTo(unanswered);
        assertThat(ids).allMatch(service::isPaid);
        assertThat(stub.ledger().charges()).isEqualTo(ids.size());
        assertThat(stub.ledger().doubleCharges()).isZero();
        assertThat(stub.ledger().chargedButNot(service::isPaid)).isZero();
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(ids.size());
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
