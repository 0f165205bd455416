package archlab.loadgen;

import archlab.clock.NanoClock;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The open loop itself: request {@code i} starts at {@code t0 + offset(i)}, on a thread of its own, whether or not
 * the requests before it finished.
 *
 * <p>The trap it avoids: a ticker that falls behind drops ticks (the book's Go runner offered 4,110 of 4,500 planned).
 * Here a generator that falls behind starts the late requests at once and never skips one, so
 * {@code offered == planned}; how late each started is the request's send lag, counted by whoever it runs.
 *
 * <p>Thread-safety: {@link #send} runs on the caller's thread; it may be called by one caller at a time.
 */
final class Schedule {

    /** Below this much time to the next planned start the generator spins instead of parking. */
    private static final long SPIN_THRESHOLD_NANOS = 100_000L;

    private final NanoClock clock;

    Schedule(NanoClock clock) {
        this.clock = clock;
    }

    /** One request to start at its planned instant: {@code sequence} is 1-based, {@code plannedNanos} on the run's clock. */
    @FunctionalInterface
    interface Request {
        void send(long sequence, long plannedNanos);
    }

    /** What a phase's schedule did: every request offered, and those whose thread could not be started. */
    record Sent(long offered, long notStarted) {
    }

    /**
     * Starts request {@code i} (sequence {@code sequenceOffset + i + 1}) at {@code t0 + offsets[i]}, each on a new
     * thread of {@code threads}; a thread that cannot be started is handed to {@code notStarted} and the schedule
     * goes on.
     */
    Sent send(long t0, long[] offsets, long sequenceOffset, ThreadFactory threads, Request request,
              Consumer<Throwable> notStarted) {
        long offered = 0;
        long failedToStart = 0;
        // tag::schedule[]
        for (int i = 0; i < offsets.length; i++) {
            long planned = t0 + offsets[i];
            waitUntil(planned);
            long sequence = sequenceOffset + i + 1;
            offered++;
            try {
                start(threads, () -> request.send(sequence, planned));
            } catch (OutOfMemoryError | RuntimeException e) {
                failedToStart++;
                notStarted.accept(e);
            }
        }
        // end::schedule[]
        return new Sent(offered, failedToStart);
    }

    /**
     * Starts {@code task} on a new thread of {@code threads}.
     *
     * @throws IllegalStateException when the factory returns no thread; whatever the factory or the start throws
     */
    static void start(ThreadFactory threads, Runnable task) {
        Thread thread = threads.newThread(task);
        if (thread == null) {
            throw new IllegalStateException("thread factory returned null");
        }
        thread.start();
    }

    private void waitUntil(long plannedNanos) {
        while (true) {
            long remaining = plannedNanos - clock.nanoTime();
            if (remaining <= 0) {
                return;
            }
            if (remaining > SPIN_THRESHOLD_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_THRESHOLD_NANOS / 2);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
