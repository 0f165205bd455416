package archlab.order;

import archlab.request.RequestRejectedException;
import java.time.Duration;

/**
 * A call refused at once because the downstream's circuit breaker is open: failing fast instead of waiting for a timeout.
 * A {@link RequestRejectedException}: the runner counts it as rejected, like the rate limiter's refusals.
 */
public final class CircuitOpenException extends RequestRejectedException {

    private static final long serialVersionUID = 1L;

    public CircuitOpenException(String breaker, Duration retryAfter) {
        super("circuit " + breaker + " is open; next trial in " + retryAfter.toMillis() + " ms", retryAfter);
    }
}
