package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * ch12-1's flaw, fixed, as a test: pay no longer holds the table's lock across its downstream calls, so
 * a get (and a create) issued while a pay is blocked inside its payment call completes while that pay is
 * still blocked. (ch12-1's test of the same name proves the opposite: there the get waits.)
 */
class GlobalLockFlawTest {

    private static final RequestContext CTX = RequestContext.background();

    @Test
    @DisplayName("a get issued while a pay is inside its payment call returns at once: it completes while the payment is still blocked")
    void getCompletesWhilePayIsInsidePayment() throws Exception {
        CountDownLatch insidePayment = new CountDownLatch(1);
        CountDownLatch releasePayment = new CountDownLatch(1);
        Payments payments = mock(Payments.class);
        doAnswer(inv -> {
            insidePayment.countDown();
            assertThat(releasePayment.await(30, TimeUnit.SECONDS)).as("test released the payment").isTrue();
            return null;
        }).when(payments).charge(any(), any());
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(mock(Inventory.class), payments, mock(Notifier.class), OrderServiceSettings.DEFAULT);
        OrderService service = parts.service();
        String paying = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();
        String other = service.create(CTX, "cust", List.of(new Item("sku-b", 1, 100))).id();

        // every call on a thread of its own: the common pool has one thread on a 2-core machine
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        CompletableFuture<Order> pay = CompletableFuture.supplyAsync(() -> service.pay(CTX, paying), threads);
        try {
            assertThat(insidePayment.await(30, TimeUnit.SECONDS)).as("pay reached the payment call").isTrue();

            // each of these would park on the lock until the payment returned, if pay still held it
            Order got = CompletableFuture.supplyAsync(() -> service.get(CTX, other), threads).get(30, TimeUnit.SECONDS);
            Order same = CompletableFuture.supplyAsync(() -> service.get(CTX, paying), threads).get(30, TimeUnit.SECONDS);
            Order created = CompletableFuture.supplyAsync(() -> service.create(CTX, "cust", List.of(new Item("sku-c", 1, 1))), threads)
                    .get(30, TimeUnit.SECONDS);

            assertThat(got.id()).isEqualTo(other);
            assertThat(same.status()).as("the paying order, read mid-pay").isEqualTo(OrderStatus.PAYING);
            assertThat(created.status()).isEqualTo(OrderStatus.CREATED);
            assertThat(pay).as("pay is still blocked inside payment").isNotDone();
        } finally {
            releasePayment.countDown();
        }
        assertThat(pay.get(30, TimeUnit.SECONDS).status()).isEqualTo(OrderStatus.PAID);
        threads.close();
    }
}
