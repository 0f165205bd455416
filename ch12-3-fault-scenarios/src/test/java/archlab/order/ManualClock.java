package archlab.order;

import archlab.loadgen.NanoClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link NanoClock} that moves only when a test advances it, so the cache, the limiter and the outbox never need a sleep. Thread-safe. */
final class ManualClock implements NanoClock {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return now.get();
    }

    ManualClock advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a NanoClock never goes backwards");
        }
        now.addAndGet(d.toNanos());
        return this;
    }
}
