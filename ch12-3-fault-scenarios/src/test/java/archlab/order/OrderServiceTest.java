package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

import archlab.downstream.ChargeRequest;
import archlab.downstream.Inventory;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** The service's contract: what create, get and pay promise, in this checkpoint and the next. */
@ExtendWith(MockitoExtension.class)
class OrderServiceTest {

    private static final RequestContext CTX = RequestContext.background();

    @Mock
    Inventory inventory;
    @Mock
    Payments payments;
    @Mock
    Notifier notifier;

    private OrderServiceAssembly service() {
        return OrderServiceAssembly.assemble(inventory, payments, notifier, OrderServiceSettings.DEFAULT);
    }

    @Test
    @DisplayName("create totals Σ quantity × unit price in cents, starts CREATED at version 0 with id ord-000001")
    void createComputesTheTotal() {
        Order order = service().service().create(CTX, "cust", List.of(new Item("sku-a", 2, 1999), new Item("sku-b", 3, 5)));

        assertThat(order.totalCents()).isEqualTo(2 * 1999 + 3 * 5);
        assertThat(order.status()).isEqualTo(OrderStatus.CREATED);
        assertThat(order.version()).isZero();
        assertThat(order.id()).isEqualTo("ord-000001");
        assertThat(order.customerId()).isEqualTo("cust");
    }

    @Test
    @DisplayName("a returned order is an immutable snapshot: its items cannot be changed, and a later pay does not change it")
    void returnedOrdersAreImmutableSnapshots() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();
        Order created = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100)));

        assertThatThrownBy(() -> created.items().clear()).isInstanceOf(UnsupportedOperationException.class);
        Order changedCopy = created.markPaid();
        assertThat(service.get(CTX, created.id()).status()).as("a changed snapshot is not the table's").isEqualTo(OrderStatus.CREATED);

        service.pay(CTX, created.id());
        assertThat(created.status()).as("the snapshot the caller holds").isEqualTo(OrderStatus.CREATED);
        assertThat(changedCopy.version()).isEqualTo(1);
        assertThat(service.get(CTX, created.id()).items()).containsExactly(new Item("sku-a", 1, 100));
    }

    @Test
    @DisplayName("pay moves CREATED → PAID and bumps the version to 1")
    void payMarksPaidAndBumpsVersion() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();

        Order paid = service.pay(CTX, id);

        assertThat(paid.status()).isEqualTo(OrderStatus.PAID);
        assertThat(paid.version()).isEqualTo(1);
        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.PAID);
        assertThat(service.isPaid(id)).isTrue();
    }

    @Test
    @DisplayName("paying a PAID order is invalid state and calls no downstream again")
    void payingTwiceIsInvalidState() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();
        service.pay(CTX, id);

        assertThatThrownBy(() -> service.pay(CTX, id))
                .isInstanceOf(InvalidStateException.class)
                .hasMessageContaining("invalid state").hasMessageContaining(id).hasMessageContaining("PAID");
        verify(payments, org.mockito.Mockito.times(1)).charge(any(), any());
        verify(inventory, org.mockito.Mockito.times(1)).reserve(any(), anyString(), anyString(), anyInt());
    }

    @Test
    @DisplayName("pay calls inventory once per item, each with a reservation key of its own, then payment with the total and the order's idempotency key; notify is left to the outbox")
    void downstreamCallOrder() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100), new Item("sku-b", 2, 50))).id();

        service.pay(CTX, id);

        InOrder order = inOrder(inventory, payments, notifier);
        order.verify(inventory).reserve(any(), eq("rsv:" + id + ":1:0"), eq("sku-a"), eq(1));
        order.verify(inventory).reserve(any(), eq("rsv:" + id + ":1:1"), eq("sku-b"), eq(2));
        order.verify(payments).charge(any(), eq(new ChargeRequest(id, 200, "pay:" + id)));
        order.verifyNoMoreInteractions();
        verifyNoInteractions(notifier);
        assertThat(parts.outbox().entry(Notification.orderPaid(id).messageId())).as("recorded with PAID").isPresent();

        parts.relay().deliverDue();
        verify(notifier).notify(any(), eq(Notification.orderPaid(id)));
    }

    @Test
    @DisplayName("a failing charge hands the order to the reconciler, which releases its reservation by key and returns it to CREATED; no notification")
    void failedChargeLeavesOrderCreated() {
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier, OrderServiceSettings.DEFAULT.withExecutor(Runnable::run));
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();
        org.mockito.Mockito.doThrow(new IllegalStateException("declined")).when(payments).charge(any(), any());

        assertThatThrownBy(() -> service.pay(CTX, id)).hasMessageContaining("declined");
        assertThat(service.get(CTX, id).status()).as("the caller is answered before the release").isEqualTo(OrderStatus.PAYING);
        verify(inventory, never()).release(any(), anyString());

        parts.reconciler().reconcileDue();

        assertThat(service.get(CTX, id).status()).isEqualTo(OrderStatus.CREATED);
        verify(inventory).release(any(), eq("rsv:" + id + ":1:0"));
        assertThat(parts.outbox().appended()).isZero();
        verify(notifier, never()).notify(any(), any(Notification.class));
    }

    @Test
    @DisplayName("bad input gets a clear error and changes nothing: blank customer, no items, quantity ≤ 0, negative price, blank SKU, overflowing total")
    void badInputIsRefusedAndChangesNothing() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();

        assertThatThrownBy(() -> service.create(CTX, " ", List.of(new Item("sku-a", 1, 1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("customer");
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of()))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("at least one item");
        assertThatThrownBy(() -> service.create(CTX, "cust", null))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("at least one item");
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("sku-a", 0, 1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("quantity");
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("sku-a", -3, 1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("quantity");
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("sku-a", 1, -1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> service.create(CTX, "cust", List.of(new Item("", 1, 1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("SKU");
        assertThatThrownBy(() -> service.create(CTX, "cust",
                List.of(new Item("sku-a", 2, Long.MAX_VALUE / 2 + 1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("overflows");
        assertThatThrownBy(() -> service.create(CTX, "cust",
                List.of(new Item("sku-a", 1, Long.MAX_VALUE), new Item("sku-b", 1, 1))))
                .isInstanceOf(InvalidOrderException.class).hasMessageContaining("overflows");

        // nothing was stored and no id was used up
        assertThat(service.create(CTX, "cust", List.of(new Item("sku-a", 1, 1))).id()).isEqualTo("ord-000001");
        verifyNoInteractions(inventory, payments, notifier);
    }

    @Test
    @DisplayName("an unknown order id is not found, for get and for pay, and touches no downstream")
    void unknownIdIsNotFound() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();

        assertThatThrownBy(() -> service.get(CTX, "ord-999999"))
                .isInstanceOf(OrderNotFoundException.class).hasMessageContaining("ord-999999");
        assertThatThrownBy(() -> service.pay(CTX, "ord-999999"))
                .isInstanceOf(OrderNotFoundException.class).hasMessageContaining("ord-999999");
        assertThatThrownBy(() -> service.get(CTX, null)).isInstanceOf(OrderNotFoundException.class);
        verify(inventory, never()).reserve(any(), anyString(), anyString(), anyInt());
        verifyNoInteractions(payments, notifier);
    }

    @Test
    @DisplayName("an order created after its id was looked up and not found is found at once: create invalidates the remembered miss")
    void createInvalidatesANegativeEntry() {
        OrderServiceAssembly parts = service();
        OrderService service = parts.service();
        assertThatThrownBy(() -> service.get(CTX, "ord-000001")).isInstanceOf(OrderNotFoundException.class);

        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 1))).id();

        assertThat(id).isEqualTo("ord-000001");
        assertThat(service.get(CTX, id).id()).isEqualTo(id);
    }
}
