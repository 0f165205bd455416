package archlab.order;

import archlab.background.Backoff;
import archlab.request.DeadlineExceededException;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Bounded retries with exponential backoff and full jitter, for idempotent calls only, never past the
 * request's deadline.
 *
 * <p>The traps it avoids: retrying a call that is not idempotent (a charge without a key charges
 * twice); retrying in lock-step (every client retries at the same instant and the downstream sees a
 * wave — jitter spreads them); retrying after the caller has given up (a retry that starts after the
 * deadline is work nobody waits for). Each attempt gets its own per-call budget carved out of the
 * deadline; a backoff that would end past the deadline is not slept — the last error is thrown.
 *
 * <p>Thread-safety: safe from any thread; the jitter source is split per call.
 *
 * @param maxAttempts   attempts in all, ≥ 1 (1 = no retry)
 * @param baseBackoff   backoff before the 2nd attempt; doubles each time
 * @param maxBackoff    cap on one backoff
 * @param perCallBudget the most one attempt may take (carved out of the deadline)
 * @param seed          seeds the jitter: the same retries on every run
 */
public record RetryPolicy(int maxAttempts, Duration baseBackoff, Duration maxBackoff, Duration perCallBudget, long seed) {

    /** Sleeps between attempts; tests inject one that advances a fake clock. */
    @FunctionalInterface
    public interface Sleeper {
        Sleeper REAL = nanos -> {
            try {
                Thread.sleep(Duration.ofNanos(nanos));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during retry backoff", e);
            }
        };

        void sleepNanos(long nanos);
    }

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        for (Duration d : new Duration[] {baseBackoff, maxBackoff, perCallBudget}) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("backoffs and budget must be zero or positive, was " + d);
            }
        }
        if (perCallBudget.isZero()) {
            throw new IllegalArgumentException("perCallBudget must be positive");
        }
    }

    /**
     * Runs {@code attempt} until it succeeds, the error is not {@code retryable}, the attempts are used
     * up, or the next backoff would end past the deadline; then throws the last error.
     *
     * @param ctx      the request; each attempt sees it with its per-call budget
     * @param attempt  the idempotent call, given the attempt's context
     * @param retries  counts retries (attempts after the first), may be null
     */
    // tag::run[]
    public <T> T run(RequestContext ctx, java.util.function.Function<RequestContext, T> attempt,
                     Predicate<RuntimeException> retryable, Sleeper sleeper, java.util.concurrent.atomic.LongAdder retries) {
        SplittableRandom jitter = new SplittableRandom(seed ^ ctx.sequence() * 0x9E3779B97F4A7C15L);
        RuntimeException last = null;
        for (int n = 1; n <= maxAttempts; n++) {
            if (ctx.deadline().isExpired(ctx.clock())) {
                throw last != null ? last : new DeadlineExceededException("retry before attempt " + n);
            }
            try {
                return attempt.apply(ctx.withCallBudget(perCallBudget));
            } catch (RuntimeException e) {
                last = e;
                if (!retryable.test(e) || n == maxAttempts) {
                    throw e;
                }
                long backoffNanos = Backoff.fullJitter(Backoff.exponential(baseBackoff, maxBackoff, n), jitter).toNanos();
                if (ctx.remainingNanos() <= backoffNanos) {
                    throw e; // the next attempt would start after the caller gave up
                }
                if (retries != null) {
                    retries.increment();
                }
                sleeper.sleepNanos(backoffNanos);
            }
        }
        throw last; // unreachable: the loop returns or throws
    }
    // end::run[]

    /** Convenience for a call that returns nothing. */
    public void runVoid(RequestContext ctx, java.util.function.Consumer<RequestContext> attempt,
                        Predicate<RuntimeException> retryable, Sleeper sleeper, java.util.concurrent.atomic.LongAdder retries) {
        run(ctx, c -> {
            attempt.accept(c);
            return null;
        }, retryable, sleeper, retries);
    }

}
