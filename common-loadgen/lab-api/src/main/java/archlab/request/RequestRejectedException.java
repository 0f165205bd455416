package archlab.request;

import java.time.Duration;

/**
 * Thrown by a service that refuses a request at once (a rate limiter, a load shedder) instead of
 * queueing it. The open-loop runner counts it as <em>rejected</em>, apart from <em>failed</em>.
 * A service's own rate-limit error extends this class.
 */
public class RequestRejectedException extends RuntimeException {

    private final Duration retryAfter;

    /**
     * @param message    what refused the request and why
     * @param retryAfter how long until the request would be admitted; never negative
     */
    public RequestRejectedException(String message, Duration retryAfter) {
        super(message);
        if (retryAfter == null || retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must be zero or positive, was " + retryAfter);
        }
        this.retryAfter = retryAfter;
    }

    /** @return the wait until the next request would be admitted */
    public Duration retryAfter() {
        return retryAfter;
    }
}
