package archlab.profile;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Classifying: is a wait a <em>lock</em> wait, and which lock (the "blocker") does the lock table charge it to.
 *
 * <p><b>Trap 1: a park is not a lock wait.</b> {@code jdk.ThreadPark} fires for every {@code LockSupport.park}:
 * idle pool threads, {@code parkNanos} sleeps without a blocker, latches, semaphores, queues, futures, and
 * {@code Condition.await} (which parks on the lock's own {@code AbstractQueuedSynchronizer}, but waits for a
 * signal, not for the lock). Only a park whose {@code parkedClass} is a lock belongs in the lock table; the
 * others are counted as ignored so that "no lock waits" can be told from "no parks".
 *
 * <p><b>Trap 2: one {@code ProfiledLock} wait, two events.</b> On a platform thread a contended
 * {@code ProfiledLock} is recorded by JFR as a {@code jdk.ThreadPark} on {@code ReentrantLock$NonfairSync} and by
 * the lock itself as {@code archlab.LockWait}. Counting both would double the wait. Only a virtual thread's
 * {@code archlab.LockWait} counts: JFR records no park for it (measured on JDK 25), so it is the only record.
 *
 * <p>Blocker names: the {@code parkedClass} of a park, the {@code monitorClass} of a {@code jdk.JavaMonitorEnter}
 * ({@value #UNKNOWN_MONITOR} without one), {@code archlab.profile.ProfiledLock[<name>]} of a {@code ProfiledLock}.
 *
 * <p>An instance remembers its answers (deciding may load a class) and is used by one read at a time; the
 * static methods are pure and thread-safe.
 */
final class LockBlockers {

    /** The blocker of a {@code jdk.JavaMonitorEnter} without a {@code monitorClass}. */
    static final String UNKNOWN_MONITOR = "(unknown monitor)";

    private final Map<String, Boolean> isLock = new HashMap<>();

    /** @return {@link #isLockBlocker}, remembered per class name; false for {@code null} */
    boolean isLock(String parkedClass) {
        return parkedClass != null && isLock.computeIfAbsent(parkedClass, LockBlockers::isLockBlocker);
    }

    /**
     * Whether a {@code jdk.ThreadPark} on {@code parkedClass} is a wait for a lock. Yes for classes of
     * {@code java.util.concurrent.locks} ({@code ReentrantLock$NonfairSync}, {@code ReentrantReadWriteLock$FairSync},
     * {@code StampedLock}, ...) and for synchronizers ({@code AbstractQueuedSynchronizer} subclasses) of a class that
     * implements {@link Lock} or {@link ReadWriteLock} when the reader can load that class. No for a park without a
     * blocker ({@code parkNanos} of schedulers and sleeps), for {@code Condition.await} ({@code ConditionObject}:
     * waiting for a signal, not for the lock), for latches, semaphores, queues, futures and pools.
     *
     * @param parkedClass a binary class name ({@code a.b.C$D}), or {@code null}
     * @return whether waits on it belong in the lock table
     */
    static boolean isLockBlocker(String parkedClass) {
        if (parkedClass == null || parkedClass.endsWith("$ConditionObject")) {
            return false;
        }
        if (parkedClass.startsWith("java.util.concurrent.locks.")) {
            return true;
        }
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Class<?> c = Class.forName(parkedClass, false, loader != null ? loader : LockBlockers.class.getClassLoader());
            if (isLock(c)) {
                return true;
            }
            boolean synchronizer = AbstractQueuedSynchronizer.class.isAssignableFrom(c)
                    || AbstractQueuedLongSynchronizer.class.isAssignableFrom(c);
            return synchronizer && c.getEnclosingClass() != null && isLock(c.getEnclosingClass());
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return false;
        }
    }

    private static boolean isLock(Class<?> c) {
        return Lock.class.isAssignableFrom(c) || ReadWriteLock.class.isAssignableFrom(c);
    }

    /** @return the blocker of a {@code jdk.JavaMonitorEnter} on {@code monitorClass} (may be {@code null}) */
    static String monitor(String monitorClass) {
        return monitorClass == null ? UNKNOWN_MONITOR : monitorClass;
    }

    /** @return the blocker of an {@code archlab.LockWait} on the {@code ProfiledLock} named {@code lockName} */
    static String profiledLock(String lockName) {
        return ProfiledLock.class.getName() + "[" + lockName + "]";
    }

    /**
     * Trap 2: whether an {@code archlab.LockWait} belongs in the lock table: only on a virtual thread. Acquired
     * or not does not matter ({@code ProfiledLock} also records a timed-out {@code tryLock} and an interrupted
     * wait): the time was spent queueing for the lock either way, as a platform thread's timed-out park on the
     * same lock is a {@code jdk.ThreadPark} in the table too.
     *
     * @param virtualThread the event's {@code virtualThread} field
     * @return whether the wait is not already in the table as a {@code jdk.ThreadPark}
     */
    static boolean countsProfiledLockWait(boolean virtualThread) {
        return virtualThread;
    }
}
