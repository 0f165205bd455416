package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ProfileReport.isLockBlocker: which jdk.ThreadPark blockers are lock waits")
class LockBlockerTest {

    @Test
    @DisplayName("parks on java.util.concurrent.locks locks count as lock waits")
    void jucLocksAreLocks() {
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.locks.ReentrantLock$NonfairSync")).isTrue();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.locks.ReentrantLock$FairSync")).isTrue();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync")).isTrue();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.locks.StampedLock")).isTrue();
    }

    @Test
    @DisplayName("an application Lock built on AbstractQueuedSynchronizer counts as a lock")
    void applicationAqsLockIsALock() {
        assertThat(ProfileReport.isLockBlocker(MyLock.Sync.class.getName())).isTrue();
    }

    @Test
    @DisplayName("plain parks, Condition.await, latches, semaphores, pools and unknown classes are not lock waits")
    void nonLocksAreNot() {
        assertThat(ProfileReport.isLockBlocker(null)).isFalse();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject")).isFalse();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.CountDownLatch$Sync")).isFalse();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.Semaphore$NonfairSync")).isFalse();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.ForkJoinPool")).isFalse();
        assertThat(ProfileReport.isLockBlocker("java.util.concurrent.SynchronousQueue$TransferStack")).isFalse();
        assertThat(ProfileReport.isLockBlocker("no.such.Clazz")).isFalse();
    }

    @Test
    @DisplayName("JFR timespan settings parse to nanoseconds; non-timespans give -1")
    void timespansParse() {
        assertThat(ProfileReport.parseTimespanNanos("10 ms")).isEqualTo(10_000_000L);
        assertThat(ProfileReport.parseTimespanNanos("20000000 ns")).isEqualTo(20_000_000L);
        assertThat(ProfileReport.parseTimespanNanos("1 s")).isEqualTo(1_000_000_000L);
        assertThat(ProfileReport.parseTimespanNanos("everyChunk")).isEqualTo(-1);
    }

    /** A minimal non-reentrant mutex in the style of the AbstractQueuedSynchronizer Javadoc. */
    static final class MyLock implements Lock {
        static final class Sync extends AbstractQueuedSynchronizer {
            @Override
            protected boolean tryAcquire(int arg) {
                return compareAndSetState(0, 1);
            }

            @Override
            protected boolean tryRelease(int arg) {
                setState(0);
                return true;
            }
        }

        private final Sync sync = new Sync();

        @Override public void lock() { sync.acquire(1); }
        @Override public void lockInterruptibly() throws InterruptedException { sync.acquireInterruptibly(1); }
        @Override public boolean tryLock() { return sync.tryAcquire(1); }
        @Override public boolean tryLock(long t, TimeUnit u) throws InterruptedException { return sync.tryAcquireNanos(1, u.toNanos(t)); }
        @Override public void unlock() { sync.release(1); }
        @Override public Condition newCondition() { throw new UnsupportedOperationException(); }
    }
}
