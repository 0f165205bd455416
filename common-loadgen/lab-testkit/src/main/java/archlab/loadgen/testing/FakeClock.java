package archlab.loadgen.testing;

import archlab.clock.NanoClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link NanoClock} for tests: it stands still until the test moves it, so that anything measured on
 * it (deadlines, timeouts, cache lifetimes, token refills, backoffs, traces) repeats exactly and no test
 * has to sleep. In the style of Guava's and Caffeine's {@code FakeTicker}; the one fake clock of every
 * module's tests, in lab-testkit.
 *
 * <p>Contract: the reading starts at the value given to the constructor (0 by default) and changes only
 * by {@link #advance(long)}, {@link #advance(Duration)} or, if {@linkplain #setAutoIncrementStep(Duration)
 * set}, by a fixed step after each reading. It never goes backwards, as {@link NanoClock} requires: a
 * negative advance or step is rejected.
 *
 * <p>Units: every {@code long} here is in nanoseconds, like {@link NanoClock#nanoTime()}.
 *
 * <p>Thread-safety: safe for any number of threads. The reading is one {@link AtomicLong}: an advance is
 * atomic and visible to every later reading on any thread, and concurrent advances add up.
 */
public final class FakeClock implements NanoClock {

    private final AtomicLong nanos;
    private volatile long autoIncrementStepNanos;

    /** A clock that reads 0 until advanced. */
    public FakeClock() {
        this(0);
    }

    /** @param startNanos the first reading; any value, negative too ({@link System#nanoTime()} may be) */
    public FakeClock(long startNanos) {
        this.nanos = new AtomicLong(startNanos);
    }

    /**
     * @return the current reading, in nanoseconds; then, if an auto-increment step is set, the clock moves
     *     on by that step (atomically with the reading)
     */
    @Override
    public long nanoTime() {
        return nanos.getAndAdd(autoIncrementStepNanos);
    }

    /**
     * Moves the clock forward.
     *
     * @param nanos how far, in nanoseconds; 0 is allowed
     * @return this clock
     * @throws IllegalArgumentException if {@code nanos} is negative
     */
    public FakeClock advance(long nanos) {
        requireNotBackwards(nanos);
        this.nanos.addAndGet(nanos);
        return this;
    }

    /**
     * Moves the clock forward by {@code d}, to the nanosecond.
     *
     * @return this clock
     * @throws IllegalArgumentException if {@code d} is negative
     * @throws ArithmeticException if {@code d} does not fit in a {@code long} of nanoseconds
     */
    public FakeClock advance(Duration d) {
        return advance(d.toNanos());
    }

    /**
     * Makes every later reading move the clock on by {@code step} after it is taken, so that two readings
     * are never equal (a clock that "ticks while you look"). {@link Duration#ZERO}, the default, turns it off.
     *
     * @return this clock
     * @throws IllegalArgumentException if {@code step} is negative
     */
    public FakeClock setAutoIncrementStep(Duration step) {
        long stepNanos = step.toNanos();
        requireNotBackwards(stepNanos);
        this.autoIncrementStepNanos = stepNanos;
        return this;
    }

    /**
     * A clock that fails the test with an {@link AssertionError} if anything reads it: for code that must
     * not read the clock at all (an untraced request, a context that has no deadline).
     */
    public static NanoClock throwing() {
        return () -> {
            throw new AssertionError("the clock was read");
        };
    }

    private static void requireNotBackwards(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a NanoClock never goes backwards: " + nanos + " ns");
        }
    }
}
