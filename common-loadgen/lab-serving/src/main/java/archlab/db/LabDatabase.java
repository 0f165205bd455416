package archlab.db;

import archlab.report.ReportLine;
import archlab.text.LabNamespace;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * One fixture's database: a fresh schema in the lab's PostgreSQL, migrated by Flyway from the checkpoint's
 * {@code src/main/resources/db/migration} ({@value #MIGRATIONS}), and a HikariCP pool whose connections see that schema
 * only, measured ({@link PoolMetrics}). {@link #close()} closes the pool and drops the schema, so runs never share rows
 * and test classes running at once never meet.
 *
 * <p>The pool is HikariCP's defaults but its size (fixed: {@code minimumIdle = maximumPoolSize}) and its name: in
 * particular its connection timeout stays 30 s, and auto-commit on (a store that needs a transaction says so). Nothing
 * of the request reaches the pool: a borrower waits for a connection however late its request already is. The driver
 * is pgJDBC's defaults but {@code prepareThreshold={@value #PREPARE_THRESHOLD}}: a service's statements are few and
 * every one is hot, so each connection has the server parse a statement once and binds it from then on (the default,
 * 5, parses it five times on every connection first, in the run's first moments).
 *
 * <p>Each fixture calls {@link #startRun()} just before the load (forgetting its own preparation) and {@link #endRun()}
 * after; {@link #reportLines()} then gives the report's lines:
 * <pre>
 * db_pool=size=10 connection_wait p50=…ms p99=…ms max=…ms n=… active_max=10 waiting_max=… timeouts=0 connection_held p50=…ms p99=…ms
 * db_pool_timeline=interval=100ms from=the run's start connection_wait_max_ms=… active_max=… waiting_max=…
 * store_commit_probe=one-row commit every 10ms on its own connection p50=…ms p99=…ms max=…ms n=… wait_share=…% failures=0
 * </pre>
 *
 * <p>Thread-safety: {@link #dataSource()} from any thread; the run's lifecycle ({@link #startRun}, {@link #endRun},
 * {@link #close}) from the fixture's.
 */
public final class LabDatabase implements AutoCloseable {

    /** Where Flyway finds a checkpoint's migrations: its {@code src/main/resources/db/migration}. */
    public static final String MIGRATIONS = "classpath:db/migration";
    /** The report line of the pool's figures. */
    public static final String POOL_LINE = "db_pool";
    /** The report line of the pool's view per interval. */
    public static final String POOL_TIMELINE_LINE = "db_pool_timeline";
    /** The report line of the {@link CommitProbe}'s figures: the disk's pace during the run. */
    public static final String COMMIT_PROBE_LINE = "store_commit_probe";
    /** HikariCP's own default pool size. */
    public static final int DEFAULT_POOL_SIZE = 10;
    /** pgJDBC's {@code prepareThreshold}: a statement is prepared on the server at its first execution on a connection. */
    static final String PREPARE_THRESHOLD = "1";
    /** The largest pool a fixture may open: the lab's server allows 250 connections (.servers/postgres.sh). */
    public static final int MAX_POOL_SIZE = 200;

    private final String jdbcUrl;
    private final String schema;
    /** The fixture's label ({@link #open}), whose statements the next fixture of it warms; null when {@link #attach}ed. */
    private final String label;
    private final HikariDataSource pool;
    private final PoolMetrics metrics;
    /** Whether {@link #close()} drops the schema: yes for one {@link #open} created, no for one {@link #attach}ed to. */
    private final boolean ownsSchema;
    /** The disk's pace during the run: started by {@link #startRun()}, stopped by {@link #endRun()}. */
    private CommitProbe probe;
    private CommitProbe.Figures probeFigures;
    /** What {@link #startRun()} warmed; null before. */
    private PoolWarmUp.Warmed warmed;

    /** A fixture's schema: {@code lab_<label>_<hex>}, at most 30 characters of the label. */
    private static final LabNamespace.Spelling SCHEMA = new LabNamespace.Spelling("_", 30, "",
            Pattern.compile("lab_[a-z0-9_]{1,60}"), "schema must be a lab schema (lab_<label>_<hex>), was '%s'");

    private LabDatabase(String jdbcUrl, LabNamespace schema, String label, HikariDataSource pool, PoolMetrics metrics) {
        this.jdbcUrl = jdbcUrl;
        this.label = label;
        this.schema = schema.name();
        this.ownsSchema = schema.owned();
        this.pool = pool;
        this.metrics = metrics;
    }

    /**
     * Creates a schema named {@code lab_<label>_<random>}, runs the migrations found on the thread's context class
     * loader into it, and opens a pool of {@code poolSize} connections to it.
     *
     * @param jdbcUrl  e.g. {@code jdbc:postgresql://127.0.0.1:5432/archlab?user=archlab}
     * @param label    a few letters naming the fixture, kept in the schema's name (others are dropped)
     * @param poolSize 1..{@value #MAX_POOL_SIZE}
     * @throws IllegalArgumentException for a bad pool size
     * @throws IllegalStateException    when the server cannot be reached or the migrations fail (nothing is left behind)
     */
    public static LabDatabase open(String jdbcUrl, String label, int poolSize) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        checkedPoolSize("pool size", poolSize);
        LabNamespace namespace = LabNamespace.open(label, SCHEMA);
        String schema = namespace.name();
        try {
            Flyway.configure(Thread.currentThread().getContextClassLoader()).dataSource(jdbcUrl, null, null)
                    .schemas(schema).createSchemas(true).locations(MIGRATIONS).failOnMissingLocations(true)
                    .load().migrate();
        } catch (RuntimeException e) {
            dropQuietly(jdbcUrl, schema, e);
            throw new IllegalStateException("could not create the schema " + schema + " at " + jdbcUrl + ": " + e.getMessage(), e);
        }
        return pooled(jdbcUrl, namespace, label, poolSize);
    }

    /**
     * Opens a measured pool of {@code poolSize} connections to a schema that exists already — one that another JVM
     * {@link #open opened} and migrated (a served checkpoint on the runner's database). {@link #close()} closes the pool
     * and leaves the schema to its owner.
     *
     * @throws IllegalArgumentException for a bad pool size or schema name
     * @throws IllegalStateException    when the server cannot be reached
     */
    public static LabDatabase attach(String jdbcUrl, String schema, int poolSize) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        checkedPoolSize("pool size", poolSize);
        return pooled(jdbcUrl, LabNamespace.attach(schema, SCHEMA), null, poolSize);
    }

    private static LabDatabase pooled(String jdbcUrl, LabNamespace namespace, String label, int poolSize) {
        String schema = namespace.name();
        HikariDataSource[] created = new HikariDataSource[1];
        PoolMetrics metrics = new PoolMetrics(poolSize, () -> created[0] == null ? null : created[0].getHikariPoolMXBean());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setSchema(schema);
        config.setPoolName("lab-" + schema);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.addDataSourceProperty("prepareThreshold", PREPARE_THRESHOLD);
        config.setMetricsTrackerFactory(metrics);
        try {
            created[0] = new HikariDataSource(config);
        } catch (RuntimeException e) {
            if (namespace.owned()) {
                dropQuietly(jdbcUrl, schema, e);
            }
            throw new IllegalStateException("could not open a pool to " + jdbcUrl + ": " + e.getMessage(), e);
        }
        return new LabDatabase(jdbcUrl, namespace, label, created[0], metrics);
    }

    /** @return why {@code jdbcUrl} cannot be used now (the driver's message), or empty when a connection opened */
    public static Optional<String> unreachable(String jdbcUrl) {
        Properties p = new Properties();
        p.setProperty("connectTimeout", "3");
        p.setProperty("loginTimeout", "3");
        try (Connection c = DriverManager.getConnection(jdbcUrl, p)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** @return {@code size} when it is 1..{@value #MAX_POOL_SIZE}; else IllegalArgumentException naming {@code what} */
    public static int checkedPoolSize(String what, int size) {
        if (size < 1 || size > MAX_POOL_SIZE) {
            throw new IllegalArgumentException(what + " must be 1.." + MAX_POOL_SIZE + " connections, was " + size);
        }
        return size;
    }

    /** @return the measured pool; its connections' {@code search_path} is this fixture's schema */
    public DataSource dataSource() {
        return pool;
    }

    /** @return the schema's name */
    public String schema() {
        return schema;
    }

    /**
     * Waits for the pool's connections, warms them ({@link PoolWarmUp}: report line {@value PoolWarmUp#LINE}; with the
     * statements an earlier fixture of this label prepared, {@link PreparedStatementsSeen}), forgets
     * the pool's figures so far (the fixture's preparation), starts its series and the {@link CommitProbe}: call just
     * before the load.
     *
     * @throws IllegalStateException when the pool cannot be warmed or the probe cannot start (the server went away since
     *                               the pool opened)
     */
    public void startRun() {
        fillPool();
        try {
            warmed = PoolWarmUp.warm(pool, schema, label == null ? List.of() : PreparedStatementsSeen.of(label));
        } catch (SQLException e) {
            throw new IllegalStateException("could not warm the pool to " + schema + ": " + e.getMessage(), e);
        }
        metrics.startRun();
        stopProbe();
        probeFigures = null;
        probe = CommitProbe.start(jdbcUrl, schema);
    }

    /** How long {@link #startRun()} waits for the pool to hold all its connections. */
    static final java.time.Duration FILL_TIMEOUT = java.time.Duration.ofSeconds(10);

    /**
     * Waits until the pool holds every connection it may open, as a service waits for its pool before it takes
     * traffic: HikariCP opens a new pool's connections one by one in the background, and on a loaded machine a server
     * process per connection takes tens of milliseconds to start, so the run's first second would otherwise measure the
     * pool's birth (waits past the requests' deadlines) instead of the checkpoint. Borrows nothing: the service's own
     * background loops may be using the pool already.
     *
     * @throws IllegalStateException when the pool has not opened its connections within {@link #FILL_TIMEOUT}
     */
    private void fillPool() {
        long deadline = System.nanoTime() + FILL_TIMEOUT.toNanos();
        int wanted = pool.getMaximumPoolSize();
        while (pool.getHikariPoolMXBean().getTotalConnections() < wanted) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the pool to " + schema + " opened " + pool.getHikariPoolMXBean()
                        .getTotalConnections() + " of its " + wanted + " connections in " + FILL_TIMEOUT.toSeconds()
                        + " s: is the server overloaded or out of connections (max_connections)?");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the pool to " + schema + " opened its connections", e);
            }
        }
    }

    /** Stops the series and the probe and freezes the figures: call after the load, before the fixture's own checks. */
    public void endRun() {
        metrics.endRun();
        stopProbe();
    }

    /**
     * @return how long a one-row commit took on its own connection while the run loaded the server (the disk's pace,
     *         beside the pool's figures); empty before a run has ended
     */
    public Optional<CommitProbe.Figures> commitProbe() {
        return Optional.ofNullable(probeFigures);
    }

    private void stopProbe() {
        CommitProbe p = probe;
        probe = null; // whatever happens below, a second call does not wait for the same probe again
        if (p != null) {
            p.stop();
            probeFigures = p.figures();
        }
    }

    /** @return the pool's figures since {@link #startRun()} (frozen at {@link #endRun()}) */
    public PoolFigures figures() {
        return metrics.figures();
    }

    /** @return the connections in use now (the pool's MXBean) */
    public int activeNow() {
        return pool.getHikariPoolMXBean().getActiveConnections();
    }

    /** @return the threads waiting for a connection now (the pool's MXBean) */
    public int waitingNow() {
        return pool.getHikariPoolMXBean().getThreadsAwaitingConnection();
    }

    /**
     * @return the report's {@value #POOL_LINE} and {@value #POOL_TIMELINE_LINE} lines, then the connection wait's p50 and
     *         p99 (ms) and the most connections active and threads waiting at once, as numbers; then the
     *         {@value #COMMIT_PROBE_LINE} line and, when the probe ran, its p99 (ms) and wait share as numbers; last the
     *         {@value PoolWarmUp#LINE} line (what {@link #startRun()} warmed)
     */
    public List<ReportLine> reportLines() {
        PoolFigures f = figures();
        double waitP50Millis = f.connectionWaitNanos().getTotalCount() == 0 ? 0 : f.connectionWaitNanos().getValueAtPercentile(50) / 1e6;
        double waitP99Millis = f.connectionWaitNanos().getTotalCount() == 0 ? 0 : f.connectionWaitNanos().getValueAtPercentile(99) / 1e6;
        List<ReportLine> lines = new java.util.ArrayList<>(List.of(new ReportLine(POOL_LINE, f.line()), new ReportLine(POOL_TIMELINE_LINE, f.timelineLine()),
                // the same figures as numbers, for tables and the book's markers
                new ReportLine("db_connection_wait_p50_ms", waitP50Millis),
                new ReportLine("db_connection_wait_p99_ms", waitP99Millis),
                new ReportLine("db_active_max", f.activeMax()),
                new ReportLine("db_waiting_max", f.waitingMax()),
                new ReportLine(COMMIT_PROBE_LINE, probeFigures == null ? "not run" : probeFigures.line())));
        lines.addAll(probeNumbers());
        lines.add(new ReportLine(PoolWarmUp.LINE, warmed == null ? "not run" : warmed.line()));
        return lines;
    }

    /**
     * @return the probe's p99 (ms) and wait share as numbers, for tables and the book's markers; none when the probe did
     *         not run (a 0 would read as a perfect disk)
     */
    private List<ReportLine> probeNumbers() {
        return probeFigures == null ? List.of() : List.of(new ReportLine("store_commit_p99_ms", probeFigures.p99Nanos() / 1e6),
                new ReportLine("store_commit_wait_share", probeFigures.waitShare()));
    }

    /**
     * Remembers the statements the service had the server prepare, for the next fixture of this label
     * ({@link PreparedStatementsSeen}), then closes the pool and, for a schema it {@link #open}ed, drops the schema with
     * everything in it.
     */
    @Override
    public void close() {
        try {
            stopProbe();
            rememberStatements();
        } finally {
            closePoolAndSchema();
        }
    }

    /** How long {@link #close()} waits for a connection to read the prepared statements from. */
    static final java.time.Duration REMEMBER_WAIT = java.time.Duration.ofSeconds(1);

    private void rememberStatements() {
        if (label == null) {
            return;
        }
        try {
            pool.getHikariConfigMXBean().setConnectionTimeout(REMEMBER_WAIT.toMillis()); // closing: never wait 30 s for a dead server
            PreparedStatementsSeen.remember(label, pool);
        } catch (SQLException | RuntimeException e) {
            // what was read before the failure is kept; the next fixture readies that much (its db_warm line says how many)
        }
    }

    private void closePoolAndSchema() {
        metrics.stop();
        try {
            pool.close();
        } finally {
            if (ownsSchema) {
                try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
                    s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                } catch (SQLException e) {
                    throw new IllegalStateException("could not drop the schema " + schema + " at " + jdbcUrl + ": " + e.getMessage(), e);
                }
            }
        }
    }

    private static void dropQuietly(String jdbcUrl, String schema, RuntimeException cause) {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
