package archlab.background;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Capped exponential backoff, the one formula behind every retry in the lab (the outbox relay's deliveries, the
 * reconciler's releases, the keyed calls' retries): after the {@code n}-th failure wait {@code base × 2^(n − 1)},
 * at most {@code max}. Callers that want jitter draw it below this cap with {@link #fullJitter}: many callers that
 * failed together (an outage, a stall) then retry spread over the cap instead of in one wave.
 *
 * <p>Stateless and thread-safe.
 */
public final class Backoff {

    private Backoff() {
    }

    /**
     * @param base the wait after the first failure; zero or positive
     * @param max  the longest wait
     * @param n    how many failures so far; below 1 counts as 1, above 31 as 31 (the cap is reached long before)
     * @return {@code min(base × 2^(n − 1), max)}
     */
    public static Duration exponential(Duration base, Duration max, int n) {
        int doublings = Math.max(0, Math.min(n - 1, 30));
        Duration wait = base.multipliedBy(1L << doublings);
        return wait.compareTo(max) > 0 ? max : wait;
    }

    /**
     * Full jitter: a wait drawn uniformly from [0, {@code cap}], nanosecond-grained. The same {@code random} state
     * gives the same wait, so a seeded caller retries the same way on every run.
     *
     * @param cap    the longest wait, usually {@link #exponential}'s answer; zero or positive
     * @param random the source of the draw; one draw is taken, except for a zero cap (none)
     * @return a wait in [0, cap]
     */
    public static Duration fullJitter(Duration cap, SplittableRandom random) {
        long capNanos = cap.toNanos();
        if (capNanos < 0) {
            throw new IllegalArgumentException("cap must be zero or positive, was " + cap);
        }
        return capNanos == 0 ? Duration.ZERO : Duration.ofNanos(random.nextLong(capNanos + 1));
    }
}
