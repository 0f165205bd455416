package archlab.order;

import archlab.clock.NanoClock;
import archlab.downstream.Notification;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LatencySummary;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The {@link Outbox} as a table in PostgreSQL ({@code -Dlab.store=postgres}; schema:
 * {@code db/migration/V1__orders_and_outbox.sql}): the promise the in-memory outbox can keep only while its process
 * lives, kept across a crash.
 *
 * <ul>
 *   <li><b>Appended in the PAID update's transaction</b> ({@link PostgresOrderTable#commitPaid}): a committed PAID
 *       order has its row here, and a rolled-back one has none. The message id is the primary key, so a second append of
 *       one message fails and changes nothing; delivered rows stay (state DELIVERED) to keep it so.</li>
 *   <li><b>Claimed with {@code FOR UPDATE SKIP LOCKED}</b> ({@link #claimDue}): one statement picks the oldest due rows
 *       no other transaction has locked and marks them IN_FLIGHT. Two relays — two threads, or two processes — never
 *       claim the same row; neither waits for the other.</li>
 *   <li><b>Every row has an owner</b>: the {@link ProcessLease} key of the process that appended it or last claimed it.
 *       A relay works its own process's rows, and the rows of an owner whose lease is gone — a process that died.
 *       A live neighbour's rows are the neighbour's. A row's instants are readings of its owner's clock; a relay
 *       cannot compare them with its own, so a dead owner's row, PENDING or IN_FLIGHT, is due now, and when claimed it is
 *       <em>adopted</em>: its owner becomes this process, its instants restart from this clock's now (its retry
 *       horizon starts afresh), and its time to notify is not recorded (it would be measured from the adoption).</li>
 *   <li><b>A row stuck IN_FLIGHT</b> in a live process — its delivery's mark failed — is claimed again after
 *       {@link #STUCK_AFTER}.</li>
 *   <li><b>What a crash leaves IN_FLIGHT</b> — claimed, perhaps delivered, not marked — a live process's claim takes
 *       over as soon as the dead owner's lease is gone, while it runs (no restart needed), and {@link #recoverInFlight}
 *       (run when a relay starts) makes PENDING again, for this process's rows and a dead owner's, never a live
 *       neighbour's: delivered a second time with the same message id, which the receiver recognises. At least once,
 *       never lost.</li>
 * </ul>
 *
 * <p>What is the table's and what is this process's: {@link #depth}, {@link #inDelivery}, {@link #isDrained},
 * {@link #parked}, {@link #entries}, {@link #entry} and {@link #isDelivered} read the table (every process's rows);
 * {@link #appended}, {@link #delivered}, {@link #parkings}, {@link #redrives}, {@link #redrivenIds} and
 * {@link #timeToNotify} count what this outbox did since it was made.
 *
 * <p>A database error becomes a {@link DatabaseException}. Thread-safety: safe from any number of threads; every
 * method is one statement (or one transaction) on a connection of its own.
 */
public final class PostgresOutbox implements Outbox {

    private static final String COLUMNS = "message_id, order_id, appended_nanos, retrying_since_nanos, attempts, due_nanos,"
            + " state, last_error, seq";
    private static final String INSERT = "INSERT INTO outbox (message_id, order_id, state, owner, appended_nanos,"
            + " retrying_since_nanos, due_nanos) VALUES (?, ?, 'PENDING', ?, ?, ?, ?)";
    // tag::claim[]
    private static final String CLAIM_DUE = """
            WITH p AS (SELECT ?::bigint AS me, ?::bigint AS now),
            due AS (SELECT o.message_id FROM outbox o, p
                    WHERE (o.state = 'PENDING' AND o.owner = p.me AND o.due_nanos <= p.now
                       OR o.state = 'IN_FLIGHT' AND o.owner = p.me AND o.claimed_nanos <= p.now - ?
                       OR o.state IN ('PENDING', 'IN_FLIGHT') AND o.owner <> p.me AND NOT %s)
                    ORDER BY o.seq LIMIT ? FOR UPDATE OF o SKIP LOCKED)
            UPDATE outbox o SET state = 'IN_FLIGHT', attempts = o.attempts + 1, claimed_nanos = p.now,
                   adopted = o.adopted OR o.owner <> p.me,
                   appended_nanos = CASE WHEN o.owner <> p.me THEN p.now ELSE o.appended_nanos END,
                   retrying_since_nanos = CASE WHEN o.owner <> p.me THEN p.now ELSE o.retrying_since_nanos END,
                   due_nanos = CASE WHEN o.owner <> p.me THEN p.now ELSE o.due_nanos END,
                   owner = p.me
            FROM due, p WHERE o.message_id = due.message_id
            RETURNING\s""".formatted(ProcessLease.ALIVE.formatted("o.owner")) + prefixed("o.", COLUMNS);
    // end::claim[]
    private static final String MARK_DELIVERED = "UPDATE outbox SET state = 'DELIVERED' WHERE message_id = ? AND state = 'IN_FLIGHT'"
            + " RETURNING appended_nanos, adopted, owner";
    private static final String MARK_RETRY = "UPDATE outbox SET state = 'PENDING', due_nanos = ?, last_error = ?"
            + " WHERE message_id = ? AND state = 'IN_FLIGHT' RETURNING " + COLUMNS;
    private static final String MARK_PARKED = "UPDATE outbox SET state = 'PARKED', last_error = ?"
            + " WHERE message_id = ? AND state = 'IN_FLIGHT' RETURNING " + COLUMNS;
    private static final String RECOVER = "UPDATE outbox SET state = 'PENDING' WHERE state = 'IN_FLIGHT' AND (owner = ? OR NOT "
            + ProcessLease.ALIVE.formatted("owner") + ")";
    private static final String REDRIVE = "UPDATE outbox SET state = 'PENDING', owner = ?, due_nanos = ?,"
            + " retrying_since_nanos = ?, adopted = adopted OR owner <> ?,"
            + " appended_nanos = CASE WHEN owner <> ? THEN ? ELSE appended_nanos END, redrives = redrives + 1"
            + " WHERE message_id = ? AND state = 'PARKED'";
    private static final String OPEN = "SELECT " + COLUMNS + " FROM outbox WHERE state <> 'DELIVERED'";

    private final DataSource dataSource;
    private final NanoClock clock;
    private final long owner;

    /**
     * How long a row may stay IN_FLIGHT in this process before its claim is taken again: a relay whose mark failed
     * (the database refused {@link #markDelivered} after the delivery) leaves it there, and nothing else would ever
     * deliver it while this process lives. Far longer than a delivery attempt (1 s), so a slow one is not doubled.
     */
    static final Duration STUCK_AFTER = Duration.ofSeconds(30);
    private final AtomicLong appended = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong parkings = new AtomicLong();
    private final AtomicLong redrives = new AtomicLong();
    private final List<String> redrivenIds = new CopyOnWriteArrayList<>();
    private final LatencyHistogram timeToNotify = new LatencyHistogram();

    /**
     * A relay's shortest wait between empty polls of this table, 10 ms: every poll is a claim statement (an UPDATE … SKIP
     * LOCKED finding nothing, mostly), and at the relay's 1 ms a process would keep a backend busy on the pays' own cores
     * with 1,000 of them a second. A notification waits about 5 ms longer on average; the pay waits for none of it.
     */
    @Override
    public Duration pollFloor() {
        return Duration.ofMillis(10);
    }

    /**
     * @param dataSource the pool the outbox borrows connections from; its connections see the outbox table
     * @param clock      the clock of this outbox's instants
     * @param lease      this process's lease: the owner of every row this outbox appends or claims
     */
    public PostgresOutbox(DataSource dataSource, NanoClock clock, ProcessLease lease) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.owner = lease.key();
    }

    /** Appends in a transaction of its own; the service appends inside the PAID update's ({@link #appendIn}). */
    @Override
    public void append(Notification notification) {
        Objects.requireNonNull(notification, "notification");
        try (Connection c = dataSource.getConnection()) {
            appendIn(c, notification); // autocommit: committed when it returns
            committedAppend();
        } catch (SQLException e) {
            throw new DatabaseException("could not append " + notification.messageId(), e);
        }
    }

    /**
     * Appends {@code notification} on {@code c}, inside whatever transaction {@code c} has open; the caller counts it
     * with {@link #committedAppend()} once that commits.
     *
     * @throws IllegalStateException if the message id is in the outbox already (the transaction is then aborted)
     */
    void appendIn(Connection c, Notification notification) throws SQLException {
        long now = clock.nanoTime();
        try (PreparedStatement s = c.prepareStatement(INSERT)) {
            s.setString(1, notification.messageId());
            s.setString(2, notification.orderId());
            s.setLong(3, owner);
            s.setLong(4, now);
            s.setLong(5, now);
            s.setLong(6, now);
            s.executeUpdate();
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) { // unique_violation: the message id's primary key
                throw new IllegalStateException("message " + notification.messageId() + " is already in the outbox", e);
            }
            throw e;
        }
    }

    /** Counts one append whose transaction committed (the caller of {@link #appendIn} calls it after the commit). */
    void committedAppend() {
        appended.incrementAndGet();
    }

    @Override
    public List<Entry> claimDue(int max) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(CLAIM_DUE)) {
            s.setLong(1, owner);
            s.setLong(2, clock.nanoTime());
            s.setLong(3, STUCK_AFTER.toNanos());
            s.setInt(4, max);
            List<Row> rows = rows(s);
            rows.sort(Comparator.comparingLong(Row::seq));
            return rows.stream().map(Row::entry).toList();
        } catch (SQLException e) {
            throw new DatabaseException("could not claim due outbox rows", e);
        }
    }

    @Override
    public void markDelivered(String messageId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(MARK_DELIVERED)) {
            s.setString(1, messageId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("message " + messageId + " is not in flight");
                }
                delivered.incrementAndGet();
                if (!r.getBoolean(2) && r.getLong(3) == owner) {
                    timeToNotify.record(clock.nanoTime() - r.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not mark " + messageId + " delivered", e);
        }
    }

    @Override
    public Entry markRetry(String messageId, String error, Duration wait) {
        return changeInFlight(MARK_RETRY, messageId, s -> {
            s.setLong(1, clock.nanoTime() + wait.toNanos());
            s.setString(2, error);
            s.setString(3, messageId);
        });
    }

    @Override
    public Entry markParked(String messageId, String reason) {
        Entry parked = changeInFlight(MARK_PARKED, messageId, s -> {
            s.setString(1, reason);
            s.setString(2, messageId);
        });
        parkings.incrementAndGet();
        return parked;
    }

    @Override
    public int recoverInFlight() {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(RECOVER)) {
            s.setLong(1, owner);
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new DatabaseException("could not recover in-flight outbox rows", e);
        }
    }

    @Override
    public boolean redrive(String messageId) {
        long now = clock.nanoTime();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(REDRIVE)) {
            s.setLong(1, owner);
            s.setLong(2, now);
            s.setLong(3, now);
            s.setLong(4, owner);
            s.setLong(5, owner);
            s.setLong(6, now);
            s.setString(7, messageId);
            if (s.executeUpdate() == 0) {
                return false;
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not redrive " + messageId, e);
        }
        redrives.incrementAndGet();
        if (!redrivenIds.contains(messageId)) {
            redrivenIds.add(messageId);
        }
        return true;
    }

    @Override
    public int redriveParked() {
        int count = 0;
        for (Entry e : parked()) {
            if (redrive(e.messageId())) {
                count++;
            }
        }
        return count;
    }

    @Override
    public long depth() {
        return count("SELECT count(*) FROM outbox WHERE state <> 'DELIVERED'");
    }

    @Override
    public long inDelivery() {
        return count("SELECT count(*) FROM outbox WHERE state IN ('PENDING', 'IN_FLIGHT')");
    }

    @Override
    public boolean isDrained() {
        return depth() == 0;
    }

    @Override
    public List<Entry> parked() {
        return select(OPEN + " AND state = 'PARKED' ORDER BY seq", null);
    }

    @Override
    public List<Entry> entries() {
        return select(OPEN + " ORDER BY seq", null);
    }

    @Override
    public Optional<Entry> entry(String messageId) {
        return select(OPEN + " AND message_id = ?", messageId).stream().findFirst();
    }

    @Override
    public boolean isDelivered(String messageId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT 1 FROM outbox WHERE message_id = ? AND state = 'DELIVERED'")) {
            s.setString(1, messageId);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        } catch (SQLException e) {
            throw new DatabaseException("could not read " + messageId, e);
        }
    }

    @Override
    public long appended() {
        return appended.get();
    }

    @Override
    public long delivered() {
        return delivered.get();
    }

    @Override
    public long parkings() {
        return parkings.get();
    }

    @Override
    public long redrives() {
        return redrives.get();
    }

    @Override
    public List<String> redrivenIds() {
        return List.copyOf(redrivenIds);
    }

    /** Time from append to delivery of what this outbox appended and delivered itself (adopted rows are not counted). */
    @Override
    public LatencySummary timeToNotify() {
        return timeToNotify.summary();
    }

    private interface Binder {
        void bind(PreparedStatement s) throws SQLException;
    }

    private Entry changeInFlight(String sql, String messageId, Binder binder) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(s);
            List<Row> rows = rows(s);
            if (rows.isEmpty()) {
                throw new IllegalStateException("message " + messageId + " is not in flight");
            }
            return rows.get(0).entry();
        } catch (SQLException e) {
            throw new DatabaseException("could not change outbox row " + messageId, e);
        }
    }

    private List<Entry> select(String sql, String messageId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            if (messageId != null) {
                s.setString(1, messageId);
            }
            return rows(s).stream().map(Row::entry).toList();
        } catch (SQLException e) {
            throw new DatabaseException("could not read the outbox", e);
        }
    }

    private long count(String sql) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql);
             ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new DatabaseException("could not count the outbox", e);
        }
    }

    private record Row(Entry entry, long seq) {
    }

    private static List<Row> rows(PreparedStatement s) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                Entry e = new Entry(new Notification(r.getString(1), r.getString(2)), r.getLong(3), r.getLong(4),
                        r.getInt(5), r.getLong(6), State.valueOf(r.getString(7)), r.getString(8));
                rows.add(new Row(e, r.getLong(9)));
            }
        }
        return rows;
    }

    private static String prefixed(String prefix, String columns) {
        return String.join(", ", java.util.Arrays.stream(columns.split(",\\s*")).map(c -> prefix + c).toList());
    }
}
