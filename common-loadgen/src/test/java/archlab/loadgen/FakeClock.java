package archlab.loadgen;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link NanoClock} that moves only when a test advances it. Thread-safe. */
public final class FakeClock implements NanoClock {

    private final AtomicLong now;

    public FakeClock() {
        this(0);
    }

    public FakeClock(long startNanos) {
        this.now = new AtomicLong(startNanos);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /** Moves the clock forward by {@code nanos} (not backwards: the NanoClock contract). */
    public FakeClock advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a NanoClock never goes backwards");
        }
        now.addAndGet(nanos);
        return this;
    }

    public FakeClock advance(Duration d) {
        return advance(d.toNanos());
    }

    /** A clock that fails the test if anything reads it. */
    public static NanoClock throwing() {
        return () -> {
            throw new AssertionError("the clock was read");
        };
    }
}
