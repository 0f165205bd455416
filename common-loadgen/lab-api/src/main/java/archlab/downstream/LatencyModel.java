package archlab.downstream;

import java.time.Duration;

/**
 * How long a stub's reply takes, per call.
 *
 * <p>Contract: {@link #latencyOf(long)} returns a non-negative duration; a stub that gets a negative or
 * {@code null} one throws {@link IllegalStateException}. It must be safe to call from any number of
 * threads, and should be a pure function of the call index so that runs repeat.
 */
@FunctionalInterface
public interface LatencyModel {

    /** Every reply arrives at once. */
    LatencyModel ZERO = constant(Duration.ZERO);

    /**
     * @param callIndex the call's number at its stub, 0-based in arrival order
     * @return how long the call's reply takes; never negative
     */
    Duration latencyOf(long callIndex);

    /**
     * @param latency the latency of every call; not negative
     * @return a model in which every call takes {@code latency}
     * @throws IllegalArgumentException if {@code latency} is {@code null} or negative
     */
    static LatencyModel constant(Duration latency) {
        return new Constant(latency);
    }

    /** The model behind {@link #constant(Duration)}; a record so that it prints its latency. */
    record Constant(Duration latency) implements LatencyModel {
        public Constant {
            if (latency == null || latency.isNegative()) {
                throw new IllegalArgumentException("latency must not be null or negative, was " + latency);
            }
        }

        @Override
        public Duration latencyOf(long callIndex) {
            return latency;
        }
    }
}
