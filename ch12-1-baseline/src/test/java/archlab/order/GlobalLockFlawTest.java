package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The chapter's flaw, as a test: pay holds the table's one lock across its downstream calls, so a get
 * of a <em>different</em> order waits until the pay is done. (ch12-2's test of the same name proves
 * the opposite.)
 */
class GlobalLockFlawTest {

    private static final RequestContext CTX = RequestContext.background();

    @Test
    @DisplayName("a get issued while a pay is inside its payment call waits until that pay finishes")
    void getWaitsForPayInsidePayment() throws Exception {
        CountDownLatch insidePayment = new CountDownLatch(1);
        CountDownLatch releasePayment = new CountDownLatch(1);
        Payments payments = mock(Payments.class);
        doAnswer(inv -> {
            insidePayment.countDown();
            assertThat(releasePayment.await(30, TimeUnit.SECONDS)).as("test released the payment").isTrue();
            return null;
        }).when(payments).charge(any(), any());
        OrderService service = new OrderService(mock(Inventory.class), payments, mock(Notifier.class));
        String paying = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();
        String other = service.create(CTX, "cust", List.of(new Item("sku-b", 1, 100))).id();

        CompletableFuture<Order> pay = CompletableFuture.supplyAsync(() -> service.pay(CTX, paying));
        assertThat(insidePayment.await(30, TimeUnit.SECONDS)).as("pay reached the payment call").isTrue();

        Thread[] getter = new Thread[1];
        CompletableFuture<Order> get = new CompletableFuture<>();
        getter[0] = Thread.ofPlatform().start(() -> get.complete(service.get(CTX, other)));

        // the get parks on the lock (it would have returned in microseconds otherwise)
        awaitState(getter[0], Thread.State.WAITING, Duration.ofSeconds(30));
        assertThat(get).as("get is still waiting while pay is inside payment").isNotDone();
        assertThat(pay).isNotDone();

        releasePayment.countDown();
        assertThat(pay.get(30, TimeUnit.SECONDS).status()).isEqualTo(OrderStatus.PAID);
        assertThat(get.get(30, TimeUnit.SECONDS).id()).isEqualTo(other);
    }

    private static void awaitState(Thread t, Thread.State state, Duration limit) throws InterruptedException {
        long until = System.nanoTime() + limit.toNanos();
        while (t.getState() != state) {
            if (System.nanoTime() > until) {
                throw new AssertionError("thread never reached " + state + ", is " + t.getState());
            }
            Thread.sleep(5);
        }
    }
}
