package archlab.downstream;

import archlab.request.RequestContext;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mechanics every stub shares: numbering its calls, counting how they end, and the reply delay
 * that honours the caller's deadline. One instance per stub.
 *
 * <p>Thread-safe and lock-free: an {@link AtomicLong} numbers the calls, {@link LongAdder}s count them,
 * and the delay is a {@link Thread#sleep(Duration)}, so no monitor or lock of a stub ever shows up in a
 * lock-contention profile.
 */
final class SimulatedCalls {

    private final String stub;
    private final LatencyModel latency;
    private final AtomicLong calls = new AtomicLong();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder injectedErrors = new LongAdder();
    private final LongAdder timeouts = new LongAdder();

    SimulatedCalls(String stub, LatencyModel latency) {
        this.stub = stub;
        this.latency = latency;
    }

    /**
     * Step 1 and 2: numbers and counts the arriving call, then throws if its deadline has already passed.
     *
     * @return the call's index, 0-based in arrival order
     * @throws DownstreamTimeoutException if the deadline had passed on arrival (counted as a timeout)
     */
    long arrive(RequestContext ctx) {
        long callIndex = calls.getAndIncrement();
        if (ctx.remainingNanos() <= 0) {
            timeouts.increment();
            throw new DownstreamTimeoutException(stub, callIndex, true);
        }
        return callIndex;
    }

    /** Counts a call that ends with an injected error; the caller throws it. */
    void countInjectedError() {
        injectedErrors.increment();
    }

    /** Counts a call that returns normally. */
    void countSucceeded() {
        succeeded.increment();
    }

    /**
     * The reply's way back: sleeps for the call's latency, but never past the deadline. If the deadline
     * comes first, sleeps until it and throws.
     *
     * <p>Whether the call times out is decided from the latency and the time left when the delay starts,
     * both on the request's clock, so a test with a manual clock gets the same answer on every run.
     *
     * @throws DownstreamTimeoutException if the deadline passes before the reply arrives (counted)
     * @throws DownstreamException        if the thread is interrupted while sleeping (interrupt flag restored)
     * @throws IllegalStateException      if the latency model returns {@code null} or a negative latency
     */
    void replyDelay(RequestContext ctx, long callIndex) {
        long latencyNanos = latencyNanosOf(callIndex);
        long remainingNanos = ctx.remainingNanos();
        if (latencyNanos < remainingNanos) {
            sleep(latencyNanos, callIndex);
            return;
        }
        sleep(remainingNanos, callIndex);
        timeouts.increment();
        throw new DownstreamTimeoutException(stub, callIndex, false);
    }

    StubCounters counters() {
        return new StubCounters(calls.get(), succeeded.sum(), injectedErrors.sum(), timeouts.sum());
    }

    /** @return the latency of call {@code callIndex}, in nanoseconds */
    long latencyNanosOf(long callIndex) {
        Duration delay = latency.latencyOf(callIndex);
        if (delay == null || delay.isNegative()) {
            throw new IllegalStateException(stub + " latency model returned " + delay + " for call #" + callIndex
                    + "; a latency must not be null or negative");
        }
        try {
            return delay.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE; // longer than 292 years: the deadline (or the heat death) comes first
        }
    }

    private void sleep(long nanos, long callIndex) {
        if (nanos <= 0) {
            return;
        }
        try {
            Thread.sleep(Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DownstreamException(stub, callIndex, "interrupted during the reply delay", e);
        }
    }
}
