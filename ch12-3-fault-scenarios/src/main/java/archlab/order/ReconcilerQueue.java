package archlab.order;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The {@link Reconciler}'s tasks, earliest due first: a handed-over order waits here until it is due, is taken by
 * exactly one pass, and comes back (due later, after a back-off) when its work failed. It counts what is pending —
 * queued, or taken and not yet {@linkplain #done() done} — so that the end of a run can wait for nothing pending.
 *
 * <p>Thread-safety: every method may be called from any thread; a task is mutated only by the pass that took it.
 */
final class ReconcilerQueue {

    /** What a task does next. */
    enum Step { CHECK, RELEASE }

    /** One order to resolve; mutable only by the pass that took it. */
    static final class Task {
        final String orderId;
        final List<String> reservationKeys;
        Step step;
        long dueNanos;
        int failures;

        Task(String orderId, List<String> reservationKeys, Step step, long dueNanos) {
            this.orderId = orderId;
            this.reservationKeys = reservationKeys;
            this.step = step;
            this.dueNanos = dueNanos;
        }
    }

    private final PriorityQueue<Task> queue = new PriorityQueue<>(Comparator.comparingLong(t -> t.dueNanos));
    private int inProgress;

    /** Queues {@code task}, due at its {@code dueNanos}: a new one, or one whose work failed, again. */
    synchronized void add(Task task) {
        queue.add(task);
    }

    /**
     * Takes up to {@code batchSize} tasks due by {@code nowNanos} (or due or not, with {@code dueOrNot}), earliest
     * first; each counts as pending until {@link #done()} is called for it.
     */
    synchronized List<Task> take(int batchSize, boolean dueOrNot, long nowNanos) {
        List<Task> taken = new ArrayList<>();
        while (taken.size() < batchSize && !queue.isEmpty() && (dueOrNot || queue.peek().dueNanos - nowNanos <= 0)) {
            taken.add(queue.poll());
        }
        inProgress += taken.size(); // in the same monitor: pending() never misses a task between the two
        return taken;
    }

    /** A taken task's work ended: resolved, or {@linkplain #add queued} again. */
    synchronized void done() {
        inProgress--;
    }

    /** @return tasks queued or being worked */
    synchronized int pending() {
        return queue.size() + inProgress;
    }
}
