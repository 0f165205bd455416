package archlab.http.wire;

import archlab.loadgen.LatencyHistogram;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one phase of a {@link WireOpenLoop} run did, request by request: each start with its send lag (planned start to
 * the write), each end with its latency (planned start to the answer's last byte) and its outcome, and the status codes
 * answered. An answer counts as completed when it is 2xx and came before the deadline (planned start + timeout); an
 * answer at or past it, or none, counts as timed out; any other status, or a connection lost under a request, as failed.
 *
 * <p>Recording allocates nothing (HdrHistogram's fixed-range counters, {@link LongAdder}s, one counter array indexed by status).
 * Thread-safety: every method may be called from the generator's event loops at once; read the figures after they stop.
 */
public final class WireTally {

    private final long timeoutNanos;
    private final LatencyHistogram latency = new LatencyHistogram();
    private final LatencyHistogram sendLag = new LatencyHistogram();
    private final LongAdder started = new LongAdder();
    private final LongAdder notStarted = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder timedOut = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder connectionsLost = new LongAdder();
    private final LongAdder waitedForConnection = new LongAdder();
    private final AtomicLongArray statuses = new AtomicLongArray(600);

    /** @param timeoutNanos each request's deadline, from its planned start */
    public WireTally(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** A request written {@code lagNanos} after its planned start (the lag includes any wait for a free connection). */
    public void started(long lagNanos) {
        started.increment();
        sendLag.record(lagNanos);
    }

    /** A request that found no idle connection when it was due: it waits for one (its send lag grows). */
    public void noIdleConnection() {
        waitedForConnection.increment();
    }

    /** A request that was never written: no connection took it before its deadline. */
    public void notStarted() {
        notStarted.increment();
    }

    /** An answer with {@code status}, {@code latencyNanos} after the request's planned start. */
    public void answered(int status, long latencyNanos) {
        if (status >= 100 && status < 600) {
            statuses.incrementAndGet(status);
        }
        latency.record(latencyNanos);
        if (latencyNanos >= timeoutNanos) {
            timedOut.increment();
        } else if (status / 100 == 2) {
            completed.increment();
        } else {
            failed.increment();
        }
    }

    /** No answer by the deadline: {@code latencyNanos} is when the generator gave up, from the planned start. */
    public void noAnswer(long latencyNanos) {
        latency.record(latencyNanos);
        timedOut.increment();
    }

    /** The connection closed under a request, {@code latencyNanos} after its planned start. */
    public void connectionLost(long latencyNanos) {
        connectionsLost.increment();
        latency.record(latencyNanos);
        if (latencyNanos >= timeoutNanos) {
            timedOut.increment();
        } else {
            failed.increment();
        }
    }

    public long started() {
        return started.sum();
    }

    public long notStartedCount() {
        return notStarted.sum();
    }

    public long completed() {
        return completed.sum();
    }

    public long timedOut() {
        return timedOut.sum();
    }

    public long failed() {
        return failed.sum();
    }

    public long connectionsLost() {
        return connectionsLost.sum();
    }

    /** @return requests that found no idle connection when they were due */
    public long waitedForConnection() {
        return waitedForConnection.sum();
    }

    /** @return requests that ended, any way (answered, given up on, lost, or never started) */
    public long ended() {
        return completed() + timedOut() + failed() + notStartedCount();
    }

    public LatencyHistogram latency() {
        return latency;
    }

    public LatencyHistogram sendLag() {
        return sendLag;
    }

    /** @return answers per status code, only codes answered */
    public Map<Integer, Long> statuses() {
        Map<Integer, Long> m = new TreeMap<>();
        for (int i = 0; i < statuses.length(); i++) {
            long n = statuses.get(i);
            if (n > 0) {
                m.put(i, n);
            }
        }
        return m;
    }
}
