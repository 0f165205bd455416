package archlab.profile;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link ReentrantLock} (non-fair, as {@code new ReentrantLock()}) that reports each contended
 * acquisition to JFR as a {@link LockWaitEvent}, for platform and virtual threads alike.
 *
 * <p><b>Contract: every way of acquiring reports its wait, and a wait that gives up reports it too.</b>
 * <ul>
 *   <li>{@link #lock()}, {@link #lockInterruptibly()} and {@link #tryLock(long, TimeUnit)}, when they have to
 *       wait and then get the lock, commit one event: the wait's duration, the waiter's stack,
 *       {@code acquired = true}.</li>
 *   <li>A wait that ends <em>without</em> the lock, because {@code tryLock(timeout, unit)} timed out or the thread
 *       was interrupted in {@code lockInterruptibly} or {@code tryLock(timeout, unit)}, commits the same event with
 *       the time it waited and {@code acquired = false}. Time spent queueing for a lock is contention whether or
 *       not it ends with the lock, so the profile's lock table counts both; the flag tells them apart in JDK
 *       Mission Control or {@code jfr print --events archlab.LockWait}.</li>
 *   <li>Nothing is reported when there was no wait: an acquisition that succeeds at once (also a reentrant one),
 *       {@link #tryLock()}, {@code tryLock} with a timeout of zero or less, and a thread already interrupted when
 *       it calls {@code lockInterruptibly} or {@code tryLock(timeout, unit)} (it throws before trying, as
 *       {@code ReentrantLock} does).</li>
 *   <li>Not covered: {@code newCondition().await()} takes the lock back inside the JDK after it is signalled;
 *       that wait is not reported by this class (on a platform thread it is still a {@code jdk.ThreadPark}).</li>
 * </ul>
 *
 * <p><b>Trap: the event's stack starts where {@code commit()} is called.</b> JFR takes a Java event's stack trace
 * from the method that calls {@code commit()} (checked on JDK 25), and that leaf is what the lock table names. So
 * each acquiring method commits its own event, and the lock table reads {@code ProfiledLock.lock} (or
 * {@code .lockInterruptibly}, {@code .tryLock}), the method the caller used, rather than a private helper.
 * Everything else about recording a wait is one private path: {@code waitBegins} starts the clock,
 * {@code waitEnded} stops it and fills in the event. The acquiring call itself stays in the public method too, so a
 * platform thread's {@code jdk.ThreadPark} has no extra frames either.
 *
 * <p>Behaviour is exactly ReentrantLock's: {@link #lock()} still cannot give up, interruption and timeouts behave
 * as documented there. An uncontended acquisition costs one {@code tryLock()}; only a wait creates and commits
 * an event (and only while a recording has the event enabled and the wait is above its threshold).
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

    /** As {@link ReentrantLock#lock()}; a wait is reported as acquired (this method cannot give up). */
    @Override
    public void lock() {
        if (tryLock()) {
            return;
        }
        LockWaitEvent wait = waitBegins();
        super.lock();
        if (waitEnded(wait, true)) {
            wait.commit();
        }
    }

    /**
     * As {@link ReentrantLock#lockInterruptibly()}; a wait is reported as acquired, or, when the thread is
     * interrupted while waiting, as not acquired with the time it waited before the {@link InterruptedException}.
     */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException(); // as ReentrantLock: before trying; there was no wait to report
        }
        if (tryLock()) {
            return;
        }
        LockWaitEvent wait = waitBegins();
        boolean acquired = false;
        try {
            super.lockInterruptibly();
            acquired = true;
        } finally {
            if (waitEnded(wait, acquired)) {
                wait.commit();
            }
        }
    }

    /**
     * As {@link ReentrantLock#tryLock(long, TimeUnit)}; a wait is reported as acquired when this returns
     * {@code true}, and as not acquired, with the time waited, when it returns {@code false} (timed out) or throws
     * {@link InterruptedException}. A timeout of zero or less never waits and reports nothing, like {@link #tryLock()}.
     */
    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException(); // as ReentrantLock: before trying; there was no wait to report
        }
        if (tryLock()) {
            return true;
        }
        if (nanos <= 0) {
            return false;
        }
        LockWaitEvent wait = waitBegins();
        boolean acquired = false;
        try {
            acquired = super.tryLock(nanos, TimeUnit.NANOSECONDS);
            return acquired;
        } finally {
            if (waitEnded(wait, acquired)) {
                wait.commit();
            }
        }
    }

    /** Starts timing a wait: the one place a {@link LockWaitEvent} is created. */
    private static LockWaitEvent waitBegins() {
        LockWaitEvent wait = new LockWaitEvent();
        wait.begin();
        return wait;
    }

    /**
     * Stops timing a wait and fills in its event: the one place its fields are set.
     *
     * @param wait     from {@link #waitBegins()}
     * @param acquired whether the wait ended with this thread holding the lock
     * @return whether to commit it (a recording wants it); the caller commits, see the trap in the class comment
     */
    private boolean waitEnded(LockWaitEvent wait, boolean acquired) {
        wait.end();
        if (!wait.shouldCommit()) {
            return false;
        }
        wait.lockName = name;
        wait.virtualThread = Thread.currentThread().isVirtual();
        wait.acquired = acquired;
        return true;
    }
}
