package archlab.background;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A background loop that runs passes on one daemon platform thread: a pass that did work is followed at once by
 * the next; a pass that found nothing to do is followed by a park of {@code pollInterval} of real time. The
 * outbox relay and the reconciler are such loops; their passes are theirs, the start/stop life cycle is this.
 *
 * <p>Contract: {@link #start(Runnable)} starts the thread, after running its argument, unless the loop runs
 * already (then it does nothing). {@link #stop()} ends the loop after the pass in progress and returns once the
 * thread has ended; it does nothing if the loop is not running. A pass that throws is a bug, not a failed unit
 * of work: it is printed to stderr and the loop goes on. Passes never overlap.
 *
 * <p>Thread-safe: start and stop may be called from any thread.
 */
public final class PollingLoop {

    private final String name;
    private final Duration pollInterval;
    private final BooleanSupplier pass;
    private final Object lifecycle = new Object();
    private volatile Thread thread;
    private volatile boolean running;

    /**
     * @param name         the thread's name, also the prefix of a failed pass's message
     * @param pollInterval how long to park after a pass that did nothing; positive
     * @param pass         one pass; returns whether it did any work
     */
    public PollingLoop(String name, Duration pollInterval, BooleanSupplier pass) {
        this.name = Objects.requireNonNull(name, "name");
        this.pollInterval = Durations.requirePositive("pollInterval", Objects.requireNonNull(pollInterval, "pollInterval"));
        this.pass = Objects.requireNonNull(pass, "pass");
    }

    /**
     * Starts the loop; does nothing if it runs already.
     *
     * @param beforeFirstPass run under the life-cycle lock just before the thread starts (e.g. recovering work a
     *                        stopped loop left half done); not run if the loop runs already
     */
    public void start(Runnable beforeFirstPass) {
        synchronized (lifecycle) {
            if (running) {
                return;
            }
            beforeFirstPass.run();
            running = true;
            thread = Thread.ofPlatform().daemon(true).name(name).start(this::run);
        }
    }

    /** Ends the loop after the pass in progress and returns once its thread has ended; does nothing if not running. */
    public void stop() {
        Thread t;
        synchronized (lifecycle) {
            if (!running) {
                return;
            }
            running = false;
            t = thread;
            LockSupport.unpark(t);
        }
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether the loop runs */
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            boolean didWork;
            try {
                didWork = pass.getAsBoolean();
            } catch (RuntimeException e) { // a bug, not a failed unit of work: keep the loop alive, visibly
                System.err.println(name + ": pass failed: " + e);
                didWork = false;
            }
            if (!didWork && running) {
                LockSupport.parkNanos(pollInterval.toNanos());
            }
        }
    }
}
