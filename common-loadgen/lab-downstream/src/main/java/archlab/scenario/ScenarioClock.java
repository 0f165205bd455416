package archlab.scenario;

import archlab.clock.NanoClock;
import java.time.Duration;

/**
 * The clock a scenario's time windows are measured on: "the notifier is down from 1.0 s to 2.0 s after
 * the run starts". {@link #start()} is called just before the load begins (LabFixture.beforeRun); until
 * then no window is open.
 *
 * <p>Thread-safety: {@link #start()} publishes through a volatile; reads are safe from any thread.
 */
public final class ScenarioClock {

    private final NanoClock clock;
    private volatile long startNanos = Long.MIN_VALUE;

    public ScenarioClock(NanoClock clock) {
        this.clock = clock;
    }

    /** Starts the scenario's clock now. */
    public void start() {
        startNanos = clock.nanoTime();
    }

    /** @return whether {@link #start()} was called */
    public boolean started() {
        return startNanos != Long.MIN_VALUE;
    }

    /** @return time since start, in nanoseconds; negative before start */
    public long elapsedNanos() {
        long s = startNanos;
        return s == Long.MIN_VALUE ? -1 : clock.nanoTime() - s;
    }

    /** @return whether {@code window} is open now */
    public boolean inside(Window window) {
        long t = elapsedNanos();
        return t >= 0 && t >= window.from().toNanos() && t < window.to().toNanos();
    }

    /** @return nanoseconds until {@code window} closes; 0 when not inside it */
    public long untilEndNanos(Window window) {
        return inside(window) ? window.to().toNanos() - elapsedNanos() : 0;
    }

    /**
     * A span of a run, relative to its start.
     *
     * @param from when it opens
     * @param to   when it closes; after {@code from}
     */
    public record Window(Duration from, Duration to) {
        public Window {
            if (from == null || to == null || from.isNegative() || to.compareTo(from) <= 0) {
                throw new IllegalArgumentException("a window needs 0 <= from < to, was " + from + " .. " + to);
            }
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%.1fs-%.1fs", from.toMillis() / 1e3, to.toMillis() / 1e3);
        }
    }
}
