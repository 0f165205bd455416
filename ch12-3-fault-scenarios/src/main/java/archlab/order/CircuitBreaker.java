package archlab.order;

import archlab.clock.NanoClock;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Fail fast while a downstream keeps failing: a circuit breaker, written by hand because its three
 * states are the lesson (Resilience4j does the same with more knobs).
 *
 * <p>The trap it avoids: a caller that keeps sending requests to a downstream that keeps failing pays
 * the full timeout on every one, piles up waiting threads, and keeps the struggling downstream
 * struggling. The breaker counts the outcomes of the last {@code windowSize} calls; once at least
 * {@code minimumCalls} were seen and the failure share reaches {@code failureRateThreshold}, it
 * <b>opens</b>: calls fail at once with {@link CircuitOpenException} for {@code openDuration}. Then it
 * is <b>half-open</b>: one trial call goes through; success closes it, failure opens it again.
 *
 * <p>Which errors count is the caller's choice ({@code countsAsFailure}): a clean payment decline is
 * the provider working, not failing, and so is a lost reply, which a keyed retry gets replayed
 * ({@link DownstreamErrors#providerFailed} says why).
 *
 * <p>Thread-safety: all methods are safe from any thread; state changes happen under the breaker's own
 * monitor, held for a few field updates only (never across the protected call).
 */
public final class CircuitBreaker {

    /** The breaker's state. */
    public enum State { CLOSED, OPEN, HALF_OPEN }

    /**
     * @param windowSize           how many recent calls are counted
     * @param minimumCalls         no opening before this many calls were seen
     * @param failureRateThreshold failure share in (0, 1] that opens the breaker
     * @param openDuration         how long it stays open before a trial call
     */
    public record Settings(int windowSize, int minimumCalls, double failureRateThreshold, Duration openDuration) {
        public Settings {
            if (windowSize < 1 || minimumCalls < 1 || minimumCalls > windowSize) {
                throw new IllegalArgumentException("need 1 <= minimumCalls <= windowSize, was " + minimumCalls + " / " + windowSize);
            }
            if (!(failureRateThreshold > 0 && failureRateThreshold <= 1)) {
                throw new IllegalArgumentException("failureRateThreshold must be in (0, 1], was " + failureRateThreshold);
            }
            if (openDuration == null || openDuration.isNegative() || openDuration.isZero()) {
                throw new IllegalArgumentException("openDuration must be positive, was " + openDuration);
            }
        }
    }

    private final String name;
    private final Settings settings;
    private final NanoClock clock;
    private final Predicate<Throwable> countsAsFailure;

    private final boolean[] window;
    private int next;
    private int seen;
    private int failuresInWindow;
    private State state = State.CLOSED;
    private long openedAtNanos;
    private boolean trialInFlight;
    private long rejected;
    private long opened;

    public CircuitBreaker(String name, Settings settings, NanoClock clock, Predicate<Throwable> countsAsFailure) {
        this.name = name;
        this.settings = settings;
        this.clock = clock;
        this.countsAsFailure = countsAsFailure;
        this.window = new boolean[settings.windowSize()];
    }

    /**
     * Asks to make one call.
     *
     * @throws CircuitOpenException at once while open (or while a half-open trial is in flight)
     */
    // tag::acquire[]
    public synchronized void acquire() {
        if (state == State.OPEN) {
            long waited = clock.nanoTime() - openedAtNanos;
            if (waited < settings.openDuration().toNanos()) {
                rejected++;
                throw new CircuitOpenException(name, Duration.ofNanos(settings.openDuration().toNanos() - waited));
            }
            state = State.HALF_OPEN;
        }
        if (state == State.HALF_OPEN) {
            if (trialInFlight) {
                rejected++;
                throw new CircuitOpenException(name, Duration.ZERO);
            }
            trialInFlight = true;
        }
    }
    // end::acquire[]

    /**
     * Fails fast without taking a call slot: what a caller asks before it starts work that would end in a
     * call (pay asks before it claims the order). Admits nothing; {@link #acquire()} still decides the call.
     *
     * @throws CircuitOpenException while open, or while a half-open trial is in flight
     */
    public synchronized void check() {
        if (state == State.OPEN) {
            long waited = clock.nanoTime() - openedAtNanos;
            if (waited < settings.openDuration().toNanos()) {
                rejected++;
                throw new CircuitOpenException(name, Duration.ofNanos(settings.openDuration().toNanos() - waited));
            }
        } else if (state == State.HALF_OPEN && trialInFlight) {
            rejected++;
            throw new CircuitOpenException(name, Duration.ZERO);
        }
    }

    /** Records the outcome of a call admitted by {@link #acquire()}; {@code error} null for success. */
    // tag::record[]
    public synchronized void record(Throwable error) {
        boolean failed = error != null && countsAsFailure.test(error);
        if (state == State.HALF_OPEN) {
            trialInFlight = false;
            if (failed) {
                open();
            } else {
                state = State.CLOSED;
                clearWindow();
            }
            return;
        }
        if (state == State.OPEN) {
            return; // a call admitted before the breaker opened: its outcome no longer matters
        }
        if (seen == window.length && window[next]) {
            failuresInWindow--;
        }
        window[next] = failed;
        if (failed) {
            failuresInWindow++;
        }
        next = (next + 1) % window.length;
        seen = Math.min(seen + 1, window.length);
        if (seen >= settings.minimumCalls() && failuresInWindow >= settings.failureRateThreshold() * seen) {
            open();
        }
    }
    // end::record[]

    private void open() {
        state = State.OPEN;
        openedAtNanos = clock.nanoTime();
        opened++;
        clearWindow();
    }

    private void clearWindow() {
        java.util.Arrays.fill(window, false);
        next = 0;
        seen = 0;
        failuresInWindow = 0;
    }

    /** @return the current state (OPEN turns HALF_OPEN only when a call asks) */
    public synchronized State state() {
        return state;
    }

    /** @return calls refused while open */
    public synchronized long rejected() {
        return rejected;
    }

    /** @return how many times the breaker opened */
    public synchronized long timesOpened() {
        return opened;
    }

    public String name() {
        return name;
    }
}
