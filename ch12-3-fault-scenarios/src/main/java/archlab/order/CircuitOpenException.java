package archlab.order;

import java.time.Duration;

/** A call refused at once because the downstream's circuit breaker is open: failing fast instead of waiting for a timeout. */
public final class CircuitOpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    public CircuitOpenException(String breaker, Duration retryAfter) {
        super("circuit " + breaker + " is open; next trial in " + retryAfter.toMillis() + " ms");
        this.retryAfter = retryAfter;
    }

    /** @return how long until the breaker lets a trial call through */
    public Duration retryAfter() {
        return retryAfter;
    }
}
