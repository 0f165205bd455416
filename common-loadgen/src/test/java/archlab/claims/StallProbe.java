package archlab.claims;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Tells a slow solution from a stalled machine while a claim measures latency: a platform thread asks to wake every
 * millisecond and records how late it woke (what jHiccup does for a whole JVM). A claim whose measurement window saw
 * a hiccup longer than its slack is {@link Verdict.Outcome#NOT_JUDGED}: the machine, not the solution, spent the time.
 *
 * <p>Use: {@code try (StallProbe probe = StallProbe.start()) { …measure… ; probe.worstNanos() }}. Thread-safe.
 */
final class StallProbe implements AutoCloseable {

    private static final long PERIOD_NANOS = 1_000_000L;

    private final AtomicLong worstNanos = new AtomicLong();
    private volatile boolean running = true;
    private final Thread thread;

    private StallProbe() {
        thread = Thread.ofPlatform().daemon(true).name("claims-stall-probe").start(this::loop);
    }

    static StallProbe start() {
        return new StallProbe();
    }

    private void loop() {
        while (running) {
            long asked = System.nanoTime() + PERIOD_NANOS;
            LockSupport.parkNanos(PERIOD_NANOS);
            long late = System.nanoTime() - asked;
            worstNanos.accumulateAndGet(late, Math::max);
        }
    }

    /** @return the longest the probe woke past its time so far, ns */
    long worstNanos() {
        return worstNanos.get();
    }

    /** @return whether the machine stalled longer than {@code slack} so far */
    boolean stalledBeyond(Duration slack) {
        return worstNanos() > slack.toNanos();
    }

    /** @return e.g. {@code "machine hiccup max 3.2 ms"} */
    String describe() {
        return String.format(java.util.Locale.ROOT, "machine hiccup max %.1f ms", worstNanos() / 1e6);
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
    }
}
