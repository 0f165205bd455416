package archlab.http.wire;

import java.util.concurrent.CountDownLatch;

/**
 * One phase's share of one {@link WireLane}: the lane's planned starts, where its figures go, and how far it got.
 *
 * <p>Thread-safety: built by the runner's thread, then touched only on its lane's event loop.
 */
final class WirePhase {

    /**
     * What every lane of a phase shares.
     *
     * @param tally        where the figures go
     * @param workload     which request each sequence sends
     * @param timeoutNanos each request's deadline, from its planned start
     */
    record Shared(WireTally tally, WireWorkload workload, long timeoutNanos) {
    }

    final long[] planned;
    final long firstSequence;
    final int stride;
    final WireTally tally;
    final WireWorkload workload;
    final long timeoutNanos;
    final CountDownLatch done;
    int next;
    int ended;
    /** Requests up to this index were counted as having waited for a connection. */
    int waitCounted;

    /**
     * @param planned       absolute planned starts ({@link System#nanoTime()}), non-decreasing
     * @param firstSequence the sequence number of {@code planned[0]}; the next is {@code + stride}
     * @param done          counted down once when every request of this share ended
     */
    WirePhase(long[] planned, long firstSequence, int stride, Shared shared, CountDownLatch done) {
        this.planned = planned;
        this.firstSequence = firstSequence;
        this.stride = stride;
        this.tally = shared.tally();
        this.workload = shared.workload();
        this.timeoutNanos = shared.timeoutNanos();
        this.done = done;
    }
}
