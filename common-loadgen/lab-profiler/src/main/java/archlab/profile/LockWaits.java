package archlab.profile;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulating: the waits that go into the lock table, by stack and by blocker, and the counts that say what the
 * table may be missing.
 *
 * <p><b>Trap: an empty lock table proves nothing.</b> JFR records no {@code jdk.ThreadPark} when a virtual
 * thread waits on a {@code ReentrantLock}, and no {@code jdk.JavaMonitorEnter} when one blocks on a
 * {@code synchronized} monitor (measured on JDK 25). So this tally also counts what explains a thin table: parks
 * that were not lock waits ({@link #nonLockPark()}), virtual threads started ({@link #virtualThreadStarted()}),
 * and, of the virtual threads' waits, those that a {@code ProfiledLock} did record. Which waits count at all is
 * {@link LockBlockers}' decision, made before a wait reaches this class.
 *
 * <p>Not thread-safe: one per read.
 */
final class LockWaits {

    private final StackTally stacks = new StackTally();
    private final Map<String, Long> byBlocker = new HashMap<>();
    private long lockParks;
    private long monitorEnters;
    private long profiledLockWaits;
    private long nonLockParks;
    private long virtualThreadsStarted;

    /** A {@code jdk.ThreadPark} on a lock. */
    void lockPark(String blocker, long nanos, List<String> frames) {
        lockParks++;
        add(blocker, nanos, frames);
    }

    /** A {@code jdk.ThreadPark} that is not a lock wait: counted, left out of the table. */
    void nonLockPark() {
        nonLockParks++;
    }

    /** A {@code jdk.JavaMonitorEnter}: a contended {@code synchronized}. */
    void monitorEnter(String blocker, long nanos, List<String> frames) {
        monitorEnters++;
        add(blocker, nanos, frames);
    }

    /** An {@code archlab.LockWait} of a virtual thread on a {@code ProfiledLock}. */
    void profiledLockWait(String blocker, long nanos, List<String> frames) {
        profiledLockWaits++;
        add(blocker, nanos, frames);
    }

    /** A {@code jdk.VirtualThreadStart}: one more thread whose other lock waits JFR does not see. */
    void virtualThreadStarted() {
        virtualThreadsStarted++;
    }

    private void add(String blocker, long nanos, List<String> frames) {
        long waited = Math.max(0, nanos);
        byBlocker.merge(blocker, waited, Long::sum);
        stacks.add(frames, waited);
    }

    /** @return nanoseconds waited per stack */
    StackTally stacks() {
        return stacks;
    }

    /** @return nanoseconds waited per blocker, largest first, ties by name */
    Map<String, Long> byBlocker() {
        Map<String, Long> sorted = new LinkedHashMap<>();
        byBlocker.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(en -> sorted.put(en.getKey(), en.getValue()));
        return sorted;
    }

    long lockParks() {
        return lockParks;
    }

    long monitorEnters() {
        return monitorEnters;
    }

    long profiledLockWaits() {
        return profiledLockWaits;
    }

    long nonLockParks() {
        return nonLockParks;
    }

    long virtualThreadsStarted() {
        return virtualThreadsStarted;
    }
}
