package archlab.background;

import java.time.Duration;

/**
 * Capped exponential backoff, the one formula behind every retry in the lab (the outbox relay's deliveries, the
 * reconciler's releases, the keyed calls' retries): after the {@code n}-th failure wait {@code base × 2^(n − 1)},
 * at most {@code max}. Callers that want jitter draw it below this cap.
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
}
