package archlab.db;

import archlab.timeline.IntervalMaxima;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.PoolStats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * A HikariCP pool, measured: HikariCP hands every borrow's wait ({@link IMetricsTracker#recordConnectionAcquiredNanos})
 * and every connection's time out of the pool ({@link IMetricsTracker#recordConnectionUsageMillis}) to the tracker this
 * factory makes, which keeps them in HdrHistograms; a sampler reads the pool's {@link HikariPoolMXBean} (connections
 * in use, threads waiting for one) every {@link #SAMPLE_PERIOD} into an {@link IntervalMaxima}, as the HTTP server's
 * series does for its threads. {@link #startRun} forgets everything before (the fixture's preparation) and starts the
 * series; {@link #endRun} stops it and freezes the figures, so the checks made after a run do not count.
 *
 * <p>Thread-safety: the tracker's methods from any thread at once (HikariCP calls them on the borrowing thread);
 * {@link #startRun} and {@link #endRun} from the fixture's thread.
 */
final class PoolMetrics implements MetricsTrackerFactory {

    /** How often the sampler reads the pool's connections in use and threads waiting. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(5);

    static final int CONNECTION_WAIT = 0;
    static final int ACTIVE = 1;
    static final int WAITING = 2;

    private final int size;
    private final IntervalMaxima series;
    private volatile ConcurrentHistogram waits = new ConcurrentHistogram(3);
    private volatile ConcurrentHistogram usage = new ConcurrentHistogram(3);
    private final AtomicLong timeouts = new AtomicLong();
    private volatile PoolFigures frozen;

    /** @param pool the pool's MXBean once the pool exists (HikariCP creates the tracker while it starts the pool) */
    PoolMetrics(int size, Supplier<HikariPoolMXBean> pool) {
        this.size = size;
        this.series = new IntervalMaxima("db-pool-series", SAMPLE_PERIOD, List.of(
                new IntervalMaxima.Gauge("connection_wait_max", null),
                new IntervalMaxima.Gauge("active_max", () -> pool.get() == null ? 0 : pool.get().getActiveConnections()),
                new IntervalMaxima.Gauge("waiting_max", () -> pool.get() == null ? 0 : pool.get().getThreadsAwaitingConnection())));
    }

    @Override
    public IMetricsTracker create(String poolName, PoolStats poolStats) {
        return new IMetricsTracker() {
            @Override
            public void recordConnectionAcquiredNanos(long elapsedAcquiredNanos) {
                waits.recordValue(Math.max(0, elapsedAcquiredNanos));
                series.record(CONNECTION_WAIT, System.nanoTime(), elapsedAcquiredNanos);
            }

            @Override
            public void recordConnectionUsageMillis(long elapsedBorrowedMillis) {
                usage.recordValue(Math.max(0, elapsedBorrowedMillis));
            }

            @Override
            public void recordConnectionTimeout() {
                timeouts.incrementAndGet();
            }
        };
    }

    /** Forgets every figure so far and starts interval 0 of the series now. */
    void startRun() {
        waits = new ConcurrentHistogram(3);
        usage = new ConcurrentHistogram(3);
        timeouts.set(0);
        frozen = null;
        series.start();
    }

    /** Stops the series and freezes the figures: what happens after (the ledger's checks) is not the run's. */
    void endRun() {
        series.stop();
        frozen = live();
    }

    /** Stops the sampler; the figures stay readable. */
    void stop() {
        series.stop();
    }

    /** @return the figures of the run: frozen at {@link #endRun}, or so far */
    PoolFigures figures() {
        PoolFigures f = frozen;
        return f != null ? f : live();
    }

    private PoolFigures live() {
        return new PoolFigures(size, waits.copy(), usage.copy(), timeouts.get(), new PoolFigures.Timeline(
                series.maxima(CONNECTION_WAIT), series.maxima(ACTIVE), series.maxima(WAITING)));
    }
}
