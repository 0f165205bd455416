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
 * Readies a fixture's pool for load as a service readies its pool before it takes traffic: every idle connection plans a
 * query on every table of the schema, and every table is read once.
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
     * @param nanos       how long it took
     */
    record Warmed(int connections, int tables, long nanos) {

        String line() {
            return String.format(Locale.ROOT, "connections=%d tables=%d took=%.1fms (before the run: each idle connection"
                    + " planned a query on every table of the schema, and every table was read once)", connections, tables, nanos / 1e6);
        }
    }

    private PoolWarmUp() {
    }

    /** @throws SQLException when a connection or a statement fails (the server went away) */
    static Warmed warm(HikariDataSource pool, String schema) throws SQLException {
        long start = System.nanoTime();
        List<Connection> held = new ArrayList<>();
        try {
            List<String> tables = tables(pool, schema);
            while (pool.getHikariPoolMXBean().getIdleConnections() > 0 && held.size() < pool.getMaximumPoolSize()) {
                Connection c = pool.getConnection();
                held.add(c);
                try (Statement s = c.createStatement()) {
                    for (String table : tables) {
                        s.executeQuery("SELECT * FROM " + quoted(table) + " LIMIT 1").close();
                    }
                }
            }
            if (!held.isEmpty()) {
                try (Statement s = held.get(0).createStatement()) {
                    for (String table : tables) {
                        s.executeQuery("SELECT count(*) FROM " + quoted(table)).close();
                    }
                }
            }
            return new Warmed(held.size(), tables.size(), System.nanoTime() - start);
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    private static List<String> tables(HikariDataSource pool, String schema) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Connection c = pool.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT tablename FROM pg_tables WHERE schemaname = ? ORDER BY tablename")) {
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
