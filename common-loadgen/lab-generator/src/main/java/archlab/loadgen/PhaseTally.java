package archlab.loadgen;

import archlab.request.RequestOutcome;
import archlab.clock.NanoClock;
import archlab.request.PoolExhaustedException;
import archlab.request.RequestRejectedException;
import archlab.timeline.HiccupSummary;
import archlab.timeline.IntervalRecorder;
import archlab.timeline.RunTimeline;
import archlab.trace.SegmentTable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one phase of a run (warm-up or measured) and how they become its {@link RunResult}: each request's
 * start and send lag, its outcome — classified from its latency and error, never from the error alone — per
 * operation with its latency, the failure causes, and the attempts of callers that retry.
 *
 * <p>Thread-safety: the counting methods are called from the requests' threads at once; the plain fields
 * ({@link #offered} and the others set after the drain) and {@link #result} belong to the runner's thread, after
 * every request counted down {@link #done} or the drain gave up.
 */
final class PhaseTally {

    final NanoClock clock;
    final LoadSpec spec;
    final Workload workload;
    final long timeoutNanos;
    final CountDownLatch done;
    final IntervalRecorder recorder;
    final ClientRetryPolicy retry;
    /** The retry budget of the phase's callers; null when they have none. */
    final RetryBudget budget;
    final LongAdder started = new LongAdder();
    final LatencyHistogram latency = new LatencyHistogram();
    final LatencyHistogram sendLag = new LatencyHistogram();
    final Map<String, OperationTally> operations = new ConcurrentHashMap<>();
    final Map<String, Long> causes = new ConcurrentHashMap<>();
    /** The longest an answer came past its deadline, ns (0: none came late). */
    final LongAccumulator maxOverrun = new LongAccumulator(Math::max, 0);
    final LongAccumulator lastEnd = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final SegmentTable segments = new SegmentTable();
    final LongAdder traced = new LongAdder();
    final LongAdder attempts = new LongAdder();
    final LongAdder abandoned = new LongAdder();
    final AtomicInteger liveAttempts = new AtomicInteger();
    /** Planned requests per operation: counted after the phase, from the sequence numbers it planned. */
    final Map<String, Long> planned = new HashMap<>();
    long offered;
    long notStarted;
    long unfinished;
    long attemptsStillRunning;
    long wallNanos;

    PhaseTally(NanoClock clock, LoadSpec spec, int count, Workload workload, IntervalRecorder recorder) {
        this.clock = clock;
        this.spec = spec;
        this.workload = workload;
        this.timeoutNanos = spec.timeout().toNanos();
        this.done = new CountDownLatch(count);
        this.recorder = recorder;
        this.retry = spec.retries();
        this.budget = retry.budget() == null ? null : new RetryBudget(retry.budget());
    }

    /** Counts the phase's planned requests per operation: those that never started or finished too. */
    void countPlanned(long sequenceOffset, int count) {
        for (int i = 0; i < count; i++) {
            planned.merge(operationOf(sequenceOffset + i + 1), 1L, Long::sum);
        }
    }

    String operationOf(long sequence) {
        try {
            return workload.operationOf(sequence);
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    /** Counts a request whose thread could not be started: a cause of its own, and it will never count down. */
    void threadNotStarted(Throwable error) {
        causes.merge("thread not started: " + error.getClass().getSimpleName(), 1L, Long::sum);
        done.countDown();
    }

    /** Counts a request's start: started, its send lag, on the timeline. @return the start, on the run's clock */
    long start(long plannedNanos) {
        long startNanos = clock.nanoTime();
        started.increment();
        sendLag.record(startNanos - plannedNanos);
        recorder.started(startNanos - plannedNanos);
        return startNanos;
    }

    /** Counts a request's end: its outcome per operation, on the timeline, its cause, its latency unless refused. */
    void record(String operation, RequestOutcome outcome, long latencyNanos, Throwable error) {
        OperationTally op = operations.computeIfAbsent(operation, OperationTally::new);
        op.count(outcome);
        recorder.ended(outcome, latencyNanos);
        if (outcome == RequestOutcome.TIMED_OUT || outcome == RequestOutcome.FAILED) {
            causes.merge(error == null ? "none" : error.getClass().getSimpleName(), 1L, Long::sum);
        }
        if (outcome != RequestOutcome.REJECTED && outcome != RequestOutcome.POOL_EXHAUSTED) {
            latency.record(latencyNanos);
            op.latency.record(latencyNanos);
        }
    }

    // tag::classify[]
    RequestOutcome classify(long latencyNanos, Throwable error) {
        return classify(latencyNanos, timeoutNanos, error);
    }

    /** The outcome of a request answered {@code latencyNanos} after its deadline's start, for any runner. */
    static RequestOutcome classify(long latencyNanos, long timeoutNanos, Throwable error) {
        if (error instanceof PoolExhaustedException) {
            return RequestOutcome.POOL_EXHAUSTED;
        }
        // at or past the deadline, as Deadline.isExpired sees it: a request that gave up exactly at its
        // deadline (DeadlineExceededException) is timed out, never failed
        if (latencyNanos >= timeoutNanos) {
            return RequestOutcome.TIMED_OUT;
        }
        if (error == null) {
            return RequestOutcome.COMPLETED;
        }
        return error instanceof RequestRejectedException ? RequestOutcome.REJECTED : RequestOutcome.FAILED;
    }
    // end::classify[]

    RunResult result(long warmupRequests, RunTimeline timeline, HiccupSummary hiccups) {
        Map<String, RunResult.OperationResult> ops = new TreeMap<>();
        planned.keySet().forEach(name -> operations.computeIfAbsent(name, OperationTally::new));
        operations.forEach((name, op) -> ops.put(name, op.result(planned.getOrDefault(name, 0L))));
        return RunResult.builder()
                .spec(spec)
                .requests(new RunResult.Requests(offered, started.sum(), notStarted))
                .outcomes(RunResult.Outcomes.counted(
                        o -> ops.values().stream().mapToLong(op -> op.outcomes().count(o)).sum()))
                .unfinished(unfinished)
                .wallNanos(wallNanos)
                .latencies(new RunResult.Latencies(latency.summary(), ops, sendLag.summary(), new TreeMap<>(causes),
                        maxOverrun.get()))
                .tracing(new RunResult.Tracing(segments.rows(), traced.sum()))
                .warmupRequests(warmupRequests)
                .timeline(timeline)
                .hiccups(hiccups)
                .retries(new RunResult.ClientRetries(attempts.sum(), budget == null ? 0 : budget.denied(), abandoned.sum(),
                        attemptsStillRunning))
                .build();
    }

    /** One operation's outcomes and latency. */
    private static final class OperationTally {
        final String operation;
        final LongAdder[] outcomes = new LongAdder[RequestOutcome.values().length];
        final LatencyHistogram latency = new LatencyHistogram();

        OperationTally(String operation) {
            this.operation = operation;
            for (int i = 0; i < outcomes.length; i++) {
                outcomes[i] = new LongAdder();
            }
        }

        void count(RequestOutcome outcome) {
            outcomes[outcome.ordinal()].increment();
        }

        /** @param offered the operation's planned requests, finished or not */
        RunResult.OperationResult result(long offered) {
            return new RunResult.OperationResult(operation, offered, RunResult.Outcomes.counted(o -> outcomes[o.ordinal()].sum()),
                    latency.summary());
        }
    }
}
