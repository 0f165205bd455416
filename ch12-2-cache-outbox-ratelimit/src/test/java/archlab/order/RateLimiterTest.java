package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import archlab.downstream.InventoryStub;
import archlab.downstream.NotifierStub;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import archlab.loadgen.RunResult;
import archlab.loadgen.Workload;
import archlab.loadgen.testing.FakeClock;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

/** The token bucket in front of pay: refuses at once, says how long to wait, admits again after that wait. */
class RateLimiterTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final List<Item> ONE_ITEM = List.of(new Item("sku-a", 1, 1999));

    private final FakeClock clock = new FakeClock();
    private final InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
    private final PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);

    private OrderServiceAssembly service(RateLimiter.Settings limit) {
        return OrderServiceAssembly.assemble(inventory, payments, new NotifierStub(StubBehaviour.INSTANT),
                OrderServiceSettings.DEFAULT.withClock(clock).withExecutor(Runnable::run).withPayLimit(limit));
    }

    @Test
    @DisplayName("an over-limit pay fails at once with a distinct RateLimitedException carrying the wait until the next token, and is admitted after that wait")
    void rejectsWithAWaitHintAndAdmitsAfterIt() {
        OrderServiceAssembly parts = service(new RateLimiter.Settings(10, 2));
        OrderService service = parts.service();
        String a = service.create(CTX, "cust", ONE_ITEM).id();
        String b = service.create(CTX, "cust", ONE_ITEM).id();
        String c = service.create(CTX, "cust", ONE_ITEM).id();
        service.pay(CTX, a);
        service.pay(CTX, b); // the burst of 2 is spent

        RateLimitedException refused = catchThrowableOfType(RateLimitedException.class, () -> service.pay(CTX, c));
        assertThat(refused).isInstanceOf(RequestRejectedException.class);
        assertThat(refused.retryAfter()).as("1 token at 10/s").isEqualTo(Duration.ofMillis(100));
        assertThat(refused.operation()).isEqualTo("pay");
        assertThat(refused).hasMessageContaining("10/s").hasMessageContaining("burst 2").hasMessageContaining("100.000ms");
        assertThat(service.get(CTX, c).status()).as("nothing changed").isEqualTo(OrderStatus.CREATED);
        assertThat(inventory.counters().calls()).as("nothing called").isEqualTo(2);
        assertThat(payments.counters().calls()).isEqualTo(2);

        clock.advance(Duration.ofMillis(99));
        RateLimitedException still = catchThrowableOfType(RateLimitedException.class, () -> service.pay(CTX, c));
        assertThat(still.retryAfter()).isEqualTo(Duration.ofMillis(1));

        clock.advance(still.retryAfter());
        assertThat(service.pay(CTX, c).status()).isEqualTo(OrderStatus.PAID);
        RateLimiter limiter = parts.payLimiter().orElseThrow();
        assertThat(limiter.admitted()).isEqualTo(3);
        assertThat(limiter.rejected()).isEqualTo(2);
    }

    @Test
    @DisplayName("after a quiet spell the bucket holds at most its burst: a long pause does not bank more than the burst")
    void aQuietSpellBanksAtMostTheBurst() {
        RateLimiter limiter = new RateLimiter("pay", new RateLimiter.Settings(10, 3), clock);
        clock.advance(Duration.ofMinutes(5));
        for (int i = 0; i < 3; i++) {
            limiter.acquire(CTX);
        }
        assertThatThrownBy(() -> limiter.acquire(CTX)).isInstanceOf(RateLimitedException.class);
        clock.advance(Duration.ofMillis(250)); // 2.5 tokens: two calls
        limiter.acquire(CTX);
        limiter.acquire(CTX);
        assertThatThrownBy(() -> limiter.acquire(CTX)).isInstanceOf(RateLimitedException.class);
    }

    @Test
    @DisplayName("create and get are never limited: a thousand of each at a standstill clock, with a pay quota of 1/s")
    void onlyPayIsLimited() {
        OrderServiceAssembly parts = service(new RateLimiter.Settings(1, 1));
        OrderService service = parts.service();
        String id = null;
        for (int i = 0; i < 1_000; i++) {
            id = service.create(CTX, "cust", ONE_ITEM).id();
            service.get(CTX, id);
        }
        service.pay(CTX, id);
        assertThat(parts.payLimiter().orElseThrow().rejected()).isZero();
    }

    @Test
    @DisplayName("the open-loop runner counts a rate-limited pay as rejected, never failed, and excludes it from latency")
    void theRunnerCountsRateLimitedAsRejected() {
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, new NotifierStub(StubBehaviour.INSTANT),
                OrderServiceSettings.DEFAULT.withPayLimit(new RateLimiter.Settings(10, 5)));
        OrderService service = parts.service();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(service.create(CTX, "cust", ONE_ITEM).id());
        }
        Workload payOnly = new Workload() {
            @Override
            public String operationOf(long sequence) {
                return "pay";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) {
                service.pay(ctx, ids.get((int) sequence - 1));
            }
        };
        LoadSpec spec = LoadSpec.book().withRate(1_000).withDuration(Duration.ofMillis(100)).withTraceEvery(0);

        RunResult run = new OpenLoopRunner().run(spec, payOnly);

        assertThat(run.offered()).isEqualTo(100);
        assertThat(run.failed()).isZero();
        assertThat(run.rejected()).isEqualTo(run.offered() - run.completed() - run.timedOut());
        // 5 banked + 10/s over the run's wall time, plus one for the token in progress
        long bound = 5 + (long) Math.ceil(10 * run.wallNanos() / 1e9) + 1;
        assertThat(run.completed()).isBetween(5L, bound);
        assertThat(run.latency().count()).as("rejected requests carry no latency").isEqualTo(run.completed() + run.timedOut());
        assertThat(parts.payLimiter().orElseThrow().rejected()).isEqualTo(run.rejected());
    }

    @Test
    @DisplayName("limiter settings refuse a rate or burst below 1 with a message naming it")
    void settingsAreValidated() {
        assertThatThrownBy(() -> new RateLimiter.Settings(0, 1)).hasMessageContaining("ratePerSecond");
        assertThatThrownBy(() -> new RateLimiter.Settings(1, 0)).hasMessageContaining("burst");
    }

    @Test
    @DisplayName("a fleet's shared bucket that cannot be reached fails closed: the pay is refused at once, nothing read, changed or called, and counted as unavailable")
    @SuppressWarnings("unchecked")
    void anUnreachableSharedBucketFailsClosed() {
        ProxyManager<String> buckets = Mockito.mock(ProxyManager.class, Mockito.RETURNS_DEEP_STUBS);
        Mockito.when(buckets.builder().build(Mockito.eq("fleet:pay"), Mockito.<Supplier<BucketConfiguration>>any())
                .tryConsumeAndReturnRemaining(1)).thenThrow(new IllegalStateException("Redis did not answer in 50 ms"));
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, new NotifierStub(StubBehaviour.INSTANT),
                OrderServiceSettings.DEFAULT.withClock(clock).withExecutor(Runnable::run)
                        .withPayLimit(new RateLimiter.Settings(50, 10))
                        .withPayBucket(new RateLimiter.SharedBucket(buckets, "fleet:pay")));
        OrderService service = parts.service();
        Order order = service.create(CTX, "cust", ONE_ITEM);

        RateLimitedException refused = catchThrowableOfType(RateLimitedException.class, () -> service.pay(CTX, order.id()));

        assertThat(refused.retryAfter()).isEqualTo(RateLimiter.UNAVAILABLE_RETRY);
        assertThat(parts.payLimiter()).hasValueSatisfying(l -> {
            assertThat(l.shared()).isTrue();
            assertThat(l.unavailable()).isEqualTo(1);
            assertThat(l.rejected()).isEqualTo(1);
            assertThat(l.admitted()).isZero();
        });
        assertThat(inventory.counters().calls()).as("inventory calls").isZero();
        assertThat(payments.counters().calls()).as("payment calls").isZero();
        assertThat(service.get(CTX, order.id()).status()).isEqualTo(OrderStatus.CREATED);
    }

    @Test
    @DisplayName("a shared bucket needs a pay limit: settings with a bucket and no limit are refused, naming both")
    void aSharedBucketNeedsAPayLimit() {
        @SuppressWarnings("unchecked")
        ProxyManager<String> buckets = Mockito.mock(ProxyManager.class);
        assertThatThrownBy(() -> OrderServiceSettings.DEFAULT.withPayLimit(null)
                .withPayBucket(new RateLimiter.SharedBucket(buckets, "fleet:pay")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a shared pay bucket needs a pay limit");
        assertThatThrownBy(() -> new RateLimiter.SharedBucket(buckets, " ")).hasMessageContaining("key must not be blank");
    }
}
