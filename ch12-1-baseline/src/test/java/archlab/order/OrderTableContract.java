package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

import archlab.clock.NanoClock;
import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.Deadline;
import archlab.request.RequestContext;
import archlab.trace.RequestTrace;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The order table's contract ({@link OrderTable}), judged through the service that uses it, for every table: each
 * subclass hands a fresh, empty table to every test ({@link #freshTable()}).
 */
abstract class OrderTableContract {

    private static final RequestContext CTX = RequestContext.background();

    final Inventory inventory = mock(Inventory.class);
    final Payments payments = mock(Payments.class);
    final Notifier notifier = mock(Notifier.class);

    /** @return a new, empty table (ids start again at ord-000001) */
    abstract OrderTable freshTable();

    private OrderService service() {
        return new OrderService(inventory, payments, notifier, freshTable());
    }

    @Test
    @DisplayName("create, get, pay: an order is stored CREATED at version 0 with ids from ord-000001, read back item by item, and paid once to PAID at version 1")
    void createGetPay() {
        OrderService service = service();
        List<Item> items = List.of(new Item("sku-a", 2, 1999), new Item("sku-b", 3, 5));

        Order created = service.create(CTX, "cust", items);
        Order second = service.create(CTX, "other", List.of(new Item("sku-c", 1, 0)));

        assertThat(created.id()).isEqualTo("ord-000001");
        assertThat(second.id()).isEqualTo("ord-000002");
        Order read = service.get(CTX, created.id());
        assertThat(read.customerId()).isEqualTo("cust");
        assertThat(read.items()).containsExactlyElementsOf(items);
        assertThat(read.totalCents()).isEqualTo(2 * 1999 + 3 * 5);
        assertThat(read.status()).isEqualTo(OrderStatus.CREATED);
        assertThat(read.version()).isZero();
        assertThat(service.isPaid(created.id())).isFalse();

        Order paid = service.pay(CTX, created.id());

        assertThat(paid.status()).isEqualTo(OrderStatus.PAID);
        assertThat(paid.version()).isEqualTo(1);
        assertThat(service.get(CTX, created.id())).extracting(Order::status, Order::version).containsExactly(OrderStatus.PAID, 1);
        assertThat(service.isPaid(created.id())).isTrue();
        assertThat(service.get(CTX, second.id()).status()).as("the other order").isEqualTo(OrderStatus.CREATED);
    }

    @Test
    @DisplayName("paying a PAID order is invalid state: the table keeps it PAID at version 1, and no downstream is called again")
    void payingTwiceIsInvalidState() {
        OrderService service = service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();
        service.pay(CTX, id);

        assertThatThrownBy(() -> service.pay(CTX, id)).isInstanceOf(InvalidStateException.class).hasMessageContaining("PAID");

        assertThat(service.get(CTX, id)).extracting(Order::status, Order::version).containsExactly(OrderStatus.PAID, 1);
        verify(payments, times(1)).charge(any(), any());
        verify(notifier, times(1)).notify(any(), any());
    }

    @Test
    @DisplayName("an unknown or null id is not found, for get and pay, is never PAID, and touches no downstream")
    void unknownIdIsNotFound() {
        OrderService service = service();
        service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100)));

        assertThatThrownBy(() -> service.get(CTX, "ord-999999")).isInstanceOf(OrderNotFoundException.class)
                .hasMessageContaining("ord-999999");
        assertThatThrownBy(() -> service.pay(CTX, "ord-999999")).isInstanceOf(OrderNotFoundException.class);
        assertThatThrownBy(() -> service.get(CTX, null)).isInstanceOf(OrderNotFoundException.class);
        assertThatThrownBy(() -> service.get(CTX, "ord-1' OR '1'='1")).isInstanceOf(OrderNotFoundException.class);
        assertThat(service.isPaid("ord-999999")).isFalse();
        assertThat(service.isPaid(null)).isFalse();
        verifyNoInteractions(inventory, payments, notifier);
    }

    @Test
    @DisplayName("bad input changes nothing: refused orders store no row and use up no id")
    void badInputChangesNothing() {
        OrderService service = service();

        assertThatThrownBy(() -> service.create(CTX, " ", List.of(new Item("sku-a", 1, 1)))).isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of())).isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("sku-a", 0, 1)))).isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("sku-a", 1, -1)))).isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("", 1, 1)))).isInstanceOf(InvalidOrderException.class);
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("sku-a", 1, Long.MAX_VALUE), new Item("sku-b", 1, 1))))
                .isInstanceOf(InvalidOrderException.class);

        assertThatThrownBy(() -> service.get(CTX, "ord-000001")).as("no row was stored").isInstanceOf(OrderNotFoundException.class);
        assertThat(service.create(CTX, "cust", List.of(new Item("sku-a", 1, 1))).id()).as("no id was used up").isEqualTo("ord-000001");
        verifyNoInteractions(inventory, payments, notifier);
    }

    @Test
    @DisplayName("a failing downstream call inside the unit of work propagates unchanged and leaves the order CREATED, unnotified")
    void failingDownstreamLeavesTheOrderCreated() {
        OrderService service = service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();
        IllegalStateException declined = new IllegalStateException("declined");
        doThrow(declined).when(payments).charge(any(), any());

        assertThatThrownBy(() -> service.pay(CTX, id)).isSameAs(declined);

        assertThat(service.get(CTX, id)).extracting(Order::status, Order::version).containsExactly(OrderStatus.CREATED, 0);
        assertThat(service.isPaid(id)).isFalse();
        verify(notifier, never()).notify(any(), any());
    }

    @Test
    @DisplayName("the flaw is kept: a pay holds the table's lock across inventory, payment and notify (lock.held covers all three)")
    void payHoldsTheLockAcrossTheDownstreamCalls() {
        Downstream ds = Downstream.create(DownstreamSettings.BOOK.withLatencies(Duration.ofMillis(2), Duration.ofMillis(3),
                Duration.ofMillis(2)));
        OrderService service = new OrderService(ds.inventory(), ds.payments(), ds.notifier(), freshTable());
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();

        NanoClock clock = NanoClock.SYSTEM;
        RequestTrace trace = new RequestTrace(clock, clock.nanoTime());
        trace.begin(clock.nanoTime());
        service.pay(new RequestContext(1, clock.nanoTime(), Deadline.NONE, clock, trace), id);
        trace.finish(clock.nanoTime());

        long downstream = trace.selfNanos(OrderService.INVENTORY) + trace.selfNanos(OrderService.PAYMENT)
                + trace.selfNanos(OrderService.NOTIFY);
        assertThat(downstream).isGreaterThanOrEqualTo(Duration.ofMillis(7).toNanos());
        assertThat(trace.inclusiveNanos(OrderTable.LOCK_HELD)).isGreaterThanOrEqualTo(downstream);
        assertThat(segments(trace)).as("the wait for the lock is a segment of its own, before the held one")
                .containsSubsequence(OrderTable.LOCK_WAIT, OrderTable.LOCK_HELD);
    }

    private static List<String> segments(RequestTrace trace) {
        return java.util.stream.IntStream.range(0, trace.segmentCount()).mapToObj(trace::name).toList();
    }
}
