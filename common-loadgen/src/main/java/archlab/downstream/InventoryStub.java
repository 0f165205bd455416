package archlab.downstream;

import archlab.loadgen.RequestContext;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-memory {@link Inventory} with unlimited stock that remembers how many units of each sku are
 * reserved. Follows the package's call rule: a refused call (injected error, or deadline passed on
 * arrival) reserves nothing; an accepted call reserves at once, and the reservation stays even if the
 * caller's deadline passes while the reply is on the way &mdash; which is why sagas release.
 *
 * <p>{@code reserve} and {@code release} share one call numbering, one latency model and one error injection.
 *
 * <p>Thread-safe and lock-free.
 */
public final class InventoryStub implements Inventory {

    /** The stub's name in messages and counters. */
    public static final String NAME = "inventory";

    private final FaultModel errors;
    private final SimulatedCalls calls;
    private final ConcurrentHashMap<String, LongAdder> reservedUnitsBySku = new ConcurrentHashMap<>();
    private final LongAdder reservations = new LongAdder();
    private final LongAdder releases = new LongAdder();

    public InventoryStub(StubBehaviour behaviour) {
        Objects.requireNonNull(behaviour, "behaviour");
        this.errors = behaviour.errors();
        this.calls = new SimulatedCalls(NAME, behaviour.latency());
    }

    @Override
    public void reserve(RequestContext ctx, String sku, int quantity) {
        call(ctx, sku, quantity, true);
    }

    @Override
    public void release(RequestContext ctx, String sku, int quantity) {
        call(ctx, sku, quantity, false);
    }

    private void call(RequestContext ctx, String sku, int quantity, boolean reserve) {
        Objects.requireNonNull(ctx, "ctx");
        String what = reserve ? "reserve" : "release";
        if (sku == null || sku.isBlank()) {
            throw new IllegalArgumentException(what + ": sku must not be blank, was '" + sku + "'");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException(what + ": quantity must be >= 1, was " + quantity + " (sku " + sku + ")");
        }
        long callIndex = calls.arrive(ctx);
        if (errors.failsCall(callIndex)) {
            calls.countInjectedError();
            throw new DownstreamException(NAME, callIndex,
                    "injected error: " + what + " of " + quantity + " x " + sku + " refused (nothing changed)");
        }
        reservedUnitsBySku.computeIfAbsent(sku, s -> new LongAdder()).add(reserve ? quantity : -quantity);
        (reserve ? reservations : releases).increment();
        calls.replyDelay(ctx, callIndex);
        calls.countSucceeded();
    }

    /**
     * @return units of {@code sku} reserved and not released; negative if more was released than reserved
     *         (a compensation for a reservation that never happened)
     */
    public long reservedUnits(String sku) {
        LongAdder units = reservedUnitsBySku.get(sku);
        return units == null ? 0 : units.sum();
    }

    /** @return units reserved and not released, over all skus */
    public long totalReservedUnits() {
        return reservedUnitsBySku.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** @return reserve calls that took effect (including those whose reply then timed out) */
    public long reservations() {
        return reservations.sum();
    }

    /** @return release calls that took effect (including those whose reply then timed out) */
    public long releases() {
        return releases.sum();
    }

    /** @return a snapshot of this stub's call counters (reserve and release calls together) */
    public StubCounters counters() {
        return calls.counters();
    }

    @Override
    public String toString() {
        return NAME + " " + counters();
    }
}
