package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ProfiledLock's own archlab.LockWait events, read straight from a JFR recording of nothing else. Every wait is
 * forced: the test holds the lock, starts a waiter, and lets go only after it has seen the waiter queued on the lock
 * ({@code hasQueuedThread}), which happens after the waiter's event started its clock. So the only times asserted
 * are ones the test enforces: a wait lasts at least the {@link #HOLD} the test added after seeing the waiter queue,
 * and a timed-out {@code tryLock} at least its {@link #TIMEOUT}. Nothing is asserted about how much longer.
 */
@DisplayName("ProfiledLock records a wait for every way of acquiring, also a wait that gives up")
class ProfiledLockTest {

    /** How long the test keeps holding the lock once the waiter is queued. */
    private static final Duration HOLD = Duration.ofMillis(20);
    /** The timeout of a tryLock that must time out. */
    private static final Duration TIMEOUT = Duration.ofMillis(30);
    /** How long a waiter may take to queue, or a tryLock that must succeed may wait: far longer than any run. */
    private static final Duration PATIENCE = Duration.ofMinutes(1);
    private static final String PROFILED_LOCK = ProfiledLock.class.getName();

    /** The ways of acquiring that can wait, and the method each event's stack must start at. */
    enum Acquire {
        LOCK("lock") {
            @Override
            void acquire(ProfiledLock lock) {
                lock.lock();
            }
        },
        LOCK_INTERRUPTIBLY("lockInterruptibly") {
            @Override
            void acquire(ProfiledLock lock) throws InterruptedException {
                lock.lockInterruptibly();
            }
        },
        TRY_LOCK_WITH_TIMEOUT("tryLock") {
            @Override
            void acquire(ProfiledLock lock) throws InterruptedException {
                if (!lock.tryLock(PATIENCE.toNanos(), TimeUnit.NANOSECONDS)) {
                    throw new AssertionError("tryLock timed out after " + PATIENCE);
                }
            }
        };

        final String method;

        Acquire(String method) {
            this.method = method;
        }

        abstract void acquire(ProfiledLock lock) throws InterruptedException;
    }

    static Stream<Arguments> everyWaitingAcquisitionOnBothKindsOfThread() {
        return Stream.of(Acquire.values())
                .flatMap(how -> Stream.of(Arguments.of(how, false), Arguments.of(how, true)));
    }

    static Stream<Arguments> interruptibleAcquisitionsOnBothKindsOfThread() {
        return Stream.of(Acquire.LOCK_INTERRUPTIBLY, Acquire.TRY_LOCK_WITH_TIMEOUT)
                .flatMap(how -> Stream.of(Arguments.of(how, false), Arguments.of(how, true)));
    }

    @ParameterizedTest(name = "{0}, virtual thread: {1}")
    @MethodSource("everyWaitingAcquisitionOnBothKindsOfThread")
    @DisplayName("lock, lockInterruptibly and tryLock(timeout) each record a wait behind a holder once: acquired, at least as long as the hold, its stack starting at the method called")
    void aWaitThatEndsWithTheLockIsRecorded(Acquire how, boolean virtual, @TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("acquired-" + how + "-" + virtual);
        AtomicReference<String> outcome = new AtomicReference<>();
        List<RecordedEvent> waits = recordWaits(lock, dir, () -> {
            Thread waiter;
            lock.lock();
            try {
                waiter = start(virtual, outcome, () -> {
                    how.acquire(lock);
                    boolean held = lock.isHeldByCurrentThread();
                    lock.unlock();
                    return held ? "acquired" : "not held";
                });
                awaitQueued(lock, waiter);
                Thread.sleep(HOLD);
            } finally {
                lock.unlock();
            }
            waiter.join();
        });

        assertThat(outcome.get()).isEqualTo("acquired");
        assertThat(waits).singleElement().satisfies(e -> {
            assertThat(e.getBoolean("acquired")).as("acquired").isTrue();
            assertThat(e.getBoolean("virtualThread")).as("virtualThread").isEqualTo(virtual);
            assertThat(e.getDuration()).as("time waited").isGreaterThanOrEqualTo(HOLD);
            assertThat(leaf(e)).isEqualTo(PROFILED_LOCK + "." + how.method);
        });
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {false, true})
    @DisplayName("a tryLock(timeout) that times out behind a holder is recorded as not acquired, with at least the timeout waited")
    void aTimedOutTryLockIsRecorded(boolean virtual, @TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("timed-out-" + virtual);
        AtomicReference<String> outcome = new AtomicReference<>();
        List<RecordedEvent> waits = recordWaits(lock, dir, () -> {
            lock.lock();
            try {
                start(virtual, outcome, () -> lock.tryLock(TIMEOUT.toNanos(), TimeUnit.NANOSECONDS) ? "acquired" : "timed out")
                        .join();
            } finally {
                lock.unlock();
            }
        });

        assertThat(outcome.get()).isEqualTo("timed out");
        assertThat(waits).singleElement().satisfies(e -> {
            assertThat(e.getBoolean("acquired")).as("acquired").isFalse();
            assertThat(e.getDuration()).as("time waited").isGreaterThanOrEqualTo(TIMEOUT);
            assertThat(leaf(e)).isEqualTo(PROFILED_LOCK + ".tryLock");
        });
    }

    @ParameterizedTest(name = "{0}, virtual thread: {1}")
    @MethodSource("interruptibleAcquisitionsOnBothKindsOfThread")
    @DisplayName("a lockInterruptibly or tryLock(timeout) wait ended by an interrupt is recorded as not acquired, with at least the hold waited")
    void anInterruptedWaitIsRecorded(Acquire how, boolean virtual, @TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("interrupted-" + how + "-" + virtual);
        AtomicReference<String> outcome = new AtomicReference<>();
        List<RecordedEvent> waits = recordWaits(lock, dir, () -> {
            lock.lock();
            try {
                Thread waiter = start(virtual, outcome, () -> {
                    try {
                        how.acquire(lock);
                        lock.unlock();
                        return "acquired";
                    } catch (InterruptedException e) {
                        return "interrupted";
                    }
                });
                awaitQueued(lock, waiter);
                Thread.sleep(HOLD);
                waiter.interrupt();
                waiter.join();
            } finally {
                lock.unlock();
            }
        });

        assertThat(outcome.get()).isEqualTo("interrupted");
        assertThat(waits).singleElement().satisfies(e -> {
            assertThat(e.getBoolean("acquired")).as("acquired").isFalse();
            assertThat(e.getDuration()).as("time waited").isGreaterThanOrEqualTo(HOLD);
            assertThat(leaf(e)).isEqualTo(PROFILED_LOCK + "." + how.method);
        });
    }

    @Test
    @DisplayName("acquisitions that do not wait record nothing: uncontended, reentrant, tryLock(), tryLock with no timeout, and a thread interrupted before it calls")
    void noWaitNoEvent(@TempDir Path dir) throws Exception {
        ProfiledLock lock = new ProfiledLock("no-wait");
        AtomicReference<String> outcome = new AtomicReference<>();
        List<RecordedEvent> waits = recordWaits(lock, dir, () -> {
            for (Acquire how : Acquire.values()) {
                how.acquire(lock);       // free: no wait
                how.acquire(lock);       // reentrant: no wait
                lock.unlock();
                lock.unlock();
            }
            lock.lock();
            try {
                start(false, outcome, () -> {
                    StringBuilder seen = new StringBuilder();
                    seen.append(lock.tryLock() ? "acquired" : "busy");
                    seen.append(lock.tryLock(0, TimeUnit.SECONDS) ? " acquired" : " busy");
                    for (Acquire how : List.of(Acquire.LOCK_INTERRUPTIBLY, Acquire.TRY_LOCK_WITH_TIMEOUT)) {
                        Thread.currentThread().interrupt();
                        try {
                            how.acquire(lock);
                            seen.append(" acquired");
                        } catch (InterruptedException e) {
                            seen.append(" interrupted");
                        }
                    }
                    return seen.toString();
                }).join();
            } finally {
                lock.unlock();
            }
        });

        assertThat(outcome.get()).isEqualTo("busy busy interrupted interrupted");
        assertThat(waits).isEmpty();
    }

    /** A waiter's body: returns what happened, or throws. */
    @FunctionalInterface
    interface Waiter {
        String run() throws Exception;
    }

    /** A scenario run while recording. */
    @FunctionalInterface
    interface Scenario {
        void run() throws Exception;
    }

    /** @return {@code lock}'s archlab.LockWait events while {@code scenario} ran (every wait: threshold 0) */
    private static List<RecordedEvent> recordWaits(ProfiledLock lock, Path dir, Scenario scenario) throws Exception {
        Path file = dir.resolve("waits.jfr");
        try (Recording r = new Recording()) {
            r.enable(LockWaitEvent.NAME).withThreshold(Duration.ZERO).withStackTrace();
            r.start();
            scenario.run();
            r.stop();
            r.dump(file);
        }
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals(LockWaitEvent.NAME))
                .filter(e -> lock.name().equals(e.getString("lockName")))
                .toList();
    }

    /** Starts {@code body} on a new thread; its result, or what it threw, goes to {@code outcome}. */
    private static Thread start(boolean virtual, AtomicReference<String> outcome, Waiter body) {
        Runnable r = () -> {
            try {
                outcome.set(body.run());
            } catch (Throwable t) {
                outcome.set("failed: " + t);
            }
        };
        return virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    /** Returns once {@code waiter} is queued on {@code lock}: its event's clock is running from then on. */
    private static void awaitQueued(ProfiledLock lock, Thread waiter) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!lock.hasQueuedThread(waiter)) {
            assertThat(System.nanoTime()).as("%s queued on %s", waiter, lock.name()).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /** @return the event's leaf frame as {@code package.Class.method} */
    private static String leaf(RecordedEvent e) {
        RecordedMethod m = e.getStackTrace().getFrames().get(0).getMethod();
        return m.getType().getName() + "." + m.getName();
    }
}
