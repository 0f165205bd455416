package archlab.loadgen;

/**
 * Immutable summary of a {@link LatencyHistogram}.
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
}
