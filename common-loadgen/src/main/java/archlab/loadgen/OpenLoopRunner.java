package archlab.loadgen;

import archlab.timeline.HiccupSummary;
import archlab.timeline.Interval;
import archlab.timeline.IntervalRecorder;
import archlab.timeline.RunTimeline;
import archlab.timeline.TimelineSettings;
import archlab.trace.RequestTrace;
import archlab.trace.SegmentTable;
import archlab.trace.Trace;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * An open-loop load generator: requests arrive on a schedule, whether or not earlier ones finished.
 *
 * <p>The trap it avoids (two of them, both in the book's Go runner):
 * <ul>
 *   <li><b>Skipped requests.</b> A ticker that falls behind drops ticks: the book offered 4,110 of 4,500
 *       planned. Here request {@code i} is planned at {@code t0 + offset(i)}; a generator that falls
 *       behind starts the late requests at once and never skips one, so {@code offered == rate × duration}.</li>
 *   <li><b>Coordinated omission.</b> Latency counts from the <em>planned</em> start, so a request that
 *       waited for the generator is charged for the wait. The wait itself is kept apart as
 *       <em>send lag</em>, so a slow generator can be told from a slow service.</li>
 * </ul>
 *
 * <p>Each request runs on a thread of its own ({@link LoadSpec#threads()}); there is no concurrency
 * cap. Each carries a {@link Deadline} of planned start + timeout in its {@link RequestContext}.
 *
 * <p>Every run also records its timeline ({@link IntervalRecorder}: per interval, requests offered, started and
 * ended by outcome, with their latency) and the machine's own stalls ({@link archlab.timeline.HiccupProbe}), unless
 * built with {@link TimelineSettings#OFF}; the request's thread pays one HdrHistogram recorder write per event.
 *
 * <p><b>Callers that retry</b> ({@link LoadSpec#retries()}, off unless asked for): each attempt runs on a thread of its
 * own, carries a deadline of its own (its start + the timeout), and the request's thread waits for it no longer than
 * that. A caller that stops waiting retries (as its {@link ClientRetryPolicy} and {@link RetryBudget} allow) while the
 * service may still be working on the attempt it left: that is how retries pile up on a slow service. The request
 * ends with its last attempt's outcome; its latency runs from its first planned start. Attempts are counted apart
 * ({@link RunResult#attempts()}, the timeline's {@link Interval#retried()}). Segment tracing is off for such runs.
 *
 * <p>Thread-safety: one runner may be used by one caller at a time; a run is self-contained.
 */
public final class OpenLoopRunner {

    /** How long past the last deadline the runner waits for stragglers before reporting them unfinished. */
    private static final Duration DRAIN_GRACE = Duration.ofSeconds(30);
    /** Below this much time to the next planned start the generator spins instead of parking. */
    private static final long SPIN_THRESHOLD_NANOS = 100_000L;

    private final NanoClock clock;
    private final TimelineSettings timeline;
    private final LongConsumer backoff;

    public OpenLoopRunner() {
        this(NanoClock.SYSTEM);
    }

    /** @param clock the clock latencies and deadlines are measured on; the runner also sleeps on real time */
    public OpenLoopRunner(NanoClock clock) {
        this(clock, TimelineSettings.DEFAULT);
    }

    /**
     * @param clock    the clock latencies, deadlines and the timeline are measured on; the runner also sleeps on real time
     * @param timeline the timeline's interval and the hiccup probe's period; {@link TimelineSettings#OFF} for none
     */
    public OpenLoopRunner(NanoClock clock, TimelineSettings timeline) {
        this(clock, timeline, null);
    }

    /** @param backoff waits out a retry's back-off (nanoseconds); {@code null}: park until the clock has passed it */
    OpenLoopRunner(NanoClock clock, TimelineSettings timeline, LongConsumer backoff) {
        this.clock = clock;
        this.timeline = java.util.Objects.requireNonNull(timeline, "timeline");
        this.backoff = backoff != null ? backoff : nanos -> parkUntil(clock.nanoTime() + nanos);
    }

    /** Runs the warm-up (if any), then the measured run, and returns the measured figures with the run's timeline. */
    public RunResult run(LoadSpec spec, Workload workload) {
        try (IntervalRecorder recorder = IntervalRecorder.start(clock, timeline)) {
            long warmup = 0;
            if (spec.warmupRequests() > 0) {
                recorder.beginPhase(Interval.WARMUP);
                runPhase(spec, spec.warmupRequests(), 0, workload, recorder);
                warmup = spec.warmupRequests();
            }
            recorder.beginPhase(Interval.RUN);
            Phase measured = runPhase(spec, spec.plannedRequests(), warmup, workload, recorder);
            RunTimeline recorded = recorder.finish();
            return measured.result(warmup, recorded, recorder.hiccups());
        }
    }

    private Phase runPhase(LoadSpec spec, int count, long sequenceOffset, Workload workload, IntervalRecorder recorder) {
        Phase phase = new Phase(spec, count, workload, recorder);
        long[] offsets = spec.arrival().plan(count, spec.ratePerSecond());
        ThreadFactory threads = spec.threads().factory();
        long t0 = clock.nanoTime() + 1_000_000L; // 1 ms to get going
        recorder.planned(t0, offsets);
        long offered = 0;
        long notStarted = 0;
        // tag::schedule[]
        for (int i = 0; i < count; i++) {
            long planned = t0 + offsets[i];
            waitUntil(planned);
            long sequence = sequenceOffset + i + 1;
            offered++;
            try {
                Thread thread = threads.newThread(() -> phase.execute(sequence, planned));
                if (thread == null) {
                    throw new IllegalStateException("thread factory returned null");
                }
                thread.start();
            } catch (OutOfMemoryError | RuntimeException e) {
                notStarted++;
                phase.causes.merge("thread not started: " + e.getClass().getSimpleName(), 1L, Long::sum);
                phase.done.countDown();
            }
        }
        // end::schedule[]
        long lastDeadline = t0 + offsets[count - 1] + spec.retries().longestRequestNanos(spec.timeout());
        long waitNanos = Math.max(0, lastDeadline - clock.nanoTime()) + DRAIN_GRACE.toNanos();
        boolean drained;
        try {
            drained = phase.done.await(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        // attempts their callers gave up on may still be running: the run is not over while they hold work
        long graceEnd = System.nanoTime() + DRAIN_GRACE.toNanos();
        while (phase.liveAttempts.get() > 0 && System.nanoTime() < graceEnd && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(1_000_000L);
        }
        phase.offered = offered;
        phase.notStarted = notStarted;
        phase.unfinished = drained ? 0 : phase.done.getCount();
        phase.attemptsStillRunning = phase.liveAttempts.get();
        phase.wallNanos = Math.max(phase.lastEnd.get(), t0) - t0;
        phase.countPlanned(sequenceOffset, count);
        return phase;
    }

    /** Parks until the clock has passed {@code untilNanos}; never spins: a back-off's precision does not matter. */
    private void parkUntil(long untilNanos) {
        long remaining;
        while ((remaining = untilNanos - clock.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(remaining);
        }
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

    /** The counters of one phase (warm-up or measured). */
    private final class Phase {
        final LoadSpec spec;
        final Workload workload;
        final long timeoutNanos;
        final CountDownLatch done;
        final LongAdder started = new LongAdder();
        final LatencyHistogram latency = new LatencyHistogram();
        final LatencyHistogram sendLag = new LatencyHistogram();
        final Map<String, OperationAccumulator> operations = new ConcurrentHashMap<>();
        final Map<String, Long> causes = new ConcurrentHashMap<>();
        final LongAccumulator maxOverrun = new LongAccumulator(Math::max, 0);
        final LongAccumulator lastEnd = new LongAccumulator(Math::max, Long.MIN_VALUE);
        final SegmentTable segments = new SegmentTable();
        final LongAdder traced = new LongAdder();
        final IntervalRecorder recorder;
        final ClientRetryPolicy retry;
        final RetryBudget budget;
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

        Phase(LoadSpec spec, int count, Workload workload, IntervalRecorder recorder) {
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

        /** Counts a request's start: started, its send lag, on the timeline. @return the start, on the run's clock */
        long start(long plannedNanos) {
            long startNanos = clock.nanoTime();
            started.increment();
            sendLag.record(startNanos - plannedNanos);
            recorder.started(startNanos - plannedNanos);
            return startNanos;
        }

        void execute(long sequence, long plannedNanos) {
            if (retry.retries()) {
                try {
                    executeRetrying(sequence, plannedNanos);
                } finally {
                    done.countDown();
                }
                return;
            }
            try {
                long startNanos = start(plannedNanos);
                String operation = operationOf(sequence);
                RequestTrace requestTrace = spec.traceEvery() > 0 && sequence % spec.traceEvery() == 0
                        ? new RequestTrace(clock, plannedNanos) : null;
                Trace trace = requestTrace == null ? Trace.OFF : requestTrace;
                if (requestTrace != null) {
                    requestTrace.begin(startNanos);
                }
                RequestContext ctx = new RequestContext(sequence, plannedNanos,
                        new Deadline(plannedNanos + timeoutNanos), clock, trace);
                Throwable error = null;
                try {
                    workload.execute(sequence, operation, ctx);
                } catch (Throwable t) {
                    error = t;
                }
                long endNanos = clock.nanoTime();
                lastEnd.accumulate(endNanos);
                attempts.increment();
                long latencyNanos = endNanos - plannedNanos;
                Outcome outcome = classify(latencyNanos, error);
                if (outcome == Outcome.TIMED_OUT) {
                    maxOverrun.accumulate(latencyNanos - timeoutNanos);
                }
                record(operation, outcome, latencyNanos, error);
                if (requestTrace != null) {
                    requestTrace.finish(endNanos);
                    segments.record(operation, requestTrace);
                    traced.increment();
                }
            } finally {
                done.countDown();
            }
        }

        // tag::retries[]
        /** One request as a caller that retries sends it: attempts until one is not retried, or none may be. */
        private void executeRetrying(long sequence, long plannedNanos) {
            start(plannedNanos);
            String operation = operationOf(sequence);
            long attemptPlanned = plannedNanos;
            Attempt last = null;
            try {
                for (int attempt = 1; ; attempt++) {
                    attempts.increment();
                    if (attempt == 1) {
                        if (budget != null) {
                            budget.firstAttempt();
                        }
                    } else {
                        recorder.retried();
                    }
                    last = attempt(sequence, operation, attemptPlanned);
                    if (!retry.retriesAfter(last.outcome()) || attempt >= retry.maxAttempts()) {
                        break;
                    }
                    if (budget != null && !budget.tryRetry()) {
                        break; // over budget: the request ends with this attempt's outcome
                    }
                    long waitNanos = retry.backoffNanos(attempt, sequence);
                    if (waitNanos > 0) {
                        backoff.accept(waitNanos);
                    }
                    attemptPlanned = clock.nanoTime();
                }
            } catch (RuntimeException | Error e) {
                // a bug of the runner's own (a back-off it cannot compute): the request still ends, as failed
                last = new Attempt(Outcome.FAILED, e, clock.nanoTime());
            }
            lastEnd.accumulate(last.endNanos());
            record(operation, last.outcome(), last.endNanos() - plannedNanos, last.error());
        }

        /**
         * Sends one attempt on a thread of its own and waits for its answer until the attempt's deadline, no longer.
         * The attempt's own thread records how far past that deadline the service answered, whether or not anyone
         * still waited.
         */
        private Attempt attempt(long sequence, String operation, long attemptPlanned) {
            long deadlineNanos = attemptPlanned + timeoutNanos;
            RequestContext ctx = new RequestContext(sequence, attemptPlanned, new Deadline(deadlineNanos), clock, Trace.OFF);
            CompletableFuture<Answer> answer = new CompletableFuture<>();
            liveAttempts.incrementAndGet();
            Runnable send = () -> {
                Throwable error = null;
                try {
                    workload.execute(sequence, operation, ctx);
                } catch (Throwable t) {
                    error = t;
                } finally {
                    long endNanos = clock.nanoTime();
                    maxOverrun.accumulate(endNanos - deadlineNanos);
                    liveAttempts.decrementAndGet();
                    answer.complete(new Answer(error, endNanos));
                }
            };
            try {
                Thread thread = spec.threads().factory().newThread(send);
                if (thread == null) {
                    throw new IllegalStateException("thread factory returned null");
                }
                thread.start();
            } catch (OutOfMemoryError | RuntimeException e) {
                liveAttempts.decrementAndGet();
                answer.complete(new Answer(e, clock.nanoTime()));
            }
            Answer got = awaitUntil(answer, deadlineNanos);
            if (got == null) {
                abandoned.increment();
                return new Attempt(Outcome.TIMED_OUT, GAVE_UP, Math.max(deadlineNanos, clock.nanoTime()));
            }
            // classified and timed by when the attempt answered, not by when its caller's thread woke up to it
            return new Attempt(classify(got.endNanos() - attemptPlanned, got.error()), got.error(), got.endNanos());
        }

        /** @return the attempt's answer, or null once its deadline passed first */
        private Answer awaitUntil(CompletableFuture<Answer> answer, long deadlineNanos) {
            while (true) {
                if (answer.isDone()) {
                    return answer.join();
                }
                long remaining = deadlineNanos - clock.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                try {
                    return answer.get(remaining, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    // loop: the deadline is judged on the run's clock
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("an attempt's answer is never completed exceptionally", e);
                }
            }
        }
        // end::retries[]

        private void record(String operation, Outcome outcome, long latencyNanos, Throwable error) {
            OperationAccumulator op = operations.computeIfAbsent(operation, OperationAccumulator::new);
            op.count(outcome);
            recorder.ended(outcome, latencyNanos);
            if (outcome == Outcome.TIMED_OUT || outcome == Outcome.FAILED) {
                causes.merge(error == null ? "none" : error.getClass().getSimpleName(), 1L, Long::sum);
            }
            if (outcome != Outcome.REJECTED && outcome != Outcome.POOL_EXHAUSTED) {
                latency.record(latencyNanos);
                op.latency.record(latencyNanos);
            }
        }

        // tag::classify[]
        private Outcome classify(long latencyNanos, Throwable error) {
            if (error instanceof PoolExhaustedException) {
                return Outcome.POOL_EXHAUSTED;
            }
            // at or past the deadline, as Deadline.isExpired sees it: a request that gave up exactly at its
            // deadline (DeadlineExceededException) is timed out, never failed
            if (latencyNanos >= timeoutNanos) {
                return Outcome.TIMED_OUT;
            }
            if (error == null) {
                return Outcome.COMPLETED;
            }
            return error instanceof RequestRejectedException ? Outcome.REJECTED : Outcome.FAILED;
        }
        // end::classify[]

        RunResult result(long warmupRequests, RunTimeline timeline, HiccupSummary hiccups) {
            long[] totals = new long[Outcome.values().length];
            Map<String, RunResult.OperationResult> ops = new TreeMap<>();
            planned.keySet().forEach(name -> operations.computeIfAbsent(name, OperationAccumulator::new));
            operations.forEach((name, op) -> {
                for (Outcome o : Outcome.values()) {
                    totals[o.ordinal()] += op.outcomes[o.ordinal()].sum();
                }
                ops.put(name, op.result(planned.getOrDefault(name, 0L)));
            });
            return new RunResult(spec, offered, started.sum(), notStarted,
                    totals[Outcome.COMPLETED.ordinal()], totals[Outcome.TIMED_OUT.ordinal()],
                    totals[Outcome.FAILED.ordinal()], totals[Outcome.REJECTED.ordinal()],
                    totals[Outcome.POOL_EXHAUSTED.ordinal()], unfinished, wallNanos,
                    latency.summary(), ops, sendLag.summary(), new TreeMap<>(causes),
                    maxOverrun.get(), segments.rows(), traced.sum(), warmupRequests, timeline, hiccups, attempts.sum(),
                    budget == null ? 0 : budget.denied(), abandoned.sum(), attemptsStillRunning);
        }
    }

    /** How one attempt ended, as its caller saw it. */
    private record Attempt(Outcome outcome, Throwable error, long endNanos) {
    }

    /** What an attempt's own thread saw: its error (null: none) and when it answered, on the run's clock. */
    private record Answer(Throwable error, long endNanos) {
    }

    /** The cause of a timed-out attempt its caller stopped waiting for: a failure cause of its own in the report. */
    private static final class CallerGaveUp extends DeadlineExceededException {
        CallerGaveUp() {
            super("the caller stopped waiting for the attempt");
        }
    }

    private static final Throwable GAVE_UP = new CallerGaveUp();

    private static final class OperationAccumulator {
        final String operation;
        final LongAdder[] outcomes = new LongAdder[Outcome.values().length];
        final LatencyHistogram latency = new LatencyHistogram();

        OperationAccumulator(String operation) {
            this.operation = operation;
            for (int i = 0; i < outcomes.length; i++) {
                outcomes[i] = new LongAdder();
            }
        }

        void count(Outcome outcome) {
            outcomes[outcome.ordinal()].increment();
        }

        /** @param offered the operation's planned requests, finished or not */
        RunResult.OperationResult result(long offered) {
            return new RunResult.OperationResult(operation, offered,
                    outcomes[Outcome.COMPLETED.ordinal()].sum(), outcomes[Outcome.TIMED_OUT.ordinal()].sum(),
                    outcomes[Outcome.FAILED.ordinal()].sum(), outcomes[Outcome.REJECTED.ordinal()].sum(),
                    outcomes[Outcome.POOL_EXHAUSTED.ordinal()].sum(), latency.summary());
        }
    }
}
