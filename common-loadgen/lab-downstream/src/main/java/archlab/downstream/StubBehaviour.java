package archlab.downstream;

import java.time.Duration;

/**
 * How a stub behaves: how long its replies take and which of its calls are refused.
 *
 * <p>Immutable and thread-safe (if its latency model is).
 *
 * @param latency how long each reply takes
 * @param errors  which calls are refused with an injected error, before the downstream does anything
 *                (for payments: the declines)
 */
public record StubBehaviour(LatencyModel latency, FaultModel errors) {

    /** Replies at once, never fails: for unit tests. */
    public static final StubBehaviour INSTANT = new StubBehaviour(LatencyModel.ZERO, ErrorInjection.NONE);

    public StubBehaviour {
        if (latency == null || errors == null) {
            throw new IllegalArgumentException("latency and errors are required (use LatencyModel.ZERO, ErrorInjection.NONE)");
        }
    }

    /** Every reply takes {@code latency}; no call fails. */
    public static StubBehaviour constant(Duration latency) {
        return new StubBehaviour(LatencyModel.constant(latency), ErrorInjection.NONE);
    }

    /** @return this behaviour with {@code errors} instead */
    public StubBehaviour withErrors(FaultModel errors) {
        return new StubBehaviour(latency, errors);
    }
}
