package archlab.db.ladder;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The article's 10 ms rule as a tool: PostgreSQL's own statement statistics ({@code pg_stat_statements}, which
 * {@code .servers/postgres.sh} preloads, with {@code auto_explain} logging the plan of every statement over
 * {@value #RULE_MILLIS} ms to the server's log) read for one rung's measured phase: the ladder's statements, slowest
 * first. A statement whose slowest execution passed {@value #RULE_MILLIS} ms is one the rule says to EXPLAIN.
 *
 * <p>Only the ladder's own statements are listed (those reading {@code orders} or stamping {@code users}): the commit
 * probe's inserts and the pool's warm-up are the lab's, not the interface's.
 *
 * <p>Thread-safety: stateless.
 */
public final class SlowStatements {

    /** The article's threshold: "任何 SQL 只要执行时间超过 10ms就必须EXPLAIN". */
    public static final int RULE_MILLIS = 10;
    /** How many statements a rung lists at most. */
    public static final int LISTED = 3;

    /**
     * One statement's figures over the phase.
     *
     * @param query      its text as the server normalised it ({@code $1} for each parameter)
     * @param calls      executions
     * @param meanMillis mean execution time, ms (a lock wait inside the statement included)
     * @param maxMillis  slowest execution, ms
     */
    public record Slow(String query, long calls, double meanMillis, double maxMillis) {
        /** @return whether the 10 ms rule says to EXPLAIN it */
        public boolean overRule() {
            return maxMillis > RULE_MILLIS;
        }
    }

    private SlowStatements() {
    }

    /**
     * @return why the statistics cannot be read or reset on this server (and how to get them); empty when they can. Resets
     *         them when they can.
     */
    public static Optional<String> unavailable(Connection c) {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'")) {
            r.next();
            if (r.getInt(1) == 1) {
                try (Statement probe = c.createStatement()) {
                    probe.execute("SELECT count(*) FROM pg_stat_statements");
                    probe.execute("SELECT pg_stat_statements_reset()"); // the run resets before each phase: it must be allowed
                    return Optional.empty();
                }
            }
            return Optional.of("pg_stat_statements is not installed in this database: restart the server with"
                    + " `bash .servers/postgres.sh stop && bash .servers/postgres.sh start`, which preloads it");
        } catch (SQLException e) {
            return Optional.of("pg_stat_statements cannot be read (" + e.getMessage().lines().findFirst().orElse("")
                    + "): restart the server with `bash .servers/postgres.sh stop && bash .servers/postgres.sh start`");
        }
    }

    /**
     * @return the server's {@code auto_explain.log_min_duration} (e.g. {@code 10ms}); empty when auto_explain is not
     *         loaded
     */
    public static Optional<String> autoExplainThreshold(Connection c) {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT current_setting('auto_explain.log_min_duration', true)")) {
            r.next();
            String v = r.getString(1);
            return v == null || v.isEmpty() || v.equals("-1") ? Optional.empty() : Optional.of(v);
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /** Forgets every statement's figures so far: call just before the phase. */
    public static void reset(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_stat_statements_reset()");
        }
    }

    /** @return the ladder's statements since {@link #reset}, slowest execution first, at most {@value #LISTED} */
    public static List<Slow> read(Connection c) throws SQLException {
        List<Slow> found = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT query, calls, mean_exec_time, max_exec_time FROM pg_stat_statements"
                        + " WHERE (query LIKE 'SELECT %" + LadderQuery.QUERY_MARK + "%'"
                        + " OR query LIKE '" + LadderQuery.STAMP_PREFIX + "%')"
                        + " ORDER BY max_exec_time DESC LIMIT " + LISTED)) {
            while (r.next()) {
                found.add(new Slow(r.getString(1), r.getLong(2), r.getDouble(3), r.getDouble(4)));
            }
        }
        return found;
    }
}
