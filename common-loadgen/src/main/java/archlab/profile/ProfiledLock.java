package archlab.profile;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link ReentrantLock} (non-fair, as {@code new ReentrantLock()}) that reports each contended
 * acquisition to JFR as a {@link LockWaitEvent}, for platform and virtual threads alike.
 *
 * <p>Behaviour is exactly ReentrantLock's: {@link #lock()} still cannot give up. An uncontended
 * acquisition costs one {@code tryLock()}; only a wait creates and commits an event (and only while a
 * recording has the event enabled).
 *
 * <p>Thread-safety: as ReentrantLock.
 */
public final class ProfiledLock extends ReentrantLock {

    private static final long serialVersionUID = 1L;

    private final String name;

    /** @param name how the lock appears in the profile, e.g. "orders" */
    public ProfiledLock(String name) {
        this.name = name;
    }

    /** @return the lock's name */
    public String name() {
        return name;
    }

    @Override
    public void lock() {
        if (tryLock()) {
            return;
        }
        LockWaitEvent event = new LockWaitEvent();
        event.begin();
        super.lock();
        event.end();
        if (event.shouldCommit()) {
            event.lockName = name;
            event.virtualThread = Thread.currentThread().isVirtual();
            event.commit();
        }
    }
}
