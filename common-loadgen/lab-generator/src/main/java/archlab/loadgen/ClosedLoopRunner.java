package archlab.loadgen;

import archlab.request.RequestOutcome;
import archlab.clock.NanoClock;
import archlab.request.Deadline;
import archlab.request.RequestContext;
import archlab.trace.Trace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop load generator, what wrk and most benchmarking tools are: {@code connections} workers, each sending the
 * next request of the workload's mix as soon as its previous one answered, until the run's duration is over. Nothing
 * is offered on a schedule, so a slow service slows the senders down with it, and each latency counts from the moment
 * its request was sent, not from when it would have been wanted (coordinated omission: the wait of the requests that
 * were never sent is in no figure).
 *
 * <p>Each request carries a deadline of its send + {@code timeout} and is classified as the open-loop runner
 * classifies (at or past its deadline: timed out, whatever it returned). Sequences continue from
 * {@code firstSequence}, so the mix goes on where an earlier run of the same workload stopped.
 *
 * <p>Thread-safety: a runner may be used by one caller at a time; the workload is called from all workers at once.
 */
public final class ClosedLoopRunner {

    /** How long past the run's end a worker's last request may take before the run stops waiting for it. */
    private static final Duration JOIN_GRACE = Duration.ofSeconds(30);

    /**
     * What a closed-loop run did.
     *
     * @param connections the workers (each one request outstanding at most)
     * @param seconds     from the first send to the last answer, seconds
     * @param outcomes    requests by outcome (every request sent and answered)
     * @param latency     the latency of every request the service answered (not rejected, not pool exhausted), from
     *                    its send
     */
    public record ClosedLoopResult(int connections, double seconds, Map<RequestOutcome, Long> outcomes, LatencySummary latency) {
        public ClosedLoopResult {
            outcomes = Map.copyOf(outcomes);
        }

        /** @return requests of {@code outcome} */
        public long count(RequestOutcome outcome) {
            return outcomes.getOrDefault(outcome, 0L);
        }

        /** @return every request sent and answered, whatever its outcome */
        public long answered() {
            return outcomes.values().stream().mapToLong(Long::longValue).sum();
        }

        /** @return requests completed within their deadline per second of the run */
        public double completedPerSecond() {
            return seconds <= 0 ? 0 : count(RequestOutcome.COMPLETED) / seconds;
        }
    }

    private final NanoClock clock;

    /** @param clock the clock latencies and deadlines are measured on */
    public ClosedLoopRunner(NanoClock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    /**
     * Runs {@code connections} workers for {@code duration}.
     *
     * @param firstSequence the sequence before the first request's (0 for a fresh workload)
     * @param threads       the kind of thread each worker runs on
     * @throws IllegalArgumentException for fewer than 1 connection or a duration or timeout not above zero
     */
    public ClosedLoopResult run(Workload workload, int connections, Duration duration, Duration timeout, long firstSequence,
                      ThreadKind threads) throws InterruptedException {
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be at least 1, was " + connections);
        }
        if (duration.isNegative() || duration.isZero() || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("duration and timeout must be above zero, were " + duration + ", " + timeout);
        }
        AtomicLong sequence = new AtomicLong(firstSequence);
        LatencyHistogram latency = new LatencyHistogram();
        Map<RequestOutcome, LongAdder> counts = new EnumMap<>(RequestOutcome.class);
        for (RequestOutcome o : RequestOutcome.values()) {
            counts.put(o, new LongAdder());
        }
        long timeoutNanos = timeout.toNanos();
        long start = clock.nanoTime();
        long end = start + duration.toNanos();
        AtomicLong lastAnswer = new AtomicLong(start);
        Runnable worker = () -> {
            while (clock.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
                long n = sequence.incrementAndGet();
                String operation = workload.operationOf(n);
                long sent = clock.nanoTime();
                RequestContext ctx = new RequestContext(n, sent, new Deadline(sent + timeoutNanos), clock, Trace.OFF);
                Throwable error = null;
                try {
                    workload.execute(n, operation, ctx);
                } catch (Throwable t) {
                    error = t;
                }
                long answered = clock.nanoTime();
                lastAnswer.accumulateAndGet(answered, Math::max);
                RequestOutcome outcome = PhaseTally.classify(answered - sent, timeoutNanos, error);
                counts.get(outcome).increment();
                if (outcome != RequestOutcome.REJECTED && outcome != RequestOutcome.POOL_EXHAUSTED) { // as the open loop: no answer
                    latency.record(answered - sent);
                }
            }
        };
        List<Thread> workers = new ArrayList<>(connections);
        for (int i = 0; i < connections; i++) {
            Thread t = threads.factory().newThread(worker);
            workers.add(t);
            t.start();
        }
        long joinBy = System.nanoTime() + duration.toNanos() + JOIN_GRACE.toNanos();
        for (Thread t : workers) {
            t.join(Duration.ofNanos(Math.max(1, joinBy - System.nanoTime())));
            t.interrupt(); // a straggler past the grace stops at its next request
        }
        Map<RequestOutcome, Long> outcomes = new EnumMap<>(RequestOutcome.class);
        counts.forEach((o, c) -> {
            if (c.sum() > 0) {
                outcomes.put(o, c.sum());
            }
        });
        return new ClosedLoopResult(connections, (lastAnswer.get() - start) / 1e9, outcomes, latency.summary());
    }
}
