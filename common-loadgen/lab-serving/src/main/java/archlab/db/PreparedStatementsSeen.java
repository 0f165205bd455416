package archlab.db;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The statements a fixture's service had the server prepare, remembered per fixture label for the later fixtures of that
 * label in this JVM — for a JVM's first measured run, what the JIT warm-up's scratch fixture ran; for later runs, what
 * every earlier fixture of the label ran — and readied by {@link PoolWarmUp} on every idle connection of the next
 * fixture's pool before its load. A JVM with no earlier fixture of the label (no warm-up) readies none.
 *
 * <p>The trap it avoids: a run whose first tenths of a second measure cold server processes. Each pooled connection
 * is a PostgreSQL backend of its own, and the first executions of a statement in a backend look up every relation,
 * index, type and function it names in the catalog and plan it — many times the cost of the same statement once warm.
 * A fresh pool meets that once per connection and statement, all of it in the load's first moments, on the cores the
 * load needs. A service warms its statements before it takes traffic; the lab warms the very statements the service
 * used, read back from the server ({@code pg_prepared_statements}: the lab's pool has the driver prepare a statement on
 * the server at its first execution on a connection, {@code prepareThreshold=1}), so it knows no checkpoint's SQL.
 * Readying one is planning a copy of it, which loads the catalog entries of what it names into that backend; the
 * driver's own prepared statement is still parsed and planned once at its first execution there.
 *
 * <p>Only data statements are kept (those {@code PREPARE} accepts: SELECT, INSERT, UPDATE, DELETE, WITH, VALUES); the
 * lab's own statements on the pool are never prepared on the server ({@link #unprepared}), so none is taken for the
 * service's. Readying one plans it and never executes it. Thread-safe.
 */
final class PreparedStatementsSeen {

    /** A statement as the server prepared it: its text ({@code $1}, {@code $2} …) and its parameters' types. */
    record Prepared(String sql, List<String> parameterTypes) {

        /** @return {@code PREPARE name(types) AS sql} */
        String prepareAs(String name) {
            return "PREPARE " + name + (parameterTypes.isEmpty() ? "" : "(" + String.join(", ", parameterTypes) + ")")
                    + " AS " + sql;
        }

        /** @return {@code EXPLAIN EXECUTE name(NULL, …)}: plans it (a generic plan needs no values), runs nothing */
        String explainExecute(String name) {
            return "EXPLAIN EXECUTE " + name + (parameterTypes.isEmpty() ? ""
                    : "(" + String.join(", ", java.util.Collections.nCopies(parameterTypes.size(), "NULL")) + ")");
        }
    }

    private static final Pattern DATA_STATEMENT = Pattern.compile("^\\s*(select|insert|update|delete|with|values)\\b",
            Pattern.CASE_INSENSITIVE);
    /** At most this many statements per label: a service with more is not a lab checkpoint's. */
    static final int MAX_PER_LABEL = 200;

    private static final Map<String, Set<Prepared>> BY_LABEL = new ConcurrentHashMap<>();

    private PreparedStatementsSeen() {
    }

    /**
     * Reads the statements prepared on every idle connection of {@code pool} and adds them to {@code label}'s. Call
     * after the load, when the service's statements are prepared; borrows the idle connections all at once.
     *
     * @throws SQLException when a connection or the read fails (the server went away)
     */
    static void remember(String label, HikariDataSource pool) throws SQLException {
        Set<Prepared> seen = BY_LABEL.computeIfAbsent(label, l -> java.util.Collections.synchronizedSet(new LinkedHashSet<>()));
        PoolWarmUp.eachIdleConnection(pool, (index, c) -> {
            try (Statement s = unprepared(c.createStatement());
                 ResultSet r = s.executeQuery("SELECT statement, parameter_types::text[] FROM pg_prepared_statements"
                         + " WHERE NOT from_sql ORDER BY prepare_time")) {
                while (r.next() && seen.size() < MAX_PER_LABEL) {
                    String sql = r.getString(1);
                    if (DATA_STATEMENT.matcher(sql).find()) {
                        seen.add(new Prepared(sql, types(r.getArray(2))));
                    }
                }
            }
        });
    }

    /** @return {@code label}'s statements so far, in the order first seen; none for a label never remembered */
    static List<Prepared> of(String label) {
        Set<Prepared> seen = BY_LABEL.get(label);
        if (seen == null) {
            return List.of();
        }
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /**
     * @return {@code s}, which the driver will never prepare on the server (a lab statement on the service's pool must
     *         not be remembered as the service's) and whose text it sends as written (no JDBC escapes)
     */
    static Statement unprepared(Statement s) throws SQLException {
        s.unwrap(org.postgresql.PGStatement.class).setPrepareThreshold(0);
        s.setEscapeProcessing(false);
        return s;
    }

    /** Forgets {@code label}'s statements (tests). */
    static void forget(String label) {
        BY_LABEL.remove(label);
    }

    private static List<String> types(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        Object[] names = (Object[]) array.getArray(); // regtype's output: quoted where a name needs it
        return Arrays.stream(names).map(String.class::cast).toList();
    }
}
