package archlab.db;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Readies a fixture's pool for load as a service readies its pool before it takes traffic: every idle connection plans
 * every statement earlier fixtures of the same label had the server prepare in this JVM ({@link PreparedStatementsSeen}:
 * for a JVM's first run, the JIT warm-up's; a generic plan each, nothing executed) and a query on every table of the
 * schema, and every table is read once. Planning loads the catalog entries the statements name into each backend; the
 * driver's own prepared statements are still parsed and planned once at their first execution on a connection.
 *
 * <p>The trap it avoids: a run whose first requests pay for cold server processes. Each pooled connection is a
 * PostgreSQL backend process of its own, with its own catalog caches; the first statement on a table in a backend
 * loads that table's and its indexes' catalog entries (the planner opens every index to choose a path), milliseconds
 * on a busy machine, once per connection and table. Warming them all before the run moves that cost out of the
 * measured seconds; the table scans put the tables' pages in the server's buffers.
 *
 * <p>Only idle connections are warmed, borrowed all at once so that each one is a different backend; connections
 * others hold (a process lease, a relay's pass) are left alone. Stateless; call it from the fixture's thread.
 */
final class PoolWarmUp {

    /** The report line that says what was warmed. */
    static final String LINE = "db_warm";

    /**
     * @param connections connections warmed
     * @param tables      tables of the schema, each planned on every warmed connection and read once
     * @param statements  statements earlier fixtures prepared, each tried on every warmed connection
     * @param refused     of those, statements the server would not plan here (a table the schema lacks …): the most
     *                    any one connection refused
     * @param nanos       how long it took
     */
    record Warmed(int connections, int tables, int statements, int refused, long nanos) {

        String line() {
            return String.format(Locale.ROOT, "connections=%d tables=%d statements=%d took=%.1fms (before the run: each idle"
                    + " connection planned the %d statements the warm-up's service prepared%s and a query on every table of"
                    + " the schema, and every table was read once)", connections, tables, statements - refused, nanos / 1e6,
                    statements - refused, refused == 0 ? "" : " (" + refused + " more refused)");
        }
    }

    private PoolWarmUp() {
    }

    /**
     * @param statements what an earlier fixture of this label prepared ({@link PreparedStatementsSeen#of})
     * @throws SQLException when a connection or a table's statement fails (the server went away)
     */
    static Warmed warm(HikariDataSource pool, String schema, List<PreparedStatementsSeen.Prepared> statements) throws SQLException {
        long start = System.nanoTime();
        List<String> tables = tables(pool, schema);
        int[] refused = {0};
        int connections = eachIdleConnection(pool, (index, c) -> {
            c.setAutoCommit(true); // a refused statement must not abort the ones after it
            try (Statement s = PreparedStatementsSeen.unprepared(c.createStatement())) {
                for (String table : tables) {
                    s.executeQuery((index == 0 ? "SELECT count(*) FROM " : "SELECT * FROM ") + quoted(table)
                            + (index == 0 ? "" : " LIMIT 1")).close(); // the first reads every table whole
                }
                refused[0] = Math.max(refused[0], planned(s, statements));
            }
        });
        return new Warmed(connections, tables.size(), statements.size(), refused[0], System.nanoTime() - start);
    }

    /** Work on one borrowed connection; {@code index} counts the connections borrowed before it. */
    interface OnEachIdle {
        void accept(int index, Connection c) throws SQLException;
    }

    /**
     * Borrows the pool's idle connections all at once — each then is a different backend; connections others hold (a
     * process lease, a relay's pass) are left alone — runs {@code work} on each as it is borrowed, and gives them all
     * back.
     *
     * @return how many were borrowed
     * @throws SQLException when a connection or {@code work} fails (the ones borrowed are given back)
     */
    static int eachIdleConnection(HikariDataSource pool, OnEachIdle work) throws SQLException {
        List<Connection> held = new ArrayList<>();
        try {
            while (pool.getHikariPoolMXBean().getIdleConnections() > 0 && held.size() < pool.getMaximumPoolSize()) {
                Connection c = pool.getConnection();
                held.add(c);
                work.accept(held.size() - 1, c);
            }
            return held.size();
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    /**
     * Plans each statement on {@code s}'s connection — {@code PREPARE}, {@code EXPLAIN EXECUTE} under a forced generic
     * plan, {@code DEALLOCATE} — in auto-commit, so one the server refuses changes nothing and stops nothing.
     *
     * @return how many the server refused
     */
    private static int planned(Statement s, List<PreparedStatementsSeen.Prepared> statements) throws SQLException {
        if (statements.isEmpty()) {
            return 0;
        }
        int refused = 0;
        s.execute("SET plan_cache_mode = force_generic_plan");
        try {
            for (PreparedStatementsSeen.Prepared p : statements) {
                try {
                    s.execute(p.prepareAs(WARM_NAME));
                    try {
                        s.executeQuery(p.explainExecute(WARM_NAME)).close();
                    } finally {
                        s.execute("DEALLOCATE " + WARM_NAME);
                    }
                } catch (SQLException notHere) {
                    refused++;
                }
            }
        } finally {
            s.execute("RESET plan_cache_mode");
        }
        return refused;
    }

    /** The name a statement is prepared under while it is planned; deallocated at once. */
    private static final String WARM_NAME = "archlab_warm";

    private static List<String> tables(HikariDataSource pool, String schema) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Connection c = pool.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT tablename FROM pg_tables WHERE schemaname = ? ORDER BY tablename")) {
            PreparedStatementsSeen.unprepared(s);
            s.setString(1, schema);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    tables.add(r.getString(1));
                }
            }
        }
        return tables;
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
