package archlab.order;

import archlab.request.RequestContext;
import archlab.trace.Span;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The order table in PostgreSQL ({@code -Dlab.store=postgres}; schema: {@code db/migration/V1__order_table.sql}), with
 * ch12-1's flaw kept where real services have it: the global lock is a <b>row lock held by a transaction</b>, and the
 * transaction stays open across the inventory, payment and notify calls.
 *
 * <p>One unit of work ({@link #locked}), in three segments:
 * <ol>
 *   <li>{@value #CONNECTION_WAIT}: borrow a connection from the pool ({@link DataSource#getConnection()});</li>
 *   <li>{@value OrderTable#LOCK_WAIT}: {@code BEGIN} and {@code SELECT … FROM order_table_lock … FOR UPDATE} on the
 *       one row that stands for the table's lock — the connection is already held while waiting here;</li>
 *   <li>{@value OrderTable#LOCK_HELD}: the work (the service's downstream calls included), then {@code COMMIT},
 *       which releases the row lock; the connection goes back to the pool.</li>
 * </ol>
 *
 * <p>Where it differs from the in-memory lock ({@link InMemoryOrderTable}):
 * <ul>
 *   <li><b>Two queues, and the first one drains the pool.</b> In memory every waiter parks on one lock. Here a waiter
 *       first needs a connection, and then holds it while it waits for the row lock: with a pool of N, one transaction
 *       holds the lock, N − 1 hold connections doing nothing but wait for it, and every other request — a get of an
 *       unrelated order, the ledger's check after the run — queues inside the pool for a connection. The pool is
 *       exhausted by waiters, not by work: the article's "connection pool exhausted".</li>
 *   <li><b>Nobody gives up, and neither clock is the request's.</b> No {@code lock_timeout} is set (PostgreSQL's default:
 *       wait for ever), and the pool keeps its own default connection timeout (HikariCP: 30 s), after which a waiter
 *       fails with the pool's error rather than the request's deadline. The in-memory lock has no timeout at all.</li>
 *   <li><b>Order of service.</b> PostgreSQL queues row-lock waiters in arrival order and the pool hands connections out
 *       roughly in order; the in-memory lock is non-fair (a newcomer may barge in).</li>
 *   <li><b>Every unit of work costs round trips and a commit.</b> Even a get writes: {@code FOR UPDATE} marks the row,
 *       so every commit is flushed to the write-ahead log — under the global lock, one after the other.</li>
 *   <li><b>A failed unit of work is rolled back</b>; in memory what it changed stays (see {@link OrderTable}).</li>
 *   <li>{@link #isPaid} reads the committed row without the lock (a plain {@code SELECT}, which row locks never block).</li>
 * </ul>
 * A database error becomes a {@link DatabaseException} (an HTTP 500, no stack trace on the wire).
 *
 * <p>The table borrows connections from {@code dataSource} and never closes it: whoever made the pool owns it. The
 * pool's connections must reach the schema the migration created (their {@code search_path}).
 *
 * <p>Thread-safety: safe from any number of threads; each unit of work runs on a connection of its own.
 */
public final class PostgresOrderTable implements OrderTable {

    /** The segment of a unit of work waiting for a pooled connection. */
    public static final String CONNECTION_WAIT = "db.connection.wait";

    private static final String TAKE_LOCK = "SELECT id FROM order_table_lock WHERE id = 1 FOR UPDATE";
    private static final String INSERT_ORDER = "INSERT INTO orders (customer_id, status, total_cents, version)"
            + " VALUES (?, 'CREATED', ?, 0) RETURNING number, id";
    private static final String INSERT_ITEM = "INSERT INTO order_items (order_number, line_no, sku, quantity, unit_price_cents)"
            + " VALUES (?, ?, ?, ?, ?)";
    private static final String FIND_ORDER = "SELECT o.number, o.customer_id, o.status, o.total_cents, o.version,"
            + " i.sku, i.quantity, i.unit_price_cents FROM orders o JOIN order_items i ON i.order_number = o.number"
            + " WHERE o.id = ? ORDER BY i.line_no";
    private static final String MARK_PAID = "UPDATE orders SET status = 'PAID', version = version + 1"
            + " WHERE id = ? AND status = 'CREATED'";
    private static final String IS_PAID = "SELECT status FROM orders WHERE id = ?";

    private final DataSource dataSource;

    /** @param dataSource the pool the units of work borrow connections from; its connections see the order table */
    public PostgresOrderTable(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    // tag::unitOfWork[]
    @Override
    public <T> T locked(RequestContext ctx, Function<Rows, T> work) {
        Connection connection;
        try (Span wait = ctx.span(CONNECTION_WAIT)) {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new DatabaseException("no connection from the pool", e);
        }
        try (Connection c = connection) {
            c.setAutoCommit(false);
            try (Span wait = ctx.span(LOCK_WAIT); PreparedStatement lock = c.prepareStatement(TAKE_LOCK)) {
                lock.executeQuery().close();
            }
            try (Span held = ctx.span(LOCK_HELD)) {
                T result;
                try {
                    result = work.apply(new SqlRows(c));
                } catch (RuntimeException | Error e) {
                    rollback(c, e);
                    throw e;
                }
                c.commit();
                return result;
            }
        } catch (SQLException e) {
            throw new DatabaseException("a unit of work on the order table failed", e);
        }
    }

    // end::unitOfWork[]

    @Override
    public boolean isPaid(String orderId) {
        if (orderId == null) {
            return false;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(IS_PAID)) {
            s.setString(1, orderId);
            try (ResultSet r = s.executeQuery()) {
                return r.next() && r.getString(1).equals(OrderStatus.PAID.name());
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not read order " + orderId, e);
        }
    }

    private static void rollback(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** The rows through the unit of work's connection, inside its transaction. */
    private record SqlRows(Connection c) implements Rows {

        @Override
        public Order insert(String customerId, List<Item> items, long totalCents) {
            try (PreparedStatement order = c.prepareStatement(INSERT_ORDER);
                 PreparedStatement item = c.prepareStatement(INSERT_ITEM)) {
                order.setString(1, customerId);
                order.setLong(2, totalCents);
                long number;
                String id;
                try (ResultSet r = order.executeQuery()) {
                    r.next();
                    number = r.getLong(1);
                    id = r.getString(2);
                }
                for (int line = 0; line < items.size(); line++) {
                    Item it = items.get(line);
                    item.setLong(1, number);
                    item.setInt(2, line);
                    item.setString(3, it.sku());
                    item.setInt(4, it.quantity());
                    item.setLong(5, it.unitPriceCents());
                    item.addBatch();
                }
                item.executeBatch();
                return new Order(id, customerId, items, totalCents);
            } catch (SQLException e) {
                throw new DatabaseException("could not insert an order of " + customerId, e);
            }
        }

        @Override
        public Order find(String orderId) {
            if (orderId == null) {
                return null;
            }
            try (PreparedStatement s = c.prepareStatement(FIND_ORDER)) {
                s.setString(1, orderId);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        return null;
                    }
                    String customerId = r.getString(2);
                    OrderStatus status = OrderStatus.valueOf(r.getString(3));
                    long totalCents = r.getLong(4);
                    int version = r.getInt(5);
                    List<Item> items = new ArrayList<>();
                    do {
                        items.add(new Item(r.getString(6), r.getInt(7), r.getLong(8)));
                    } while (r.next());
                    return new Order(orderId, customerId, items, totalCents, status, version);
                }
            } catch (SQLException e) {
                throw new DatabaseException("could not read order " + orderId, e);
            }
        }

        @Override
        public void markPaid(Order order) {
            try (PreparedStatement s = c.prepareStatement(MARK_PAID)) {
                s.setString(1, order.id());
                if (s.executeUpdate() != 1) {
                    throw new IllegalStateException("order " + order.id() + " was not CREATED in the table any more");
                }
            } catch (SQLException e) {
                throw new DatabaseException("could not mark order " + order.id() + " PAID", e);
            }
            order.markPaid();
        }
    }
}
