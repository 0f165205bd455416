package archlab.loadgen;

import java.util.SplittableRandom;

/**
 * When each request of an open-loop run is planned to start, as an offset from the run's start.
 * Both processes plan exactly {@code rate × duration} requests; the generator never skips one.
 */
public sealed interface Arrival permits Arrival.Fixed, Arrival.Poisson {

    /** The book's process: request {@code i} at {@code i × (1 s / rate)}, computed without drift. */
    static Arrival fixed() {
        return new Fixed();
    }

    /** Exponential gaps with mean {@code 1 s / rate}, from a seeded generator: the same plan on every run. */
    static Arrival poisson(long seed) {
        return new Poisson(seed);
    }

    /**
     * @param count       how many requests
     * @param ratePerSecond the mean arrival rate
     * @return the planned offsets in nanoseconds from the run's start, non-decreasing
     */
    long[] plan(int count, int ratePerSecond);

    /** @return a short name for reports */
    String describe();

    /** Fixed interval. */
    record Fixed() implements Arrival {
        @Override
        public long[] plan(int count, int ratePerSecond) {
            long[] offsets = new long[count];
            for (int i = 0; i < count; i++) {
                // i * 1e9 / rate in integer arithmetic: exact, no accumulated rounding drift
                offsets[i] = i * 1_000_000_000L / ratePerSecond;
            }
            return offsets;
        }

        @Override
        public String describe() {
            return "fixed";
        }
    }

    /** Poisson process (exponential inter-arrival gaps). */
    record Poisson(long seed) implements Arrival {
        @Override
        public long[] plan(int count, int ratePerSecond) {
            SplittableRandom random = new SplittableRandom(seed);
            double meanGapNanos = 1_000_000_000.0 / ratePerSecond;
            long[] offsets = new long[count];
            double t = 0;
            for (int i = 0; i < count; i++) {
                offsets[i] = (long) t;
                t += -Math.log(1.0 - random.nextDouble()) * meanGapNanos;
            }
            return offsets;
        }

        @Override
        public String describe() {
            return "poisson(seed=" + seed + ")";
        }
    }
}
