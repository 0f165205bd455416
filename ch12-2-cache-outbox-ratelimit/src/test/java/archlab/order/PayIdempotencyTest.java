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
 * more money.
 */
class PayIdempotencyTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ONE_ITEM = List.of(new Item("sku-a", 1, 1999));

    private final InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
    private final NotifierStub notifier = new NotifierStub(StubBehaviour.INSTANT);

    private OrderServiceAssembly service(Payments payments) {
        return OrderServiceAssembly.assemble(inventory, payments, notifier, OrderServiceSettings.DEFAULT.withPayLimit(null));
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
    @DisplayName("a charge the provider accepted but whose reply came after the deadline, paid again with the same key, charges once")
    void retriedChargeWithTheSameKeyChargesOnce() {
        // payment replies take 50 ms; the first pay's deadline is 1 ms away: the provider accepts, the reply is late
        PaymentsStub stub = new PaymentsStub(StubBehaviour.constant(Duration.ofMillis(50)));
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();
        FakeClock clock = new FakeClock();

        assertThatThrownBy(() -> service.pay(RequestContext.withTimeout(clock, Duration.ofMillis(1)), id))
                .isInstanceOf(DownstreamTimeoutException.class);
        assertThat(stub.ledger().charges()).as("the money moved").isEqualTo(1);
        assertThat(service.get(CTX, id).status()).as("payable again").isEqualTo(OrderStatus.CREATED);
        assertThat(inventory.reservedUnits("sku-a")).as("reservation released").isZero();
        assertThat(stub.ledger().chargedButNot(service::isPaid)).as("charged, not PAID, until the retry").isEqualTo(1);

        Order paid = service.pay(CTX, id);

        assertThat(paid.status()).isEqualTo(OrderStatus.PAID);
        assertThat(stub.ledger().charges()).as("the retry moved no money").isEqualTo(1);
        assertThat(stub.ledger().replays()).isEqualTo(1);
        assertThat(stub.ledger().chargedButNot(service::isPaid)).isZero();
        assertThat(inventory.reservedUnits("sku-a")).isEqualTo(1);
    }

    @Test
    @DisplayName("a lost reply (the provider charged, the reply never came) followed by a retry charges once and the order ends PAID")
    void lostReplyThenRetryChargesOnce() {
        PaymentsStub stub = new PaymentsStub(StubBehaviour.INSTANT, callIndex -> callIndex == 0);
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(PaymentReplyLostException.class);
        assertThat(stub.ledger().charges()).isEqualTo(1);
        assertThat(stub.findByIdempotencyKey("pay:" + id)).as("the provider knows the key").isPresent();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);

        assertThat(service.pay(CTX, id).status()).isEqualTo(OrderStatus.PAID);
        assertThat(stub.ledger().charges()).isEqualTo(1);
        assertThat(stub.ledger().doubleCharges()).isZero();
        assertThat(stub.ledger().replays()).isEqualTo(1);
        assertThat(stub.ledger().chargesFor(id)).hasSize(1);
    }

    @Test
    @DisplayName("a declined charge leaves the order CREATED and its stock released; paying again sends the same key, and the provider replays its decline: no money moves")
    void declinedThenRetriedIsDeclinedAgain() {
        // only call 0 draws a decline: call 1 would be charged, were its key new
        PaymentsStub stub = new PaymentsStub(new StubBehaviour(LatencyModel.ZERO, callIndex -> callIndex == 0));
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", ONE_ITEM).id();

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(PaymentDeclinedException.class);
        assertThat(stub.ledger().charges()).isZero();
        assertThat(inventory.reservedUnits("sku-a")).isZero();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(PaymentDeclinedException.class)
                .hasMessageContaining("replayed");
        assertThat(stub.ledger().charges()).as("the key's first answer was a decline").isZero();
        assertThat(stub.declinesReplayed()).isEqualTo(1);
        assertThat(inventory.reservedUnits("sku-a")).isZero();
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
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
        OrderServiceAssembly secondParts = service(stub);
        OrderService second = secondParts.service();
        String clash = second.create(CTX, "cust", List.of(new Item("sku-b", 1, 1000))).id();
        assertThat(clash).isEqualTo(paid.id());
        assertThatThrownBy(() -> second.pay(CTX, clash)).isInstanceOf(IdempotencyKeyConflictException.class);

        assertThat(stub.ledger().charges()).isEqualTo(1);
        assertThat(stub.ledger().replays()).isZero();
        assertThat(second.get(CTX, clash).status()).isEqualTo(OrderStatus.CREATED);
        assertThat(inventory.reservedUnits("sku-b")).isZero();
    }

    @Test
    @DisplayName("the book's stubs with 10% lost replies: every order retried until PAID is charged exactly once")
    void lostRepliesUnderRetriesNeverDoubleCharge() {
        DownstreamSettings faulty = DownstreamSettings.INSTANT.withPaymentLostReplyRate(0.10);
        PaymentsStub stub = new PaymentsStub(faulty.paymentBehaviour(), faulty.paymentLostReplies());
        OrderServiceAssembly parts = service(stub);
        OrderService service = parts.service();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ids.add(service.create(CTX, "cust", ONE_ITEM).id());
        }
        int retries = 0;
        for (String id : ids) {
            while (true) {
                try {
                    service.pay(CTX, id);
                    break;
                } catch (PaymentReplyLostException lost) {
                    retries++;
                }
            }
        }
        assertThat(retries).as("some replies were lost (seeded)").isPositive();
        assertThat(stub.ledger().charges()).isEqualTo(ids.size());
        assertThat(stub.ledger().doubleCharges()).isZero();
        assertThat(stub.ledger().chargedButNot(service::isPaid)).isZero();
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
