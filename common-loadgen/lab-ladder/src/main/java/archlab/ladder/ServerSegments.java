package archlab.ladder;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What the server saw of each answered request, summed: its time in the servlet, and of that the wait for a database
 * connection and the database's own time (statements, commit, rows). Sums, not percentiles, so the segments of a
 * request's mean time add up ({@link LadderSegments}). Also the database time's distribution, for its p99.
 *
 * <p>Thread-safety: {@link #record} from any thread; the figures are read after the run.
 */
public final class ServerSegments {

    private final LongAdder requests = new LongAdder();
    private final LongAdder servletNanos = new LongAdder();
    private final LongAdder connectionWaitNanos = new LongAdder();
    private final LongAdder databaseNanos = new LongAdder();
    private final Histogram database = new ConcurrentHistogram(3);
    private volatile boolean counting = true;

    /**
     * @param servlet        the request's time in the servlet, ns
     * @param connectionWait its wait for a connection, ns (part of {@code servlet})
     * @param db             its time in the database, ns (part of {@code servlet})
     */
    public void record(long servlet, long connectionWait, long db) {
        if (!counting) {
            return;
        }
        requests.increment();
        servletNanos.add(servlet);
        connectionWaitNanos.add(connectionWait);
        databaseNanos.add(db);
        database.recordValue(Math.max(0, db));
    }

    /** Forgets everything so far (the warm-up). */
    public void reset() {
        requests.reset();
        servletNanos.reset();
        connectionWaitNanos.reset();
        databaseNanos.reset();
        database.reset();
    }

    /** Stops counting: requests answered after the measured phase are not the run's. */
    public void stop() {
        counting = false;
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
