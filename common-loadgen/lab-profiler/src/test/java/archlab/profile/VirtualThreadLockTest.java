package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measured on JDK 25. Not run on older JDKs: before JDK 24 (JEP 491) a virtual thread blocked on a monitor
 * pinned its carrier, so what JFR records there may differ and has not been measured for this lab.
 */
@EnabledForJreRange(min = JRE.JAVA_25)
@DisplayName("JFR and virtual threads waiting on locks (measured on JDK 25)")
class VirtualThreadLockTest {

    private static final String THIS_CLASS = VirtualThreadLockTest.class.getName() + ".";
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Object MONITOR = new Object();
    private static final AtomicInteger lockWasBusy = new AtomicInteger();
    private static final AtomicInteger monitorWasBusy = new AtomicInteger();
    /** What JFR may record of the waits at most: four holds' worth, against the hundreds of ms they took. */
    private static final java.time.Duration RECORDED_AT_MOST = java.time.Duration.ofMillis(8);

    @Test
    @DisplayName("virtual threads that really wait on a ReentrantLock and a monitor leave (almost) no lock-wait event, and the report says why")
    void virtualThreadWaitsAreInvisibleAndTheReportSaysSo(@TempDir Path dir) throws Exception {
        Path file;
        try (JfrRecorder jfr = JfrRecorder.start(ProfileSettings.defaults())) {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) { // four contend on the ReentrantLock, four on the monitor, all at once
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int j = 0; j < 10; j++) {
                        holdsTheLock();
                    }
                }));
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int j = 0; j < 10; j++) {
                        holdsTheMonitor();
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            file = jfr.stopAndDump(dir.resolve("virtual.jfr"));
        }
        ProfileReport report = ProfileReport.read(file);
        System.out.println(report.render(5));

        // The waits happened ...
        assertThat(lockWasBusy.get()).as("times a virtual thread found the ReentrantLock held").isPositive();
        assertThat(monitorWasBusy.get()).as("times a virtual thread found the monitor held").isPositive();
        // ... but JFR recorded almost none of them. The waits took hundreds of milliseconds (four threads queueing for
        // ten 2 ms holds on each lock); a CI run on JDK 25 once saw 0.48 ms recorded (a wait caught while a virtual
        // thread could not unmount), never more than a sliver: far under one hold per thread.
        assertThat(report.lockWaitNanosWhere(THIS_CLASS)).as("lock-wait ns JFR recorded with this class on the stack")
                .isLessThan(RECORDED_AT_MOST.toNanos());
        assertThat(report.events().virtualThreadsStarted()).isGreaterThanOrEqualTo(8);
        // The report never lets that pass for "no contention".
        assertThat(report.notes()).anySatisfy(n -> assertThat(n).contains(ProfileReport.VIRTUAL_THREAD_LOCK_NOTE));
        if (report.lockTable().rows().isEmpty()) {
            assertThat(report.lockTable().render(5))
                    .contains("does NOT show an absence of contention")
                    .contains("virtual threads were started");
        }
    }

    static void holdsTheLock() {
        if (LOCK.isLocked()) {
            lockWasBusy.incrementAndGet();
        }
        LOCK.lock();
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            LOCK.unlock();
        }
    }

    private static volatile boolean monitorHeld;

    static void holdsTheMonitor() {
        if (monitorHeld) { // racy probe: good enough to show that waits did happen
            monitorWasBusy.incrementAndGet();
        }
        synchronized (MONITOR) {
            monitorHeld = true;
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                monitorHeld = false;
            }
        }
    }
}
