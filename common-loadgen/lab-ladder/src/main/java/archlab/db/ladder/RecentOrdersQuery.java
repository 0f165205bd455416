package archlab.db.ladder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The interface's read on PostgreSQL, the way a {@link LadderQuery} says: its query, and the customer's stamp before
 * the query in one transaction ({@link LadderQuery.LockOrder#UPDATE_THEN_QUERY}) or after it, on its own.
 *
 * <p>Thread-safety: safe from many threads (a connection per call from the pool).
 */
public final class RecentOrdersQuery implements OrdersSource {

    private final DataSource dataSource;
    private final LadderQuery query;

    public RecentOrdersQuery(DataSource dataSource, LadderQuery query) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.query = Objects.requireNonNull(query, "query");
    }

    @Override
    public Read read(long customer, YearMonth month) {
        long asked = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            long got = System.nanoTime();
            List<Map<String, Object>> orders = read(c, customer, month);
            return new Read(orders, got - asked, System.nanoTime() - got);
        } catch (SQLException e) {
            throw new Refused("the database refused: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
        }
    }

    // tag::lock-order[]
    private List<Map<String, Object>> read(Connection c, long customer, YearMonth month) throws SQLException {
        if (query.lockOrder() == LadderQuery.LockOrder.UPDATE_THEN_QUERY) {
            c.setAutoCommit(false);
            try {
                stamp(c, customer);                          // the customer's row is locked from here…
                List<Map<String, Object>> orders = select(c, customer, month);
                c.commit();                                  // …to here, the commit's flush included
                return orders;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
        List<Map<String, Object>> orders = select(c, customer, month);   // no lock held
        stamp(c, customer);                                                // a lock for one statement's commit
        return orders;
    }
    // end::lock-order[]

    private static void stamp(Connection c, long customer) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(LadderQuery.stampSql())) {
            s.setLong(1, customer);
            s.executeUpdate();
        }
    }

    private List<Map<String, Object>> select(Connection c, long customer, YearMonth month) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(query.querySql())) {
            bind(s, query, customer, month);
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                ResultSetMetaData meta = r.getMetaData();
                while (r.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        Object v = r.getObject(i);
                        row.put(meta.getColumnLabel(i), v instanceof java.sql.Timestamp t ? t.toInstant().toString() : v);
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    /** Binds {@link LadderQuery#querySql()}'s parameters. */
    static void bind(PreparedStatement s, LadderQuery query, long customer, YearMonth month) throws SQLException {
        s.setLong(1, customer);
        if (query.timeFilter() == LadderQuery.TimeFilter.FUNCTION_OF_COLUMN) {
            s.setString(2, month.toString());
        } else {
            s.setObject(2, month.atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
            s.setObject(3, month.plusMonths(1).atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
        }
    }
}
