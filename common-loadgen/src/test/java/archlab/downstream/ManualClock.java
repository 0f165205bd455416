package archlab.downstream;

import archlab.loadgen.Deadline;
import archlab.loadgen.NanoClock;
import archlab.loadgen.RequestContext;
import archlab.trace.Trace;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that stands still unless a test advances it, so deadline decisions repeat exactly. */
final class ManualClock implements NanoClock {

    private final AtomicLong nowNanos = new AtomicLong();

    @Override
    public long nanoTime() {
        return nowNanos.get();
    }

    void advance(Duration by) {
        nowNanos.addAndGet(by.toNanos());
    }

    /** A context whose deadline is {@code timeout} from now on this clock. */
    RequestContext contextWithTimeout(Duration timeout) {
        return new RequestContext(0, nanoTime(), Deadline.after(this, timeout), this, Trace.OFF);
    }
}
