package archlab.request;

/**
 * How one request of a load run ended, as the runners ({@code archlab.loadgen}) count it and the timeline records it.
 * Every started request has exactly one outcome. It lives here, beside the request, because the timeline
 * ({@code archlab.timeline}) records it and the runners depend on the timeline.
 */
public enum RequestOutcome {
    /** Finished without an error within the timeout. */
    COMPLETED,
    /** Finished (with or without an error) at or after planned start + timeout: its deadline had expired. */
    TIMED_OUT,
    /** Ended with an error before the timeout: invalid state, a downstream error. */
    FAILED,
    /** Refused at once by the service ({@link RequestRejectedException}), e.g. by a rate limiter. */
    REJECTED,
    /** The workload had nothing left to send ({@link PoolExhaustedException}); not a success. */
    POOL_EXHAUSTED
}
