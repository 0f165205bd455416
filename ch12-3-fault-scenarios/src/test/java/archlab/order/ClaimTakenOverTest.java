package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verify;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.http.HttpErrors;
import archlab.request.RequestContext;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * The trap: a pay whose charge went through but whose PAID commit the database refused — a peer adopted the order
 * after this process's lease lapsed ({@code PostgresClaimsTest.anAdoptedClaimFencesItsOldClaimer}) — answered as a
 * server bug (an {@code IllegalStateException}, a 500 over HTTP) instead of an outcome the client must wait for.
 */
@ExtendWith(MockitoExtension.class)
class ClaimTakenOverTest {

    private static final RequestContext CTX = RequestContext.background();

    @Mock
    Inventory inventory;
    @Mock
    Payments payments;
    @Mock
    Notifier notifier;

    @Test
    @DisplayName("a PAID commit refused because a peer took the claim over is an unknown outcome (504 over HTTP), not an internal error; the charge stands, the order stays the peer's, and this process's reconciler is not asked")
    void aCommitRefusedByTheFenceIsAnUnknownOutcome() {
        // the table as the fence leaves it: the claim succeeded, the PAID commit is refused (the claim is a peer's now)
        OrderTable fenced = refusingPaidCommits(new InMemoryOrderTable(OrderServiceSettings.DEFAULT.tableReadLatency(),
                OrderServiceSettings.DEFAULT.clock()));
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(inventory, payments, notifier,
                OrderServiceSettings.DEFAULT.withExecutor(Runnable::run), fenced);
        OrderService service = parts.service();
        String id = service.create(CTX, "cust", List.of(new Item("sku-a", 1, 100))).id();

        Throwable thrown = catchThrowable(() -> service.pay(CTX, id));

        assertThat(thrown).isInstanceOf(ClaimTakenOverOutcomeUnknownException.class)
                .hasMessageContaining(id).hasMessageContaining("another process took its claim over");
        assertThat(HttpErrors.of(thrown).status()).as("over HTTP: as a charge without an answer, 504").isEqualTo(504);
        verify(payments).charge(any(), any());
        assertThat(parts.table.current(id).status()).as("nothing of this process changed the order after the refusal")
                .isEqualTo(OrderStatus.PAYING);
        assertThat(parts.reconciler().pending()).as("this process's reconciler is not asked: the database would refuse"
                + " its PAID commit too; the peer's completes the order").isZero();
    }

    /** @return {@code table} in every call but commitPaid, which it refuses (returns false) as the fence does */
    private static OrderTable refusingPaidCommits(OrderTable table) {
        return (OrderTable) Proxy.newProxyInstance(OrderTable.class.getClassLoader(), new Class<?>[]{OrderTable.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("commitPaid")) {
                        return false;
                    }
                    try {
                        return method.invoke(table, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
