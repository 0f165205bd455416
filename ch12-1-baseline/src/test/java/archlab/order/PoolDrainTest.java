package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;

import archlab.db.LabDatabase;
import archlab.db.PoolFigures;
import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.run.testing.StoreUnderTest;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The exhausted pool, in miniature, on the lab's PostgreSQL (skipped, saying so, without one): a pool of two, a pay
 * stuck in its payment call, and three more requests. The first pay holds the row lock and one connection; the second
 * pay holds the other connection while it waits for the row lock; the third pay and a get of an unrelated order wait
 * for a connection. Everything is read from the pool's own figures (its MXBean while it happens, its tracker's
 * histogram after), not from sleeps.
 */
class PoolDrainTest {

    private static final RequestContext CTX = RequestContext.background();
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Test
    @DisplayName("waiters hold connections: with a pool of 2 and a pay stuck in payment, a second pay holds the other connection waiting for the row lock, and a third pay and a get of another order wait for a connection")
    void waitersHoldConnections() throws Exception {
        CountDownLatch insidePayment = new CountDownLatch(1);
        CountDownLatch releasePayment = new CountDownLatch(1);
        Payments payments = mock(Payments.class);
        doAnswer(inv -> {
            if (insidePayment.getCount() > 0) { // the first pay only
                insidePayment.countDown();
                assertThat(releasePayment.await(LIMIT.toSeconds(), TimeUnit.SECONDS)).as("the test released the payment").isTrue();
            }
            return null;
        }).when(payments).charge(any(), any());

        // a thread per request: the common pool has one thread on a 2-core machine, and would queue them itself
        try (LabDatabase database = LabDatabase.open(StoreUnderTest.postgres().jdbcUrl().orElseThrow(), "drain", 2);
             ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon(true).factory())) {
            OrderService service = new OrderService(mock(Inventory.class), payments, mock(Notifier.class),
                    new PostgresOrderTable(database.dataSource()));
            List<String> ids = java.util.stream.IntStream.range(0, 4)
                    .mapToObj(i -> service.create(CTX, "cust", List.of(new Item("sku-" + i, 1, 100))).id()).toList();
            database.startRun();

            CompletableFuture<Order> first = CompletableFuture.supplyAsync(() -> service.pay(CTX, ids.get(0)), threads);
            assertThat(insidePayment.await(LIMIT.toSeconds(), TimeUnit.SECONDS)).as("the first pay reached payment").isTrue();
            CompletableFuture<Order> second = CompletableFuture.supplyAsync(() -> service.pay(CTX, ids.get(1)), threads);
            await("both connections in use (the first pay's, the second's waiting for the row lock)", () -> database.activeNow() == 2);
            CompletableFuture<Order> third = CompletableFuture.supplyAsync(() -> service.pay(CTX, ids.get(2)), threads);
            CompletableFuture<Order> get = CompletableFuture.supplyAsync(() -> service.get(CTX, ids.get(3)), threads);
            await("two threads waiting for a connection", () -> database.waitingNow() == 2);
            long waitingSeen = System.nanoTime();
            await("the pool's sampler saw them", () -> database.figures().waitingMax() >= 2);
            assertThat(List.of(second, third, get)).as("nothing passes the stuck pay").noneMatch(CompletableFuture::isDone);

            long released = System.nanoTime();
            releasePayment.countDown();
            for (CompletableFuture<Order> pay : List.of(first, second, third)) {
                assertThat(pay.get(LIMIT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(OrderStatus.PAID);
            }
            assertThat(get.get(LIMIT.toSeconds(), TimeUnit.SECONDS).id()).isEqualTo(ids.get(3));
            database.endRun();

            PoolFigures pool = database.figures();
            assertThat(pool.activeMax()).as("connections in use at most").isEqualTo(2);
            assertThat(pool.waitingMax()).as("threads waiting for a connection at most").isEqualTo(2);
            assertThat(pool.connectionWaitNanos().getTotalCount()).as("borrows").isEqualTo(4);
            assertThat(pool.connectionWaitNanos().getMaxValue()).as("the longest wait for a connection, ns: from before it"
                    + " was seen waiting until after the stuck pay was released").isGreaterThanOrEqualTo(released - waitingSeen);
            assertThat(pool.timeouts()).isZero();
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("never happened within " + LIMIT.toSeconds() + " s: " + what);
            }
            Thread.sleep(1);
        }
    }
}
