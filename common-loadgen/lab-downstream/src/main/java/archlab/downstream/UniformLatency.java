package archlab.downstream;

import java.time.Duration;
import java.util.SplittableRandom;

/**
 * A latency drawn per call, uniformly from {@code [min, max)}, as a pure function of the seed and the call's index:
 * the same call takes the same time on every run with the seed. Immutable and thread-safe.
 *
 * @param seed the seed of the draws
 * @param min  the shortest latency; not negative
 * @param max  the bound (exclusive); greater than {@code min}
 */
public record UniformLatency(long seed, Duration min, Duration max) implements LatencyModel {

    public UniformLatency {
        if (min == null || max == null || min.isNegative() || max.compareTo(min) <= 0) {
            throw new IllegalArgumentException("latencies must be 0 <= min < max, were " + min + " and " + max);
        }
    }

    @Override
    public Duration latencyOf(long callIndex) {
        long draw = new SplittableRandom(seed ^ callIndex * 0x9E3779B97F4A7C15L).nextLong(min.toNanos(), max.toNanos());
        return Duration.ofNanos(draw);
    }
}
