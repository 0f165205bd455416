package archlab.order;

import archlab.request.RequestRejectedException;
import java.time.Duration;
import java.util.Locale;

/**
 * Refused at once by a {@link RateLimiter}: the operation is over its quota. Nothing was read, changed
 * or called. Distinct from every other refusal (a {@link RequestRejectedException}, which the open-loop
 * runner counts as <em>rejected</em>, never as failed), and it carries the wait until the next token:
 * the {@code Retry-After} a client should honour.
 */
public final class RateLimitedException extends RequestRejectedException {

    private final String operation;

    /**
     * @param operation     what was limited, e.g. "pay"
     * @param ratePerSecond the quota's sustained rate
     * @param burst         the quota's burst (the bucket's capacity)
     * @param retryAfter    the wait until the next token; not negative
     */
    public RateLimitedException(String operation, long ratePerSecond, long burst, Duration retryAfter) {
        super(String.format(Locale.ROOT, "rate limited: %s is over its quota of %d/s (burst %d); retry after %.3fms",
                operation, ratePerSecond, burst, retryAfter.toNanos() / 1e6), retryAfter);
        this.operation = operation;
    }

    /** @return the operation that was limited */
    public String operation() {
        return operation;
    }
}
