package archlab.loadgen;

import archlab.request.RequestOutcome;
import archlab.request.Deadline;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.timeline.Interval;
import archlab.timeline.IntervalRecorder;
import archlab.timeline.RunTimeline;
import archlab.timeline.TimelineSettings;
import archlab.trace.RequestTrace;
import archlab.trace.Trace;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
 * <p>The parts: {@link Schedule} starts each request at its planned instant; {@link PhaseTally} counts what
 * each one did and builds the {@link RunResult}; {@link RetryingCaller} sends a request as a caller that retries.
 * This class runs the phases and waits for their requests to drain.
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
            PhaseTally measured = runPhase(spec, spec.plannedRequests(), warmup, workload, recorder);
            RunTimeline recorded = recorder.finish();
            return measured.result(warmup, recorded, recorder.hiccups());
        }
    }

    private PhaseTally runPhase(LoadSpec spec, int count, long sequenceOffset, Workload workload, IntervalRecorder recorder) {
        PhaseTally phase = new PhaseTally(clock, spec, count, workload, recorder);
        long[] offsets = spec.arrival().plan(count, spec.ratePerSecond());
        long t0 = clock.nanoTime() + 1_000_000L; // 1 ms to get going
        recorder.planned(t0, offsets);
        Schedule.Request request = spec.retries().retries()
                ? new RetryingCaller(phase, backoff)::send
                : (sequence, planned) -> execute(phase, sequence, planned);
        Schedule.Sent sent = new Schedule(clock).send(t0, offsets, sequenceOffset, spec.threads().factory(),
                (sequence, planned) -> {
                    try {
                        request.send(sequence, planned);
                    } finally {
                        phase.done.countDown();
                    }
                }, phase::threadNotStarted);
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
        phase.offered = sent.offered();
        phase.notStarted = sent.notStarted();
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

    /** One request of a caller that does not retry: one attempt, its deadline the planned start + the timeout. */
    private void execute(PhaseTally phase, long sequence, long plannedNanos) {
        long startNanos = phase.start(plannedNanos);
        String operation = phase.operationOf(sequence);
        RequestTrace requestTrace = phase.spec.traceEvery() > 0 && sequence % phase.spec.traceEvery() == 0
                ? new RequestTrace(clock, plannedNanos) : null;
        Trace trace = requestTrace == null ? Trace.OFF : requestTrace;
        if (requestTrace != null) {
            requestTrace.begin(startNanos);
        }
        RequestContext ctx = new RequestContext(sequence, plannedNanos,
                new Deadline(plannedNanos + phase.timeoutNanos), clock, trace);
        Throwable error = null;
        try {
            phase.workload.execute(sequence, operation, ctx);
        } catch (Throwable t) {
            error = t;
        }
        long endNanos = clock.nanoTime();
        phase.lastEnd.accumulate(endNanos);
        phase.attempts.increment();
        long latencyNanos = endNanos - plannedNanos;
        RequestOutcome outcome = phase.classify(latencyNanos, error);
        if (outcome == RequestOutcome.TIMED_OUT) {
            phase.maxOverrun.accumulate(latencyNanos - phase.timeoutNanos);
        }
        phase.record(operation, outcome, latencyNanos, error);
        if (requestTrace != null) {
            requestTrace.finish(endNanos);
            phase.segments.record(operation, requestTrace);
            phase.traced.increment();
        }
    }
}
