package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.RequestContext;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("InventoryStub: reservations and their compensation")
class InventoryStubTest {

    private static final RequestContext NO_DEADLINE = RequestContext.background();

    @Test
    @DisplayName("release gives back what reserve took, per sku; both are calls of the one stub")
    void releaseCompensatesReserve() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);

        inventory.reserve(NO_DEADLINE, "sku-1", 3);
        inventory.reserve(NO_DEADLINE, "sku-2", 1);
        inventory.release(NO_DEADLINE, "sku-1", 3);

        assertThat(inventory.reservedUnits("sku-1")).isZero();
        assertThat(inventory.reservedUnits("sku-2")).isEqualTo(1);
        assertThat(inventory.totalReservedUnits()).isEqualTo(1);
        assertThat(inventory.reservations()).isEqualTo(2);
        assertThat(inventory.releases()).isEqualTo(1);
        assertThat(inventory.counters()).isEqualTo(new StubCounters(3, 3, 0, 0));
    }

    @Test
    @DisplayName("an injected error reserves nothing")
    void injectedErrorReservesNothing() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT.withErrors(new ErrorInjection(1L, 1.0)));

        assertThatThrownBy(() -> inventory.reserve(NO_DEADLINE, "sku-1", 3))
                .isExactlyInstanceOf(DownstreamException.class)
                .hasMessageContaining("inventory call #0");

        assertThat(inventory.reservedUnits("sku-1")).isZero();
        assertThat(inventory.counters()).isEqualTo(new StubCounters(1, 0, 1, 0));
    }
}
