package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.ConnectionPool;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.ErrorInjection;
import archlab.downstream.Payments;
import archlab.downstream.PaymentsStub;
import archlab.downstream.StubBehaviour;
import archlab.loadgen.testing.FakeClock;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The bulkhead in front of payment: as many charges at once as the pool behind it has connections, and a wait for a
 * turn that ends at the caller's deadline. Deadlines are read on one fake clock; a wait for a permit is real time.
 */
class PaymentBulkheadTest {

    private static final ChargeRequest CHARGE = new ChargeRequest("ord-1", 1_000, "pay-ord-1");

    private final FakeClock clock = new FakeClock();
    /** A thread per task: these tasks block. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger sent = new AtomicInteger();
    /** The orders the provider was sent charges for, in the order they arrived. */
    private final Queue<String> sentOrders = new ConcurrentLinkedQueue<>();
    /** Payments whose charges block until {@link #release}: a provider that has slowed down. */
    private final Payments slowProvider = new Payments() {
        @Override
        public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
            sent.incrementAndGet();
            sentOrders.add(request.orderId());
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return new ChargeResult("pay-" + sent.get(), request.orderId(), request.amountCents(), false);
        }

        @Override
        public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
            return Optional.empty();
        }
    };

    @AfterEach
    void stopThreads() {
        release.countDown();
        threads.shutdownNow();
    }

    @Test
    @DisplayName("with every call busy, a charge whose deadline has passed is turned away at once: nothing sent, safe to undo, worth a retry")
    void expiredCallerIsTurnedAwayAtOnce() throws Exception {
        PaymentBulkhead bulkhead = new PaymentBulkhead(slowProvider, new PaymentBulkhead.Settings(1));
        CompletableFuture<ChargeResult> holder = holdTheOnlyCall(bulkhead);
        RequestContext late = RequestContext.withTimeout(clock, Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(250));

        assertThatThrownBy(() -> bulkhead.charge(late, CHARGE))
                .isInstanceOf(BulkheadFullException.class)
                .hasMessageContaining("payments bulkhead: all 1 calls busy")
                .hasMessageContaining("nothing sent")
                .satisfies(e -> assertThat(((DownstreamTimeoutException) e).passedOnArrival()).isTrue());
        assertThat(sent).hasValue(1);
        release.countDown();
        holder.get(5, TimeUnit.SECONDS);
        assertThat(bulkhead.turnedAway()).isEqualTo(1);
        assertThat(bulkhead.admitted()).isEqualTo(1);
        assertThat(bulkhead.waitingMax()).as("it never stood in line").isZero();
    }

    @Test
    @DisplayName("a charge with time left waits in line, and goes out when a call comes back")
    void callerWithTimeLeftWaitsItsTurn() throws Exception {
        PaymentBulkhead bulkhead = new PaymentBulkhead(slowProvider, new PaymentBulkhead.Settings(1));
        CompletableFuture<ChargeResult> holder = holdTheOnlyCall(bulkhead);
        RequestContext patient = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        CompletableFuture<ChargeResult> waiter = CompletableFuture.supplyAsync(() -> bulkhead.charge(patient, CHARGE), threads);
        awaitWaiting(bulkhead, 1);
        assertThat(sent).as("still in line").hasValue(1);
        release.countDown();
        waiter.get(5, TimeUnit.SECONDS);
        holder.get(5, TimeUnit.SECONDS);
        assertThat(sent).hasValue(2);
        assertThat(bulkhead.waited()).isEqualTo(1);
        assertThat(bulkhead.turnedAway()).isZero();
    }

    @Test
    @DisplayName("first come, first served: of two charges in line, the one that came first goes out first")
    void firstComeFirstServed() throws Exception {
        PaymentBulkhead bulkhead = new PaymentBulkhead(slowProvider, new PaymentBulkhead.Settings(1));
        CompletableFuture<ChargeResult> holder = holdTheOnlyCall(bulkhead);
        RequestContext ctx = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        CompletableFuture<ChargeResult> first = CompletableFuture.supplyAsync(
                () -> bulkhead.charge(ctx, new ChargeRequest("ord-first", 1_000, "pay-ord-first")), threads);
        awaitWaiting(bulkhead, 1);
        CompletableFuture<ChargeResult> second = CompletableFuture.supplyAsync(
                () -> bulkhead.charge(ctx, new ChargeRequest("ord-second", 1_000, "pay-ord-second")), threads);
        awaitWaiting(bulkhead, 2);
        release.countDown();
        first.get(5, TimeUnit.SECONDS);
        second.get(5, TimeUnit.SECONDS);
        holder.get(5, TimeUnit.SECONDS);
        assertThat(sentOrders).containsExactly("ord-1", "ord-first", "ord-second");
    }

    @Test
    @DisplayName("a caller stops waiting for the answer at its deadline (sent: the money may have moved), and its call keeps its turn until the provider answers")
    void callerStopsWaitingAtItsDeadline() throws Exception {
        PaymentBulkhead bulkhead = new PaymentBulkhead(slowProvider, new PaymentBulkhead.Settings(1));
        RequestContext shortOfTime = RequestContext.withTimeout(clock, Duration.ofMillis(30));

        assertThatThrownBy(() -> bulkhead.charge(shortOfTime, CHARGE))
                .isInstanceOf(PaymentBulkhead.AnswerNotInTimeException.class)
                .hasMessageContaining("no answer by the caller's deadline")
                .satisfies(e -> assertThat(DownstreamErrors.unanswered((RuntimeException) e)).as("may have charged").isTrue());
        assertThat(bulkhead.abandoned()).isEqualTo(1);
        RequestContext next = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        CompletableFuture<ChargeResult> waiter = CompletableFuture.supplyAsync(() -> bulkhead.charge(next, CHARGE), threads);
        awaitWaiting(bulkhead, 1);
        assertThat(sent).as("the abandoned call still holds its turn").hasValue(1);
        release.countDown();
        waiter.get(5, TimeUnit.SECONDS);
        assertThat(sent).hasValue(2);
    }

    @Test
    @DisplayName("sized to the pool behind it, the bulkhead keeps an expired caller out of the pool's line: the pool as shipped would have sent its charge")
    void nobodyWaitsInThePoolsLine() throws Exception {
        PaymentsStub provider = new PaymentsStub(StubBehaviour.constant(Duration.ofSeconds(1)), ErrorInjection.NONE,
                ConnectionPool.PoolSettings.shipped(1));
        PaymentBulkhead bulkhead = new PaymentBulkhead(provider, new PaymentBulkhead.Settings(1));
        RequestContext first = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(5));
        CompletableFuture<ChargeResult> holder = CompletableFuture.supplyAsync(() -> bulkhead.charge(first, CHARGE), threads);
        ConnectionPool pool = provider.pool().orElseThrow();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pool.inUse() == 0) {
            assertThat(System.nanoTime()).as("the first charge holds the connection within 5 s").isLessThan(until);
            Thread.onSpinWait();
        }
        RequestContext late = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofMillis(20));

        assertThatThrownBy(() -> bulkhead.charge(late, new ChargeRequest("ord-2", 1_000, "pay-ord-2")))
                .isInstanceOf(BulkheadFullException.class);
        holder.get(5, TimeUnit.SECONDS);
        assertThat(provider.counters().calls()).as("only the first charge reached the provider").isEqualTo(1);
        assertThat(pool.snapshot().highWater().waitingMax()).as("nobody stood in the pool's line").isZero();
    }

    @Test
    @DisplayName("a charge whose deadline has already passed is not sent, even with every call free")
    void expiredCallerIsNotSentEvenWhenFree() {
        PaymentBulkhead bulkhead = new PaymentBulkhead(slowProvider, new PaymentBulkhead.Settings(1));
        RequestContext late = RequestContext.withTimeout(clock, Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(201));

        assertThatThrownBy(() -> bulkhead.charge(late, CHARGE)).isInstanceOf(BulkheadFullException.class);
        assertThat(sent).hasValue(0);
        assertThat(bulkhead.turnedAway()).isEqualTo(1);
    }

    @Test
    @DisplayName("a caller interrupted while its charge is out leaves with 'sent, may have charged', never with a refusal that would undo the pay")
    void interruptedCallerMayHaveCharged() throws Exception {
        PaymentBulkhead bulkhead = new PaymentBulkhead(slowProvider, new PaymentBulkhead.Settings(1));
        RequestContext patient = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                bulkhead.charge(patient, CHARGE);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sent.get() == 0) {
            assertThat(System.nanoTime()).as("the charge sent within 5 s").isLessThan(until);
            Thread.onSpinWait();
        }
        caller.interrupt();
        caller.join(5_000);

        assertThat(thrown.get()).isInstanceOf(PaymentBulkhead.AnswerNotInTimeException.class)
                .satisfies(e -> assertThat(DownstreamErrors.unanswered((RuntimeException) e)).as("may have charged").isTrue());
    }

    @Test
    @DisplayName("a bulkhead needs at least one call")
    void badSettings() {
        assertThatThrownBy(() -> new PaymentBulkhead.Settings(0)).hasMessageContaining("at least 1, was 0");
    }

    /** Starts a charge on another thread that takes the bulkhead's only permit and blocks in the provider. */
    private CompletableFuture<ChargeResult> holdTheOnlyCall(PaymentBulkhead bulkhead) {
        RequestContext ctx = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        CompletableFuture<ChargeResult> f = CompletableFuture.supplyAsync(() -> bulkhead.charge(ctx, CHARGE), threads);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sent.get() == 0) {
            assertThat(System.nanoTime()).as("a charge sent within 5 s").isLessThan(until);
            Thread.onSpinWait();
        }
        return f;
    }

    private static void awaitWaiting(PaymentBulkhead bulkhead, int n) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (bulkhead.queued() < n) { // queued on the semaphore itself: the order it serves them in is fixed
            assertThat(System.nanoTime()).as("a charge in line within 5 s").isLessThan(until);
            Thread.onSpinWait();
        }
    }
}
