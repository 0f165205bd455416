package archlab.loadgen;

/**
 * Immutable summary of a {@link LatencyHistogram}. Built by {@link #builder()}.
 *
 * @param count       recorded latencies
 * @param meanMicros  exact mean, µs
 * @param maxMicros   exact maximum, µs
 * @param bookP50Millis  p50 from the 1 ms buckets (upper bucket edge, the book's method), ms
 * @param bookP99Millis  p99 likewise, ms
 * @param bookP999Millis p99.9 likewise, ms
 * @param p50Micros   p50 from the HdrHistogram, µs (3 significant digits)
 * @param p90Micros   p90, µs
 * @param p99Micros   p99, µs
 * @param p999Micros  p99.9, µs
 * @param hdrBase64   the full microsecond histogram, compressed and Base64-encoded
 */
public record LatencySummary(
        long count,
        double meanMicros,
        double maxMicros,
        long bookP50Millis,
        long bookP99Millis,
        long bookP999Millis,
        long p50Micros,
        long p90Micros,
        long p99Micros,
        long p999Micros,
        String hdrBase64) {

    /** @return a builder of a summary of nothing recorded: every figure 0, no histogram ({@code ""}) */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link LatencySummary} figure by figure (units as the components'); a figure not set is 0. Not thread-safe. */
    public static final class Builder {
        private long count;
        private double meanMicros;
        private double maxMicros;
        private long bookP50Millis;
        private long bookP99Millis;
        private long bookP999Millis;
        private long p50Micros;
        private long p90Micros;
        private long p99Micros;
        private long p999Micros;
        private String hdrBase64 = "";

        private Builder() {
        }

        /** @see LatencySummary#count() */
        public Builder count(long n) { count = n; return this; }

        /** @see LatencySummary#meanMicros() */
        public Builder meanMicros(double us) { meanMicros = us; return this; }

        /** @see LatencySummary#maxMicros() */
        public Builder maxMicros(double us) { maxMicros = us; return this; }

        /** @see LatencySummary#bookP50Millis() */
        public Builder bookP50Millis(long ms) { bookP50Millis = ms; return this; }

        /** @see LatencySummary#bookP99Millis() */
        public Builder bookP99Millis(long ms) { bookP99Millis = ms; return this; }

        /** @see LatencySummary#bookP999Millis() */
        public Builder bookP999Millis(long ms) { bookP999Millis = ms; return this; }

        /** @see LatencySummary#p50Micros() */
        public Builder p50Micros(long us) { p50Micros = us; return this; }

        /** @see LatencySummary#p90Micros() */
        public Builder p90Micros(long us) { p90Micros = us; return this; }

        /** @see LatencySummary#p99Micros() */
        public Builder p99Micros(long us) { p99Micros = us; return this; }

        /** @see LatencySummary#p999Micros() */
        public Builder p999Micros(long us) { p999Micros = us; return this; }

        /** @see LatencySummary#hdrBase64() */
        public Builder hdrBase64(String encoded) { hdrBase64 = encoded; return this; }

        /** @return the summary */
        public LatencySummary build() {
            return new LatencySummary(count, meanMicros, maxMicros, bookP50Millis, bookP99Millis, bookP999Millis,
                    p50Micros, p90Micros, p99Micros, p999Micros, hdrBase64);
        }
    }
}
