package archlab.loadgen;

import archlab.request.RequestOutcome;
import archlab.background.Backoff;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * How the upstream callers of a load run retry: the runner's stand-in for a client library's retry setting.
 *
 * <p>The trap it teaches: a retry is a new request. Each one meets the service as a request of its own, so when the
 * service slows and callers time out, every caller that retries multiplies the load at the very moment the service can
 * take the least of it. {@code amplification = attempts / planned requests} is how much; 1.0 when nobody retried.
 * Two things keep it down: waiting before a retry (capped, jittered back-off: retries spread out instead of arriving
 * in a wave) and a {@link RetryBudget} (retries at most a fraction of first attempts, however many time out).
 *
 * <p>A request's latency runs from its first planned start to its final answer; each attempt carries a deadline of
 * its own (its start + the run's timeout), and the caller stops waiting for it there — the service may still be
 * working on it.
 *
 * @param maxAttempts  attempts per request, the first included; 1 = no retries
 * @param backoffBase  the first retry's back-off cap, doubled per retry; {@link Duration#ZERO} = retry immediately
 * @param backoffCap   the largest back-off cap; at least {@code backoffBase}
 * @param budget       the retry budget shared by every caller of the run, or {@code null} for none
 * @param seed         seeds the jitter: the same request waits the same back-off on every run and every checkpoint
 */
public record ClientRetryPolicy(int maxAttempts, Duration backoffBase, Duration backoffCap, RetryBudget.BudgetSettings budget,
                                long seed) {

    /** The longest back-off cap a policy may have: a caller that waits longer between attempts has gone home. */
    public static final Duration MAX_BACKOFF = Duration.ofHours(1);

    /** Callers that never retry: the runner as it always was. */
    public static final ClientRetryPolicy NONE = new ClientRetryPolicy(1, Duration.ZERO, Duration.ZERO, null, 0);

    public ClientRetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        Objects.requireNonNull(backoffBase, "backoffBase");
        Objects.requireNonNull(backoffCap, "backoffCap");
        if (backoffBase.isNegative() || backoffCap.compareTo(backoffBase) < 0) {
            throw new IllegalArgumentException("back-off must satisfy 0 <= base <= cap, was base=" + backoffBase + " cap=" + backoffCap);
        }
        if (backoffCap.compareTo(MAX_BACKOFF) > 0) {
            throw new IllegalArgumentException("the back-off cap must be at most " + MAX_BACKOFF + ", was " + backoffCap);
        }
    }

    /**
     * @param timeout each attempt's timeout
     * @return the longest a request can take from its planned start: every attempt timing out, every back-off at its cap
     */
    public long longestRequestNanos(Duration timeout) {
        return Math.addExact(Math.multiplyExact(maxAttempts, timeout.toNanos()),
                Math.multiplyExact(maxAttempts - 1L, backoffCap.toNanos()));
    }

    /** @return up to {@code maxAttempts} attempts, each retry sent the moment the last one failed or timed out */
    public static ClientRetryPolicy immediately(int maxAttempts) {
        return new ClientRetryPolicy(maxAttempts, Duration.ZERO, Duration.ZERO, null, 0);
    }

    /** @return up to {@code maxAttempts} attempts, retry n after a uniform wait in [0, min(cap, base·2^(n-1))] */
    public static ClientRetryPolicy jitteredBackoff(int maxAttempts, Duration base, Duration cap, long seed) {
        return new ClientRetryPolicy(maxAttempts, base, cap, null, seed);
    }

    /** @return this policy with retry budget {@code b} */
    public ClientRetryPolicy withBudget(RetryBudget.BudgetSettings b) {
        return new ClientRetryPolicy(maxAttempts, backoffBase, backoffCap, Objects.requireNonNull(b, "budget"), seed);
    }

    /** @return whether callers retry at all */
    public boolean retries() {
        return maxAttempts > 1;
    }

    /** @return whether an attempt that ended as {@code outcome} is retried (if attempts and budget allow): a timeout, a failure or a refusal */
    public boolean retriesAfter(RequestOutcome outcome) {
        return outcome == RequestOutcome.TIMED_OUT || outcome == RequestOutcome.FAILED || outcome == RequestOutcome.REJECTED;
    }

    /**
     * Full jitter: a uniform wait in [0, min(cap, base·2^(retry-1))], drawn from {@code seed}, the request's sequence
     * number and the retry's number, so it is the same on every run.
     *
     * @param retry    1 for the first retry
     * @param sequence the request's sequence number in the run
     * @return the back-off before retry {@code retry}, in nanoseconds; 0 when retrying immediately
     */
    public long backoffNanos(int retry, long sequence) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry counts from 1, was " + retry);
        }
        if (backoffBase.isZero()) {
            return 0;
        }
        // the lab's one back-off formula, with full jitter drawn from the request's own seed
        Duration ceiling = Backoff.exponential(backoffBase, backoffCap, retry);
        return Backoff.fullJitter(ceiling, new SplittableRandom(seed ^ (sequence * 0x9e3779b97f4a7c15L) ^ retry)).toNanos();
    }

    /** @return e.g. {@code max_attempts=3 backoff=immediate budget=none} or {@code max_attempts=3 backoff=jittered 10ms..200ms budget=10%+10} */
    public String describe() {
        if (!retries()) {
            return "none";
        }
        String backoff = backoffBase.isZero() ? "immediate"
                : "jittered " + backoffBase.toMillis() + "ms.." + backoffCap.toMillis() + "ms";
        return String.format(Locale.ROOT, "max_attempts=%d backoff=%s budget=%s", maxAttempts, backoff,
                budget == null ? "none" : budget.describe());
    }
}
