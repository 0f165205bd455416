package archlab.db.ladder;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.YearMonth;

/**
 * The ladder's data: customers and their orders in the schema {@value #SCHEMA} of the lab's PostgreSQL, made by the
 * database itself ({@code generate_series}, every value a function of the row's number, so two builds of one size are
 * the same rows) and kept between runs of one clone: {@link #ensure} builds it only when the schema holds another size
 * or another version of the generator, or when asked to rebuild ({@code -Dladder.rebuild}).
 *
 * <p>The shape the plans need: {@code orders} has a primary key on {@code order_id} and an index on
 * {@code (user_id, create_time)} (the rung sets which: {@link LadderQuery#indexDdl()}); each row carries a wide
 * {@code address} and {@code remark} that {@code SELECT *} drags along. Customers 1 to {@value #BUSY_CUSTOMERS} are
 * busy: each holds one order in every {@value #BUSY_EVERY} × {@value #BUSY_CUSTOMERS}, spread over the whole table (an
 * order's row lies on its own page, as a long-lived customer's orders do), about {@code orders / 333} each; every
 * other customer holds about 20. All orders fall in {@value #YEAR}, spread evenly over its months.
 *
 * <p>Thread-safety: none needed; called once per run, before the load.
 */
public final class LadderDataSet {

    /** The schema the data lives in, kept between runs. */
    public static final String SCHEMA = "lab_ladder_orders";
    /** The orders index the rungs redefine. */
    public static final String ORDERS_INDEX = "orders_user_time";
    /** The generator's version: a change to the rows' recipe bumps it, so a kept schema of an older one is rebuilt. */
    public static final int VERSION = 1;
    /** The customers whose orders half the requests ask for. */
    public static final int BUSY_CUSTOMERS = 3;
    /** One order in this many goes to a busy customer. */
    public static final int BUSY_EVERY = 111;
    /** The year every order falls in. */
    public static final int YEAR = 2026;
    /** Orders per ordinary customer, on average. */
    public static final int ORDERS_PER_CUSTOMER = 20;
    /** The fewest orders {@link #ensure} builds: fewer, and no plan would differ. */
    public static final int MIN_ORDERS = 10_000;
    /** The most: about 2 GB of table and index on the lab's throwaway cluster. */
    public static final int MAX_ORDERS = 10_000_000;

    /**
     * What {@link #ensure} found or built.
     *
     * @param orders    rows in {@code orders}
     * @param customers rows in {@code users}
     * @param rebuilt   whether this call built it (false: kept from an earlier run)
     * @param buildTime how long the build took (zero when kept)
     */
    public record Built(long orders, long customers, boolean rebuilt, Duration buildTime) {
        /** @return orders of one busy customer, about */
        public long ordersPerBusyCustomer() {
            return orders / BUSY_EVERY / BUSY_CUSTOMERS;
        }
    }

    private LadderDataSet() {
    }

    /** @return the customers a data set of {@code orders} orders has */
    public static long customersFor(long orders) {
        return Math.max(1_000, orders / ORDERS_PER_CUSTOMER);
    }

    /** @return {@code orders} when within {@value #MIN_ORDERS}..{@value #MAX_ORDERS}; IllegalArgumentException otherwise */
    public static int checkedOrders(int orders) {
        if (orders < MIN_ORDERS || orders > MAX_ORDERS) {
            throw new IllegalArgumentException("the ladder's data set holds " + MIN_ORDERS + ".." + MAX_ORDERS
                    + " orders, was " + orders);
        }
        return orders;
    }

    /**
     * Makes sure {@value #SCHEMA} holds {@code orders} orders of this {@link #VERSION}, building it when not (or when
     * {@code rebuild}).
     *
     * @throws IllegalArgumentException for a size out of range
     * @throws IllegalStateException    when the server refuses (its message)
     */
    public static Built ensure(String jdbcUrl, int orders, boolean rebuild) {
        checkedOrders(orders);
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            if (!rebuild && kept(c, orders)) {
                return new Built(orders, customersFor(orders), false, Duration.ZERO);
            }
            long start = System.nanoTime();
            build(c, orders);
            return new Built(orders, customersFor(orders), true, Duration.ofNanos(System.nanoTime() - start));
        } catch (SQLException e) {
            throw new IllegalStateException("could not build the ladder's data set in " + SCHEMA + ": " + e.getMessage(), e);
        }
    }

    private static boolean kept(Connection c, int orders) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = '" + SCHEMA + "' AND table_name = 'ladder_meta'")) {
            r.next();
            if (r.getInt(1) == 0) {
                return false;
            }
        }
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT orders, version FROM " + SCHEMA + ".ladder_meta")) {
            return r.next() && r.getLong(1) == orders && r.getInt(2) == VERSION;
        }
    }

    // tag::data-set[]
    private static void build(Connection c, int orders) throws SQLException {
        long customers = customersFor(orders);
        long ordinary = customers - BUSY_CUSTOMERS;
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("SET search_path = " + SCHEMA);
            s.execute("CREATE TABLE users (user_id bigint PRIMARY KEY, name text NOT NULL, last_seen timestamptz)");
            s.execute("INSERT INTO users SELECT g, 'customer ' || g, NULL FROM generate_series(1, " + customers + ") g");
            s.execute("CREATE TABLE orders (order_id bigint PRIMARY KEY, user_id bigint NOT NULL, status text NOT NULL,"
                    + " total_cents bigint NOT NULL, create_time timestamptz NOT NULL, address text NOT NULL,"
                    + " remark text NOT NULL)");
            s.execute("INSERT INTO orders SELECT g,"
                    + " CASE WHEN g % " + BUSY_EVERY + " = 0 THEN 1 + (g / " + BUSY_EVERY + ") % " + BUSY_CUSTOMERS
                    + "      ELSE " + (BUSY_CUSTOMERS + 1) + " + (g * 7919) % " + ordinary + " END,"
                    + " (ARRAY['CREATED', 'PAID', 'SHIPPED', 'DONE'])[1 + g % 4],"
                    + " 100 + (g * 31) % 100000,"
                    + " timestamptz '" + YEAR + "-01-01 00:00:00+00' + ((g * 104729) % 31536000) * interval '1 second',"
                    + " 'No. ' || g % 997 || ' Some Street, District ' || g % 31 || ', Some City',"
                    + " repeat(md5(g::text), 4)"
                    + " FROM generate_series(1::bigint, " + orders + ") g");
            s.execute("CREATE INDEX " + ORDERS_INDEX + " ON orders (user_id, create_time)");
            // VACUUM sets the visibility map: an index-only scan then skips the table for every page it vouches for
            s.execute("VACUUM (ANALYZE) users");
            s.execute("VACUUM (ANALYZE) orders");
            s.execute("CREATE TABLE ladder_meta (orders bigint NOT NULL, version int NOT NULL, built_at timestamptz NOT NULL)");
            s.execute("INSERT INTO ladder_meta VALUES (" + orders + ", " + VERSION + ", now())");
        }
    }
    // end::data-set[]

    /**
     * Gives the orders index the rung's definition (dropping and creating it only when it differs), then vacuums, so
     * that the plan a rung measures is the one its index allows.
     *
     * @return whether the index was rebuilt
     * @throws IllegalStateException when the server refuses
     */
    public static boolean defineIndex(String jdbcUrl, LadderQuery query) {
        try (Connection c = DriverManager.getConnection(jdbcUrl); Statement s = c.createStatement()) {
            s.execute("SET search_path = " + SCHEMA);
            String wanted = query.indexDdl();
            boolean covering = wanted.contains("INCLUDE");
            try (ResultSet r = s.executeQuery("SELECT indexdef FROM pg_indexes WHERE schemaname = '" + SCHEMA
                    + "' AND indexname = '" + ORDERS_INDEX + "'")) {
                if (r.next() && r.getString(1).contains("INCLUDE") == covering) {
                    return false;
                }
            }
            s.execute("DROP INDEX IF EXISTS " + ORDERS_INDEX);
            s.execute(wanted);
            s.execute("VACUUM (ANALYZE) orders");
            return true;
        } catch (SQLException e) {
            throw new IllegalStateException("could not define the index " + ORDERS_INDEX + ": " + e.getMessage(), e);
        }
    }

    /** @return the month {@code index} (0..11) of {@value #YEAR} */
    public static YearMonth month(int index) {
        return YearMonth.of(YEAR, 1 + Math.floorMod(index, 12));
    }
}
