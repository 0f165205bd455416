package archlab.loadgen;

import archlab.request.RequestOutcome;
import archlab.request.Deadline;
import archlab.request.DeadlineExceededException;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.trace.Trace;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

/**
 * A caller that retries ({@link LoadSpec#retries()}): each attempt runs on a thread of its own with a deadline of its
 * own (its start + the timeout), and the caller waits for it no longer than that. A caller that stops waiting retries,
 * as its {@link ClientRetryPolicy} and {@link RetryBudget} allow, while the service may still be working on the
 * attempt it left: that is how retries pile up on a slow service. The request ends with its last attempt's outcome;
 * its latency runs from its first planned start.
 *
 * <p>Thread-safety: {@link #send} is called from many request threads at once; all it shares is the phase's tally.
 */
final class RetryingCaller {

    private final PhaseTally tally;
    private final LongConsumer backoff;

    /**
     * @param tally   the phase the requests count into
     * @param backoff waits out a retry's back-off, in nanoseconds
     */
    RetryingCaller(PhaseTally tally, LongConsumer backoff) {
        this.tally = tally;
        this.backoff = backoff;
    }

    // tag::retries[]
    /** One request as a caller that retries sends it: attempts until one is not retried, or none may be. */
    void send(long sequence, long plannedNanos) {
        tally.start(plannedNanos);
        String operation = tally.operationOf(sequence);
        ClientRetryPolicy retry = tally.retry;
        RetryBudget budget = tally.budget;
        long attemptPlanned = plannedNanos;
        Attempt last = null;
        try {
            for (int attempt = 1; ; attempt++) {
                tally.attempts.increment();
                if (attempt == 1) {
                    if (budget != null) {
                        budget.firstAttempt();
                    }
                } else {
                    tally.recorder.retried();
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
                attemptPlanned = tally.clock.nanoTime();
            }
        } catch (RuntimeException | Error e) {
            // a bug of the runner's own (a back-off it cannot compute): the request still ends, as failed
            last = new Attempt(RequestOutcome.FAILED, e, tally.clock.nanoTime());
        }
        tally.lastEnd.accumulate(last.endNanos());
        tally.record(operation, last.outcome(), last.endNanos() - plannedNanos, last.error());
    }

    /**
     * Sends one attempt on a thread of its own and waits for its answer until the attempt's deadline, no longer.
     * The attempt's own thread records how far past that deadline the service answered, whether or not anyone
     * still waited.
     */
    private Attempt attempt(long sequence, String operation, long attemptPlanned) {
        NanoClock clock = tally.clock;
        long deadlineNanos = attemptPlanned + tally.timeoutNanos;
        RequestContext ctx = new RequestContext(sequence, attemptPlanned, new Deadline(deadlineNanos), clock, Trace.OFF);
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        tally.liveAttempts.incrementAndGet();
        Runnable send = () -> {
            Throwable error = null;
            try {
                tally.workload.execute(sequence, operation, ctx);
            } catch (Throwable t) {
                error = t;
            } finally {
                long endNanos = clock.nanoTime();
                tally.maxOverrun.accumulate(endNanos - deadlineNanos);
                tally.liveAttempts.decrementAndGet();
                answer.complete(new Answer(error, endNanos));
            }
        };
        try {
            Schedule.start(tally.spec.threads().factory(), send);
        } catch (OutOfMemoryError | RuntimeException e) {
            tally.liveAttempts.decrementAndGet();
            answer.complete(new Answer(e, clock.nanoTime()));
        }
        Answer got = awaitUntil(answer, deadlineNanos);
        if (got == null) {
            tally.abandoned.increment();
            return new Attempt(RequestOutcome.TIMED_OUT, GAVE_UP, Math.max(deadlineNanos, clock.nanoTime()));
        }
        // classified and timed by when the attempt answered, not by when its caller's thread woke up to it
        return new Attempt(tally.classify(got.endNanos() - attemptPlanned, got.error()), got.error(), got.endNanos());
    }

    /** @return the attempt's answer, or null once its deadline passed first */
    private Answer awaitUntil(CompletableFuture<Answer> answer, long deadlineNanos) {
        while (true) {
            if (answer.isDone()) {
                return answer.join();
            }
            long remaining = deadlineNanos - tally.clock.nanoTime();
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

    /** How one attempt ended, as its caller saw it. */
    private record Attempt(RequestOutcome outcome, Throwable error, long endNanos) {
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
}
