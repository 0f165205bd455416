package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.ConnectionPool.PoolSettings;
import archlab.loadgen.testing.RepoRoot;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The pool as Java's pools ship, on one fake clock: its own timeout for the wait and the call, the caller's deadline unseen. */
class ConnectionPoolTest {

    private static final Duration POOL_TIMEOUT = Duration.ofSeconds(30);

    private final FakeClock clock = new FakeClock();
    /** A thread per task: the common pool may have one thread on a 2-core machine, and these tasks block. */
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static ConnectionPool pool(int max) {
        return new ConnectionPool("payments", new PoolSettings(max, POOL_TIMEOUT));
    }

    @Test
    @DisplayName("the call works to the pool's own timeout from when it got its connection, not to the caller's deadline")
    void theCallGetsThePoolsTimeout() {
        RequestContext ctx = RequestContext.withTimeout(clock, Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(250));
        RequestContext call = pool(1).call(ctx, c -> c);
        assertThat(ctx.remainingNanos()).isNegative();
        assertThat(call.remainingNanos()).as("30 s of the pool's own, the caller gone 50 ms ago").isEqualTo(POOL_TIMEOUT.toNanos());
        assertThat(call.sequence()).isEqualTo(ctx.sequence());
    }

    @Test
    @DisplayName("a full pool turns a caller away only when its own timeout ends the wait: nothing sent, one wait timeout counted")
    void waitEndsAtThePoolsTimeout() throws Exception {
        ConnectionPool pool = new ConnectionPool("payments", new PoolSettings(1, Duration.ofMillis(30)));
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = holdOneConnection(pool, held, release);
        RequestContext patient = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        AtomicBoolean sent = new AtomicBoolean();

        assertThatThrownBy(() -> pool.call(patient, c -> sent.getAndSet(true)))
                .isInstanceOf(ConnectionWaitTimeoutException.class)
                .hasMessageContaining("payments pool: no connection")
                .hasMessageContaining("the pool's own 30 ms timeout")
                .satisfies(e -> assertThat(((DownstreamTimeoutException) e).passedOnArrival()).isTrue());
        assertThat(sent).isFalse();
        release.countDown();
        holder.get(5, TimeUnit.SECONDS);
        ConnectionPool.Snapshot s = pool.snapshot();
        assertThat(s.acquisitions().waitTimeouts()).isEqualTo(1);
        assertThat(s.acquisitions().acquired()).isEqualTo(1);
        assertThat(s.highWater().waitingMax()).isEqualTo(1);
    }

    @Test
    @DisplayName("a full pool as shipped keeps a caller whose deadline passed long ago in line, and sends its call when a connection comes back")
    void shippedPoolServesAnExpiredCaller() throws Exception {
        ConnectionPool pool = pool(1);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = holdOneConnection(pool, held, release);
        RequestContext late = RequestContext.withTimeout(clock, Duration.ofMillis(200));
        clock.advance(Duration.ofSeconds(1));
        AtomicBoolean sent = new AtomicBoolean();

        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> pool.call(late, c -> sent.getAndSet(true)), threads);
        awaitWaiting(pool, 1);
        assertThat(sent).as("still in line").isFalse();
        release.countDown();
        waiter.get(5, TimeUnit.SECONDS);
        holder.get(5, TimeUnit.SECONDS);

        assertThat(sent).as("sent 800 ms after its caller's deadline").isTrue();
        ConnectionPool.Snapshot s = pool.snapshot();
        assertThat(s.acquisitions().acquired()).isEqualTo(2);
        assertThat(s.acquisitions().waited()).isEqualTo(1);
        assertThat(s.acquisitions().waitTimeouts()).isZero();
        assertThat(s.highWater().inUseMax()).isEqualTo(1);
    }

    @Test
    @DisplayName("three callers on two connections: the high-water mark is 2, never 3; the third waits in line and gets the first connection back")
    void highWaterMark() throws Exception {
        ConnectionPool pool = pool(2);
        CountDownLatch held = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> a = holdOneConnection(pool, held, release);
        CompletableFuture<Void> b = holdOneConnection(pool, held, release);
        assertThat(pool.inUse()).isEqualTo(2);
        CompletableFuture<Integer> third = CompletableFuture.supplyAsync(
                () -> pool.call(RequestContext.withTimeout(clock, Duration.ofMinutes(5)), c -> pool.inUse()), threads);
        awaitWaiting(pool, 1);
        release.countDown();
        assertThat(third.get(5, TimeUnit.SECONDS)).isBetween(1, 2);
        a.get(5, TimeUnit.SECONDS);
        b.get(5, TimeUnit.SECONDS);
        assertThat(pool.snapshot().highWater().inUseMax()).isEqualTo(2);
        assertThat(pool.snapshot().acquisitions().waited()).isEqualTo(1);
        assertThat(pool.snapshot().highWater().waitingMax()).isEqualTo(1);
        assertThat(pool.inUse()).isZero();
    }

    @Test
    @DisplayName("first come, first served: of two callers in line, the one that came first gets the connection first")
    void firstComeFirstServed() throws Exception {
        ConnectionPool pool = pool(1);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = holdOneConnection(pool, held, release);
        java.util.Queue<String> order = new java.util.concurrent.ConcurrentLinkedQueue<>();
        RequestContext ctx = RequestContext.withTimeout(clock, Duration.ofMinutes(5));
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> pool.call(ctx, c -> order.add("first")), threads);
        awaitWaiting(pool, 1);
        CompletableFuture<Boolean> second = CompletableFuture.supplyAsync(() -> pool.call(ctx, c -> order.add("second")), threads);
        awaitWaiting(pool, 2);
        release.countDown();
        first.get(5, TimeUnit.SECONDS);
        second.get(5, TimeUnit.SECONDS);
        holder.get(5, TimeUnit.SECONDS);
        assertThat(order).containsExactly("first", "second");
    }

    @Test
    @DisplayName("bad settings are refused with the value named")
    void badSettings() {
        assertThatThrownBy(() -> new PoolSettings(0, POOL_TIMEOUT)).hasMessageContaining("at least 1 connection, was 0");
        assertThatThrownBy(() -> new PoolSettings(1, Duration.ZERO)).hasMessageContaining("acquisitionTimeout must be positive");
    }

    /** Takes a connection on another thread and keeps it until {@code release}. */
    private CompletableFuture<Void> holdOneConnection(ConnectionPool pool, CountDownLatch held, CountDownLatch release)
            throws InterruptedException {
        long before = held.getCount();
        CompletableFuture<Void> f = CompletableFuture.runAsync(() -> pool.call(RequestContext.withTimeout(clock, Duration.ofMinutes(5)), c -> {
            held.countDown();
            try {
                return release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }), threads);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (held.getCount() == before) {
            assertThat(f).as("the holder is still running").isNotCompletedExceptionally();
            assertThat(System.nanoTime()).as("a connection held within 5 s").isLessThan(until);
            Thread.onSpinWait();
        }
        return f;
    }

    private static void awaitWaiting(ConnectionPool pool, int n) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pool.waiting() < n) {
            assertThat(System.nanoTime()).as("a caller in line within 5 s").isLessThan(until);
            Thread.onSpinWait();
        }
    }

    @Test
    @DisplayName("a snapshot in a report's JSON has the saved report's pool fields, in the saved order")
    void snapshotJsonKeepsTheSavedShape() throws Exception {
        Path saved = RepoRoot.path()
                .resolve("book/results/ch12-1-baseline/scenario-retry-storm.json");
        String json = ReportWriter.mapper().writeValueAsString(pool(1).snapshot());
        JsonNode written = ReportWriter.mapper().readTree(json);
        JsonNode savedPool = ReportWriter.mapper().readTree(saved.toFile()).at("/downstream/paymentPool");
        assertThat(savedPool.isObject()).as("the saved report has a payment pool").isTrue();
        List<String> writtenNames = new ArrayList<>();
        List<String> savedNames = new ArrayList<>();
        written.fieldNames().forEachRemaining(writtenNames::add);
        savedPool.fieldNames().forEachRemaining(savedNames::add);
        assertThat(writtenNames).containsExactlyElementsOf(savedNames);
    }
}
