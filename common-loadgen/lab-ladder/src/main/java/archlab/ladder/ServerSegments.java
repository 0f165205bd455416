package archlab.ladder;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What the server saw of each answered request, summed: its time in the servlet, and of that the wait for a database
 * connection and the database's own time (statements, commit, rows). Sums, not percentiles, so the segments of a
 * request's mean time add up ({@link LadderSegments}). Also the database time's distribution, for its p99, and the
 * requests in the servlet now ({@link #begin}, {@link #end}), so a phase can wait for the one before to drain.
 *
 * <p>Thread-safety: {@link #record}, {@link #begin}, {@link #end} from any thread; {@link #reset} only
 * while no request is in the servlet ({@link #awaitIdle}); the figures are read after the run.
 */
public final class ServerSegments {

    private final LongAdder requests = new LongAdder();
    private final LongAdder servletNanos = new LongAdder();
    private final LongAdder connectionWaitNanos = new LongAdder();
    private final LongAdder databaseNanos = new LongAdder();
    private final Histogram database = new ConcurrentHistogram(3);
    private final java.util.concurrent.atomic.AtomicInteger inServlet = new java.util.concurrent.atomic.AtomicInteger();

    /** A request entered the servlet. */
    public void begin() {
        inServlet.incrementAndGet();
    }

    /** A request left the servlet (answered or not). */
    public void end() {
        inServlet.decrementAndGet();
    }

    /**
     * Waits until no request is in the servlet, polling every millisecond.
     *
     * @return whether it became idle within {@code atMost}
     */
    public boolean awaitIdle(java.time.Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (inServlet.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    /**
     * @param servletNanos        the request's time in the servlet, ns
     * @param connectionWaitNanos its wait for a connection, ns (part of {@code servletNanos})
     * @param databaseNanos       its time in the database, ns (part of {@code servletNanos})
     */
    public void record(long servletNanos, long connectionWaitNanos, long databaseNanos) {
        requests.increment();
        this.servletNanos.add(servletNanos);
        this.connectionWaitNanos.add(connectionWaitNanos);
        this.databaseNanos.add(databaseNanos);
        database.recordValue(Math.max(0, databaseNanos));
    }

    /** Forgets everything so far (the warm-up); call while idle. */
    public void reset() {
        requests.reset();
        servletNanos.reset();
        connectionWaitNanos.reset();
        databaseNanos.reset();
        database.reset();
    }

    /** @return the requests recorded */
    public long requests() {
        return requests.sum();
    }

    /** @return the mean time in the servlet, µs; 0 when none */
    public double servletMeanMicros() {
        return mean(servletNanos);
    }

    /** @return the mean wait for a connection, µs; 0 when none */
    public double connectionWaitMeanMicros() {
        return mean(connectionWaitNanos);
    }

    /** @return the mean time in the database, µs; 0 when none */
    public double databaseMeanMicros() {
        return mean(databaseNanos);
    }

    /** @return the database time's 99th percentile, µs */
    public double databaseP99Micros() {
        return database.getValueAtPercentile(99) / 1_000.0;
    }

    private double mean(LongAdder sum) {
        long n = requests.sum();
        return n == 0 ? 0 : sum.sum() / 1_000.0 / n;
    }
}
