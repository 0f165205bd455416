package archlab.downstream;

import archlab.request.RequestContext;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-memory {@link Inventory} with unlimited stock that remembers how many units of each sku are
 * reserved. Follows the package's call rule: a refused call (injected error, or deadline passed on
 * arrival) reserves nothing; an accepted call reserves at once, and the reservation stays even if the
 * caller's deadline passes while the reply is on the way &mdash; which is why sagas release.
 *
 * <p>{@code reserve} and {@code release}, keyed or not, share one call numbering, one latency model and one
 * error injection. A keyed reservation ({@link #reserve(RequestContext, String, String, int)}) takes effect
 * once per key, and never after its key was released.
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
    private final ConcurrentHashMap<String, KeyedReservation> reservationsByKey = new ConcurrentHashMap<>();
    private final LongAdder keyedRepeats = new LongAdder();

    /** One keyed reservation: what it holds, and whether it was released (or released before it was made). */
    private record KeyedReservation(String sku, int quantity, boolean released) {
    }

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
        validate(what, sku, quantity);
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

    @Override
    public void reserve(RequestContext ctx, String reservationKey, String sku, int quantity) {
        Objects.requireNonNull(ctx, "ctx");
        requireKey("reserve", reservationKey);
        validate("reserve", sku, quantity);
        long callIndex = calls.arrive(ctx);
        if (errors.failsCall(callIndex)) {
            calls.countInjectedError();
            throw new DownstreamException(NAME, callIndex,
                    "injected error: reserve " + reservationKey + " of " + quantity + " x " + sku + " refused (nothing changed)");
        }
        boolean[] reservedNow = new boolean[1];
        KeyedReservation r = reservationsByKey.compute(reservationKey, (k, old) -> {
            if (old == null) {
                reservedNow[0] = true;
                return new KeyedReservation(sku, quantity, false);
            }
            if (!old.released() && (!old.sku().equals(sku) || old.quantity() != quantity)) {
                throw new IllegalArgumentException("reservation key " + k + " was used for " + old.quantity() + " x "
                        + old.sku() + ", not " + quantity + " x " + sku + " (nothing changed)");
            }
            return old;
        });
        if (reservedNow[0]) {
            reservedUnitsBySku.computeIfAbsent(sku, s -> new LongAdder()).add(quantity);
            reservations.increment();
        } else {
            keyedRepeats.increment();
        }
        calls.replyDelay(ctx, callIndex);
        calls.countSucceeded();
    }

    @Override
    public void release(RequestContext ctx, String reservationKey) {
        Objects.requireNonNull(ctx, "ctx");
        requireKey("release", reservationKey);
        long callIndex = calls.arrive(ctx);
        if (errors.failsCall(callIndex)) {
            calls.countInjectedError();
            throw new DownstreamException(NAME, callIndex,
                    "injected error: release " + reservationKey + " refused (nothing changed)");
        }
        KeyedReservation[] releasedNow = new KeyedReservation[1];
        reservationsByKey.compute(reservationKey, (k, old) -> {
            if (old == null) {
                return new KeyedReservation("", 0, true); // released before it was made: a late reserve does nothing
            }
            if (old.released()) {
                return old;
            }
            releasedNow[0] = old;
            return new KeyedReservation(old.sku(), old.quantity(), true);
        });
        if (releasedNow[0] != null) {
            reservedUnitsBySku.computeIfAbsent(releasedNow[0].sku(), s -> new LongAdder()).add(-releasedNow[0].quantity());
            releases.increment();
        } else {
            keyedRepeats.increment();
        }
        calls.replyDelay(ctx, callIndex);
        calls.countSucceeded();
    }

    /** @return keyed reserves and releases that changed nothing: repeats of a key, or a reserve after its release */
    public long keyedRepeats() {
        return keyedRepeats.sum();
    }

    private static void requireKey(String what, String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException(what + ": reservation key must not be blank, was '" + key + "'");
        }
    }

    private static void validate(String what, String sku, int quantity) {
        if (sku == null || sku.isBlank()) {
            throw new IllegalArgumentException(what + ": sku must not be blank, was '" + sku + "'");
        }
        if (quantity <= 0) {
            throw new IllegalArgumentException(what + ": quantity must be >= 1, was " + quantity + " (sku " + sku + ")");
        }
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

    /**
     * The keyed reservations held now, from the stub's books: for an audit per order, by whoever knows how its keys
     * name their orders. Unkeyed reserves ({@link #reserve(RequestContext, String, int)}) are not here.
     *
     * @return a snapshot: each key whose reservation is made and not released, and its units
     */
    public java.util.Map<String, Long> heldUnitsByKey() {
        java.util.Map<String, Long> held = new java.util.TreeMap<>();
        reservationsByKey.forEach((key, r) -> {
            if (!r.released()) {
                held.put(key, (long) r.quantity());
            }
        });
        return java.util.Collections.unmodifiableMap(held);
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
