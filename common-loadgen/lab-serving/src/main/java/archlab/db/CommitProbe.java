package archlab.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * How long this machine's PostgreSQL takes to commit one row while a run loads it: the disk's own pace during the run,
 * as the hiccup probe is the CPU's.
 *
 * <p>The trap it guards against: on PostgreSQL every state change of a run is a commit flushed to disk, so a claim about a
 * checkpoint's throughput ("pays no longer go one at a time") also measures how fast the disk flushed. On a shared
 * machine a neighbour's writes can make a flush take a hundred times longer than usual; a run that met such a disk
 * measured the disk. This probe says so, and a claim judged on that run can say "not judged" instead of blaming the
 * checkpoint.
 *
 * <p>What it does: a thread of its own, on a connection of its own (outside the pool, so no wait for a connection is in
 * its figure, though the server's queue under the run's load is), inserts one row into {@value #TABLE} in the fixture's schema every {@link #EVERY} with auto-commit on.
 * The lab's server keeps {@code synchronous_commit} on, so each insert returns when its commit record is on disk. It
 * records each insert's time, in nanoseconds, into an HdrHistogram. Inserting (rather than updating one row) means two
 * probes on one schema (two served instances) never wait for each other's row lock.
 *
 * <p>Thread-safety: {@link #start} and {@link #stop} from one thread; {@link #figures()} after {@link #stop}.
 */
public final class CommitProbe {

    /** How often the probe commits. */
    public static final Duration EVERY = Duration.ofMillis(10);
    /** The most of its time the probe may spend waiting for its commits in a run that judges a throughput claim on PostgreSQL: {@link archlab.report.DurableFloor#KEPT_PACE_SHARE}. */
    public static final double KEPT_PACE_SHARE = archlab.report.DurableFloor.KEPT_PACE_SHARE;
    /** How long {@link #stop()} waits for the insert under way. */
    static final Duration STOP_WAIT = Duration.ofSeconds(30);
    /** The probe's table, created in the fixture's schema when missing. */
    public static final String TABLE = "archlab_commit_probe";

    private final Connection connection;
    private final PreparedStatement insert;
    private final Histogram commitNanos = new Histogram(3);
    private final Thread thread;
    private volatile boolean running = true;
    private long failures;
    private String firstFailure;
    private long committingNanos;
    private long probeStartNanos;
    private long probeEndNanos;

    private CommitProbe(Connection connection, PreparedStatement insert) {
        this.connection = connection;
        this.insert = insert;
        this.thread = Thread.ofPlatform().daemon().name("commit-probe").unstarted(this::probe);
    }

    /**
     * Opens the probe's connection, creates its table in {@code schema} when missing, and starts committing.
     *
     * @param jdbcUrl the lab's database
     * @param schema  a lab schema ({@code lab_…}, checked by the caller)
     * @return the running probe
     * @throws IllegalStateException when the server cannot be reached or the table cannot be made
     */
    public static CommitProbe start(String jdbcUrl, String schema) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (schema == null || !schema.matches("lab_[a-z0-9_]{1,60}")) {
            throw new IllegalArgumentException("schema must be a lab schema (lab_<label>_<hex>), was '" + schema + "'");
        }
        Connection c = null;
        try {
            c = DriverManager.getConnection(jdbcUrl);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS " + schema + "." + TABLE + " (probe_nanos bigint NOT NULL)");
            }
            CommitProbe probe = new CommitProbe(c, c.prepareStatement("INSERT INTO " + schema + "." + TABLE + " (probe_nanos) VALUES (?)"));
            probe.thread.start();
            return probe;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new IllegalStateException("could not start the commit probe at " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    private void probe() {
        long everyNanos = EVERY.toNanos();
        long next = System.nanoTime();
        probeStartNanos = next;
        while (running) {
            long start = System.nanoTime();
            try {
                insert.setLong(1, start);
                insert.executeUpdate();
                long took = Math.max(1, System.nanoTime() - start);
                commitNanos.recordValue(took);
                committingNanos += took;
            } catch (SQLException e) {
                committingNanos += System.nanoTime() - start;
                failures++;
                if (firstFailure == null) {
                    firstFailure = e.getMessage();
                }
            }
            next = Math.max(next + everyNanos, System.nanoTime());
            long wait;
            while (running && (wait = next - System.nanoTime()) > 0) {
                LockSupport.parkNanos(this, wait);
            }
        }
        probeEndNanos = System.nanoTime();
    }

    /** Stops committing (the insert under way finishes first) and closes the connection; idempotent. */
    public void stop() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(STOP_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(connection);
    }

    /**
     * @return what the probe measured; call after {@link #stop()}. A probe whose insert outlived the stop's wait (a
     *         server that stopped answering) reports a failure, so it never vouches for the disk
     */
    public Figures figures() {
        if (thread.isAlive()) {
            return new Figures(0, 0, 0, 0, 1.0, new Failures(1, "an insert was still waiting for the server after "
                    + STOP_WAIT.toSeconds() + " s"));
        }
        long n = commitNanos.getTotalCount();
        long wall = probeEndNanos - probeStartNanos;
        return new Figures(n == 0 ? 0 : commitNanos.getValueAtPercentile(50), n == 0 ? 0 : commitNanos.getValueAtPercentile(99),
                n == 0 ? 0 : commitNanos.getMaxValue(), n, wall <= 0 ? 0 : Math.min(1.0, (double) committingNanos / wall),
                new Failures(failures, firstFailure));
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the probe is over; a connection that will not close leaves nothing behind but a socket the server drops
            }
        }
    }

    /**
     * One run's commits as the probe saw them.
     *
     * @param p50Nanos     median time of a one-row commit, ns
     * @param p99Nanos     99th percentile, ns
     * @param maxNanos     the longest, ns
     * @param commits      how many the probe made
     * @param waitShare    the share of the probe's time spent waiting for its own commits, 0..1. The probe starts an
     *                     insert every 10 ms (or at once when the last one ran late), so this is about the mean commit
     *                     time over 10 ms: a few per cent on a disk that keeps pace; 25 % is a mean commit of 2.5 ms,
     *                     or a stall of a quarter of the run; 100 % a commit never shorter than 10 ms. It is measured
     *                     under the run's own load, so it holds the server's queue and the probe thread's scheduling
     *                     too, not the disk alone
     * @param failures     inserts that failed (the server went away, a statement timed out)
     */
    public record Figures(long p50Nanos, long p99Nanos, long maxNanos, long commits, double waitShare, Failures failures) {

        /**
         * Whether the store kept pace: the probe committed, never failed, and spent at most {@code share} of its time
         * waiting for its commits. A disk that flushed slowly throughout and one that froze for part of the run both
         * push the share up; a few commits of tens of milliseconds do not (one stall of a second in a 4 s run adds
         * about a quarter).
         *
         * @param share 0..1
         */
        public boolean keptPace(double share) {
            return commits > 0 && failures.count() == 0 && waitShare <= share;
        }

        /** @return e.g. {@code one-row commit every 10ms on its own connection p50=0.912ms p99=4.201ms max=9.870ms n=301 wait_share=6.1% failures=0} */
        public String line() {
            return String.format(Locale.ROOT, "one-row commit every %dms on its own connection p50=%.3fms p99=%.3fms max=%.3fms n=%d"
                    + " wait_share=%.1f%% failures=%d", EVERY.toMillis(), p50Nanos / 1e6, p99Nanos / 1e6, maxNanos / 1e6, commits,
                    waitShare * 100, failures.count())
                    + (failures.first() == null ? "" : " first_failure=" + failures.first().replaceAll("\\s+", " "));
        }
    }

    /**
     * @param count inserts that failed
     * @param first the first failure's message, or {@code null} when none failed
     */
    public record Failures(long count, String first) {

        /** No insert failed. */
        public static final Failures NONE = new Failures(0, null);
    }
}
