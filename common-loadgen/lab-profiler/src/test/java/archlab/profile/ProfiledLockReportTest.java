package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("ProfileReport reads ProfiledLock's archlab.LockWait events without double counting")
class ProfiledLockReportTest {

    private static final String THIS_CLASS = ProfiledLockReportTest.class.getName() + ".";

    @Test
    @EnabledForJreRange(min = JRE.JAVA_25)
    @DisplayName("virtual threads waiting on a ProfiledLock show in the lock table (JFR alone records nothing for them)")
    void virtualThreadWaitsOnAProfiledLockAreCounted(@TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("orders");
        ProfileReport report = record(dir, lock, true);
        System.out.println(report.lockTable().render(6));

        assertThat(report.events().profiledLockWaits()).isPositive();
        assertThat(report.lockWaitByBlocker()).containsKey("archlab.profile.ProfiledLock[orders]");
        assertThat(report.lockTable().row(THIS_CLASS + "holdsTheLock")).isPresent();
        assertThat(report.lockWaitNanosWhere(THIS_CLASS)).isGreaterThanOrEqualTo((long) (0.8 * report.lockWaitNanos()));
        // virtual threads' waits on locks other than ProfiledLocks are still invisible, so the note stays
        assertThat(report.lockTable().note()).contains("waits are in this table; a virtual thread's wait on any other lock is not")
                .contains(ProfileReport.VIRTUAL_THREAD_LOCK_NOTE);
    }

    @Test
    @DisplayName("a platform thread's wait on a ProfiledLock counts once: as its jdk.ThreadPark, not again as archlab.LockWait")
    void platformThreadWaitsAreNotCountedTwice(@TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("orders");
        ProfileReport report = record(dir, lock, false);

        assertThat(report.events().profiledLockWaits()).isZero();
        assertThat(report.events().lockParks()).isPositive();
        assertThat(report.lockWaitByBlocker()).containsKey("java.util.concurrent.locks.ReentrantLock$NonfairSync")
                .doesNotContainKey("archlab.profile.ProfiledLock[orders]");
        // one row per wait: the ProfiledLock.lock frame is on each park's stack exactly once
        assertThat(report.lockTable().row("archlab.profile.ProfiledLock.lock"))
                .hasValueSatisfying(r -> assertThat(r.cum()).isLessThanOrEqualTo(report.lockTable().total()));
        assertThat(report.lockWaitNanosWhere(THIS_CLASS + "holdsTheLock")).isPositive();
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_25)
    @DisplayName("a virtual thread's tryLock(timeout) that times out on a ProfiledLock shows in the lock table: at least the timeout, charged to the lock and to the caller")
    void aTimedOutTryLockOfAVirtualThreadIsCounted(@TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("timed-out");
        Duration timeout = Duration.ofMillis(30);
        AtomicBoolean acquired = new AtomicBoolean(true);
        Path file;
        try (JfrRecorder jfr = JfrRecorder.start(ProfileSettings.defaults())) {
            lock.lock();
            try {
                Thread.ofVirtual().start(() -> acquired.set(triesTheLock(lock, timeout))).join();
            } finally {
                lock.unlock();
            }
            file = jfr.stopAndDump(dir.resolve("timed-out.jfr"));
        }
        ProfileReport report = ProfileReport.read(file);

        assertThat(acquired).as("the tryLock timed out").isFalse();
        assertThat(report.events().profiledLockWaits()).isPositive();
        assertThat(report.lockWaitByBlocker().get("archlab.profile.ProfiledLock[timed-out]"))
                .isGreaterThanOrEqualTo(timeout.toNanos());
        assertThat(report.lockTable().row("archlab.profile.ProfiledLock.tryLock")).isPresent();
        assertThat(report.lockWaitNanosWhere(THIS_CLASS + "triesTheLock")).isGreaterThanOrEqualTo(timeout.toNanos());
    }

    static boolean triesTheLock(ProfiledLock lock, Duration timeout) {
        try {
            boolean got = lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (got) {
                lock.unlock();
            }
            return got;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static ProfileReport record(Path dir, ProfiledLock lock, boolean virtual) throws Exception {
        AtomicInteger busy = new AtomicInteger();
        Path file;
        try (JfrRecorder jfr = JfrRecorder.start(ProfileSettings.defaults())) {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Runnable r = () -> {
                    for (int j = 0; j < 10; j++) {
                        holdsTheLock(lock, busy);
                    }
                };
                threads.add(virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r));
            }
            for (Thread t : threads) {
                t.join();
            }
            file = jfr.stopAndDump(dir.resolve("profiled-lock.jfr"));
        }
        assertThat(busy.get()).as("times a thread found the lock held").isPositive();
        return ProfileReport.read(file);
    }

    static void holdsTheLock(ProfiledLock lock, AtomicInteger busy) {
        if (lock.isLocked()) {
            busy.incrementAndGet();
        }
        lock.lock();
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}
