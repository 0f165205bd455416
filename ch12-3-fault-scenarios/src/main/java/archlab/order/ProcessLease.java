package archlab.order;

import archlab.clock.NanoClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * This process's lease on the database: a PostgreSQL session-level advisory lock on a random key, held on a connection
 * of its own for as long as the process lives. The rows a process owns — the outbox rows it appends and claims, the
 * orders it claims for a pay — carry its key; when the process dies, its connection closes and PostgreSQL releases the
 * lock with it. {@link #ALIVE} asks whether a key's owner still holds its lock.
 *
 * <p>The trap it avoids: taking over another process's work because it <em>might</em> be dead. A row's owner is only
 * a name; a process that starts and treats every row of another owner as abandoned also takes the rows of a
 * neighbour that is alive and in the middle of them — it redelivers the neighbour's notifications, or releases the stock
 * of a pay whose charge is about to land. With the lease, "abandoned" is a fact the database keeps: the owner's
 * session is gone.
 *
 * <p>Costs one connection of the pool for the process's life. Thread-safety: the key is fixed at {@link #take};
 * {@link #stillHeld} from any number of threads (one of them looks, the others never wait for it); {@link #close}
 * from one thread.
 */
public final class ProcessLease implements AutoCloseable {

    /**
     * A boolean SQL expression over a key column: whether the process holding that key's lease is alive. Use it with
     * {@link String#formatted}: {@code ALIVE.formatted("o.owner")}.
     */
    public static final String ALIVE = "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
            + " AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            + " AND ((l.classid::bigint << 32) | l.objid::bigint) = %s)";

    /** How often {@link #stillHeld()} looks at the lease's session; between looks it answers the last look. */
    public static final java.time.Duration LOOK_EVERY = java.time.Duration.ofSeconds(1);

    private final long key;
    private final Connection held;
    private final DataSource dataSource;
    private final NanoClock clock;
    private final AtomicBoolean looking = new AtomicBoolean();
    private volatile long lastLookNanos;
    private volatile boolean heldAtLastLook = true;

    private ProcessLease(long key, Connection held, DataSource dataSource, NanoClock clock) {
        this.key = key;
        this.held = held;
        this.dataSource = dataSource;
        this.clock = clock;
        this.lastLookNanos = clock.nanoTime();
    }

    /**
     * Takes a lease on a fresh random key: borrows a connection from {@code dataSource} and holds
     * {@code pg_advisory_lock(key)} on it until {@link #close}.
     */
    public static ProcessLease take(DataSource dataSource) {
        return take(dataSource, NanoClock.SYSTEM);
    }

    /** {@link #take(DataSource)} with the clock of {@link #LOOK_EVERY} given (tests advance a fake one). */
    static ProcessLease take(DataSource dataSource, NanoClock clock) {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(clock, "clock");
        long key = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        Connection c = null;
        try {
            c = dataSource.getConnection();
            c.setAutoCommit(true);
            try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_lock(?)")) {
                s.setLong(1, key);
                s.executeQuery().close();
            }
            return new ProcessLease(key, c, dataSource, clock);
        } catch (SQLException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw new DatabaseException("could not take this process's lease", e);
        }
    }

    /** @return the key this process's rows carry */
    public long key() {
        return key;
    }

    /**
     * Whether this process still holds its lease, as of the last look that ended: a look is due {@link #LOOK_EVERY}
     * after the last one, and while one caller makes it the answer is the look before, older by that look's length (one
     * round trip on the lease's own connection, at most 2 s; when that fails, a query on a pooled connection, which may
     * wait for the pool). A session that dropped — the server ended it, the network cut it — took the lock
     * with it: a peer may already be adopting this process's claims, so a process whose lease is gone takes no new work.
     * A look that the lease's connection does not answer in time is checked from another connection of the pool (is
     * the lock still granted?), so a slow moment is not taken for a death; a lease found gone stays gone (its key is
     * dead: taking a new lease is not done here).
     *
     * <p>Thread-safe, and no caller waits for another's look: when a look is due, one caller makes it and the others
     * answer the last look meanwhile. (The trap: a look made under a lock every caller takes — once a second, every
     * claim of the process would queue behind one round trip, and behind the 2 s a stalled session may take.)
     */
    public boolean stillHeld() {
        if (heldAtLastLook && due() && looking.compareAndSet(false, true)) {
            try {
                if (due()) { // another caller may have looked between the check and the flag
                    boolean held = answers(this.held) || grantedSeenFromAnotherConnection();
                    lastLookNanos = clock.nanoTime();
                    if (!held) {
                        heldAtLastLook = false; // gone stays gone: never set back to true
                    }
                }
            } finally {
                looking.set(false);
            }
        }
        return heldAtLastLook;
    }

    private boolean due() {
        return clock.nanoTime() - lastLookNanos >= LOOK_EVERY.toNanos();
    }

    private static boolean answers(Connection c) {
        try {
            return c.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    private boolean grantedSeenFromAnotherConnection() {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT " + ALIVE.formatted("?::bigint"))) {
            s.setLong(1, key);
            try (java.sql.ResultSet r = s.executeQuery()) {
                return r.next() && r.getBoolean(1);
            }
        } catch (SQLException e) {
            return true; // the database cannot be asked: no evidence the lease is gone, and a claim will fail on its own
        }
    }

    /** Releases the lease: the process's rows look abandoned from now on, as after its death. */
    @Override
    public void close() {
        heldAtLastLook = false;
        try (Connection c = held; PreparedStatement s = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            s.setLong(1, key); // explicitly: the pool keeps the session open when the connection goes back to it
            s.executeQuery().close();
        } catch (SQLException e) {
            throw new DatabaseException("could not release this process's lease", e);
        }
    }
}
