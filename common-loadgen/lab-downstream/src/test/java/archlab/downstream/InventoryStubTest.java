package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.request.RequestContext;
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

    @Test
    @DisplayName("a keyed reserve takes effect once per key: a retry with the same key reserves nothing more")
    void keyedReserveIsIdempotent() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);

        inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3);
        inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3);
        inventory.reserve(NO_DEADLINE, "rsv-2", "sku-1", 2);

        assertThat(inventory.reservedUnits("sku-1")).isEqualTo(5);
        assertThat(inventory.reservations()).isEqualTo(2);
        assertThat(inventory.keyedRepeats()).isEqualTo(1);
        assertThat(inventory.counters()).isEqualTo(new StubCounters(3, 3, 0, 0));
    }

    @Test
    @DisplayName("a keyed release gives the units back once, however often it is retried")
    void keyedReleaseIsIdempotent() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3);

        inventory.release(NO_DEADLINE, "rsv-1");
        inventory.release(NO_DEADLINE, "rsv-1");

        assertThat(inventory.reservedUnits("sku-1")).isZero();
        assertThat(inventory.releases()).isEqualTo(1);
        assertThat(inventory.keyedRepeats()).isEqualTo(1);
    }

    @Test
    @DisplayName("a reserve that arrives after its key was released (a late retry after the compensation) reserves nothing")
    void reserveAfterReleaseOfItsKeyReservesNothing() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);

        inventory.release(NO_DEADLINE, "rsv-1");
        inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3);
        inventory.reserve(NO_DEADLINE, "rsv-2", "sku-1", 1);
        inventory.release(NO_DEADLINE, "rsv-2");
        inventory.reserve(NO_DEADLINE, "rsv-2", "sku-1", 1);

        assertThat(inventory.totalReservedUnits()).isZero();
        assertThat(inventory.reservations()).isEqualTo(1);
        assertThat(inventory.releases()).isEqualTo(1);
    }

    @Test
    @DisplayName("a reservation key reused for another sku or quantity is refused and changes nothing")
    void reservationKeyReusedForOtherStockIsRefused() {
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT);
        inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3);

        assertThatThrownBy(() -> inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rsv-1");
        assertThatThrownBy(() -> inventory.reserve(NO_DEADLINE, " ", "sku-1", 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key must not be blank");

        assertThat(inventory.reservedUnits("sku-1")).isEqualTo(3);
    }

    @Test
    @DisplayName("a keyed reserve refused by an injected error reserves nothing, and its retry can then take effect")
    void refusedKeyedReserveCanBeRetried() {
        // call #0 fails, call #1 succeeds: ErrorInjection picks failing calls by index
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT.withErrors(index -> index == 0));

        assertThatThrownBy(() -> inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3)).isExactlyInstanceOf(DownstreamException.class);
        assertThat(inventory.totalReservedUnits()).isZero();
        inventory.reserve(NO_DEADLINE, "rsv-1", "sku-1", 3);

        assertThat(inventory.reservedUnits("sku-1")).isEqualTo(3);
    }
}
