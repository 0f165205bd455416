package archlab.db.ladder;

import archlab.db.CommitProbe;
import archlab.db.LabDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.YearMonth;
import java.util.List;
import java.util.Optional;

/**
 * One rung's database: a measured pool ({@link LabDatabase#attach}) to {@value LadderDataSet#SCHEMA}, and a connection
 * of its own for the server's statement statistics ({@link SlowStatements}). What the ladder's run asks of PostgreSQL,
 * so that the run and its report know a database only through this package.
 *
 * <p>Thread-safety: {@link #orders} from any thread; the rest from the run's.
 */
public final class LadderDatabase implements AutoCloseable {

    private final LabDatabase pool;
    private final Connection stats;

    private LadderDatabase(LabDatabase pool, Connection stats) {
        this.pool = pool;
        this.stats = stats;
    }

    /**
     * @throws IllegalStateException when the server cannot be reached
     */
    public static LadderDatabase attach(String jdbcUrl, int poolSize) {
        LabDatabase pool = LabDatabase.attach(jdbcUrl, LadderDataSet.SCHEMA, poolSize);
        try {
            return new LadderDatabase(pool, DriverManager.getConnection(jdbcUrl));
        } catch (SQLException e) {
            pool.close();
            throw new IllegalStateException("could not connect to " + jdbcUrl + ": " + e.getMessage(), e);
        }
    }

    /** @return the interface's read, the way {@code query} says, on this pool */
    public OrdersSource orders(LadderQuery query) {
        return new RecentOrdersQuery(pool.dataSource(), query);
    }

    /** The pool's and the commit probe's figures from here (see {@link LabDatabase#startRun()}). */
    public void startRun() {
        pool.startRun();
    }

    /** Stops the figures. */
    public void endRun() {
        pool.endRun();
    }

    /** @return the pool's wait for a connection over the run, p99, µs */
    public double connectionWaitP99Micros() {
        return pool.figures().connectionWaitNanos().getValueAtPercentile(99) / 1_000.0;
    }

    /** @return the commit probe's line over the run; empty when none */
    public String commitProbeLine() {
        return pool.commitProbe().map(CommitProbe.Figures::line).orElse("");
    }

    /** @return why the statement statistics cannot be read; empty when they can */
    public Optional<String> statementsUnavailable() {
        return SlowStatements.unavailable(stats);
    }

    /** @return the server's auto_explain threshold (e.g. {@code 10ms}); empty when auto_explain is off */
    public Optional<String> autoExplainThreshold() {
        return SlowStatements.autoExplainThreshold(stats);
    }

    /** Forgets the statement statistics so far. */
    public void resetStatements() {
        try {
            SlowStatements.reset(stats);
        } catch (SQLException e) {
            throw new IllegalStateException("could not reset pg_stat_statements: " + e.getMessage(), e);
        }
    }

    /** @return the ladder's statements since {@link #resetStatements()}, slowest first */
    public List<SlowStatements.Slow> slowest() {
        try {
            return SlowStatements.read(stats);
        } catch (SQLException e) {
            throw new IllegalStateException("could not read pg_stat_statements: " + e.getMessage(), e);
        }
    }

    /** @return EXPLAIN (ANALYZE, BUFFERS) of {@code query} for {@code customer}'s {@code month} */
    public PlanSummary explain(LadderQuery query, long customer, YearMonth month) {
        try (Connection c = pool.dataSource().getConnection()) {
            return PlanSummary.explain(c, query.querySql(), s -> RecentOrdersQuery.bind(s, query, customer, month));
        } catch (SQLException e) {
            throw new IllegalStateException("could not EXPLAIN the query: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            stats.close();
        } catch (SQLException e) {
            // the statistics connection only read figures: nothing to undo
        } finally {
            pool.close();
        }
    }
}
