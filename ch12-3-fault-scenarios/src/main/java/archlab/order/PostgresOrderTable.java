package archlab.order;

import archlab.clock.NanoClock;
import archlab.downstream.Notification;
import archlab.request.RequestContext;
import archlab.trace.Span;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import javax.sql.DataSource;

/**
 * The orders and their outbox in PostgreSQL ({@code -Dlab.store=postgres}; schema:
 * {@code db/migration/V1__orders_and_outbox.sql}): ch12-1's table with its flaw taken out.
 *
 * <p>Against ch12-1's {@code PostgresOrderTable}:
 * <ul>
 *   <li><b>No transaction spans a downstream call.</b> Every operation is one statement, or one short transaction, on a
 *       connection borrowed for it alone. The service calls inventory and payment between two of them holding
 *       nothing, so a slow provider keeps no connection busy and a get never waits behind a pay.</li>
 *   <li><b>No lock row.</b> The claim is a conditional update ({@code … WHERE id = ? AND status = 'CREATED'}): of two
 *       pays of one order, in one process or two, exactly one changes a row.</li>
 *   <li><b>The outbox in the PAID update's transaction</b> ({@link #commitPaid}): {@code UPDATE orders … 'PAID'} and
 *       {@code INSERT INTO outbox} commit together or not at all, and what is committed survives a crash.</li>
 * </ul>
 * It has no injected read latency (a read costs what PostgreSQL costs). A database error becomes a
 * {@link DatabaseException} (an HTTP 500, no stack trace on the wire).
 *
 * <p>The table borrows connections from {@code dataSource} and never closes it: whoever made the pool owns it. One
 * connection it holds for its life: this process's {@link ProcessLease}, the owner of the outbox rows it appends and
 * claims and of the orders it claims for a pay. The
 * pool's connections must reach the schema the migration created (their {@code search_path}).
 *
 * <p>Thread-safety: safe from any number of threads; each operation runs on a connection of its own.
 */
public final class PostgresOrderTable implements OrderTable, AutoCloseable {

    // one statement, so one round trip and one commit: the order and its items (from three arrays) or neither
    private static final String INSERT_ORDER = """
            WITH o AS (INSERT INTO orders (customer_id, status, total_cents, version) VALUES (?, 'CREATED', ?, 0)
                       RETURNING number, id),
            i AS (INSERT INTO order_items (order_number, line_no, sku, quantity, unit_price_cents)
                  SELECT o.number, t.line - 1, t.sku, t.quantity, t.price
                  FROM o, unnest(?::text[], ?::integer[], ?::bigint[]) WITH ORDINALITY AS t(sku, quantity, price, line))
            SELECT id FROM o""";
    private static final String FIND_ORDER = "SELECT o.customer_id, o.status, o.total_cents, o.version,"
            + " i.sku, i.quantity, i.unit_price_cents FROM orders o JOIN order_items i ON i.order_number = o.number"
            + " WHERE o.id = ? ORDER BY i.line_no";
    // a change of a PAYING order needs its claim: once a peer adopted it, the database refuses this process's write
    private static final String UPDATE = "UPDATE orders SET status = ?, version = ? WHERE id = ? AND status = ?"
            + " AND (status <> 'PAYING' OR claimed_by IS NULL OR claimed_by = ?)";
    // the pay's deadline on the database's clock (every process reads the same one): an adopter waits for it
    private static final String CLAIM = "UPDATE orders SET status = 'PAYING', claims = claims + 1, claimed_by = ?,"
            + " pay_deadline = clock_timestamp() + make_interval(secs => ?::double precision)"
            + " WHERE id = ? AND status = 'CREATED' RETURNING claims";
    // tag::orphans[]
    // takes them over in the same statement: of two processes that look at once, one gets each order
    private static final String ADOPT_ORPHANS = "UPDATE orders SET claimed_by = ? WHERE status = 'PAYING' AND claimed_by <> ?"
            + " AND NOT " + ProcessLease.ALIVE.formatted("claimed_by") + " RETURNING id, claims,"
            + " GREATEST(0, EXTRACT(EPOCH FROM pay_deadline - clock_timestamp()) * 1e9)::bigint";
    // end::orphans[]

    private final DataSource dataSource;
    private final PostgresOutbox outbox;
    private final ProcessLease lease;
    private final AtomicLong reads = new AtomicLong();

    /**
     * Takes this process's {@link ProcessLease} (one connection of the pool, held until {@link #close}).
     *
     * @param dataSource the pool every operation borrows a connection from; its connections see the tables
     * @param clock      the clock of the outbox's instants
     */
    public PostgresOrderTable(DataSource dataSource, NanoClock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.lease = ProcessLease.take(dataSource);
        this.outbox = new PostgresOutbox(dataSource, clock, lease);
    }

    /** @return this process's lease, the owner of the rows it writes */
    ProcessLease lease() {
        return lease;
    }

    /** Releases this process's lease: its rows look abandoned to other processes from now on, as after its death. */
    @Override
    public void close() {
        lease.close();
    }

    @Override
    public Order read(RequestContext ctx, String orderId) {
        try (Span s = ctx.span(TABLE_READ)) {
            reads.incrementAndGet();
            return current(orderId);
        }
    }

    @Override
    public Order current(String orderId) {
        if (orderId == null) {
            return null;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(FIND_ORDER)) {
            s.setString(1, orderId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                String customerId = r.getString(1);
                OrderStatus status = OrderStatus.valueOf(r.getString(2));
                long totalCents = r.getLong(3);
                int version = r.getInt(4);
                List<Item> items = new ArrayList<>();
                do {
                    items.add(new Item(r.getString(5), r.getInt(6), r.getLong(7)));
                } while (r.next());
                return new Order(orderId, customerId, status, items, totalCents, version);
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not read order " + orderId, e);
        }
    }

    @Override
    public Order insert(String customerId, List<Item> items, long totalCents) {
        String[] skus = new String[items.size()];
        Integer[] quantities = new Integer[items.size()];
        Long[] prices = new Long[items.size()];
        for (int line = 0; line < items.size(); line++) {
            skus[line] = items.get(line).sku();
            quantities[line] = items.get(line).quantity();
            prices[line] = items.get(line).unitPriceCents();
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(INSERT_ORDER)) {
            s.setString(1, customerId);
            s.setLong(2, totalCents);
            s.setArray(3, c.createArrayOf("text", skus));
            s.setArray(4, c.createArrayOf("integer", quantities));
            s.setArray(5, c.createArrayOf("bigint", prices));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return new Order(r.getString(1), customerId, items, totalCents);
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not insert an order of " + customerId, e);
        }
    }

    @Override
    public boolean update(Order next, OrderStatus expected) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(UPDATE)) {
            return updated(s, next, expected, lease.key());
        } catch (SQLException e) {
            throw new DatabaseException("could not update order " + next.id(), e);
        }
    }

    @Override
    public java.util.Optional<Claim> claim(Order paying) {
        return claim(paying, null);
    }

    @Override
    public java.util.Optional<Claim> claim(Order paying, java.time.Duration untilDeadline) {
        if (!lease.stillHeld()) { // its claims would be a dead owner's at once: a peer adopts them; take none
            throw new DatabaseException("could not claim order " + paying.id(), new java.sql.SQLException(
                    "this process's lease on the database is gone: it takes no new pay (a live process adopts what it left)"));
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(CLAIM)) {
            s.setLong(1, lease.key());
            if (untilDeadline == null) {
                s.setNull(2, java.sql.Types.DOUBLE); // no deadline kept: an adopter asks at once
            } else {
                s.setDouble(2, untilDeadline.toNanos() / 1e9);
            }
            s.setString(3, paying.id());
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? java.util.Optional.of(new Claim(paying, r.getLong(1), untilDeadline == null
                        ? java.time.Duration.ZERO : untilDeadline)) : java.util.Optional.empty();
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not claim order " + paying.id(), e);
        }
    }

    @Override
    public List<Claim> orphanedClaims() {
        java.util.Map<String, long[]> numbers = new java.util.LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(ADOPT_ORPHANS)) {
            s.setLong(1, lease.key());
            s.setLong(2, lease.key());
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    numbers.put(r.getString(1), new long[] {r.getLong(2), r.getLong(3)}); // NULL deadline: 0, ask at once
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not look for orphaned claims", e);
        }
        return numbers.entrySet().stream().map(e -> new Claim(current(e.getKey()), e.getValue()[0],
                java.time.Duration.ofNanos(e.getValue()[1]))).toList();
    }

    // tag::commitPaid[]
    @Override
    public boolean commitPaid(Order paid, Notification notification) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false); // one transaction: the PAID row and its outbox row
            try (PreparedStatement s = c.prepareStatement(UPDATE)) {
                if (!updated(s, paid, OrderStatus.PAYING, lease.key())) {
                    c.rollback();
                    return false;
                }
                outbox.appendIn(c, notification);
                c.commit();
                outbox.committedAppend();
                return true;
            } catch (SQLException | RuntimeException e) {
                rollback(c, e);
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not mark order " + paid.id() + " PAID", e);
        }
    }
    // end::commitPaid[]

    /** None: the conditional statements are the database's to serialise. */
    @Override
    public java.util.Optional<Lock> writeLock() {
        return java.util.Optional.empty();
    }

    @Override
    public Outbox outbox() {
        return outbox;
    }

    @Override
    public long reads() {
        return reads.get();
    }

    private static boolean updated(PreparedStatement s, Order next, OrderStatus expected, long claimer) throws SQLException {
        s.setString(1, next.status().name());
        s.setInt(2, next.version());
        s.setString(3, next.id());
        s.setString(4, expected.name());
        s.setLong(5, claimer);
        return s.executeUpdate() == 1;
    }

    private static void rollback(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
