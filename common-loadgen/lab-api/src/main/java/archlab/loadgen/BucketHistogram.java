package archlab.loadgen;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The book's latency histogram: fixed 1 ms buckets from 0 to {@code maxMillis}, plus one overflow
 * bucket for everything at or above {@code maxMillis}.
 *
 * <p>{@link #percentile(double)} returns the <em>upper edge</em> of the bucket that holds the target
 * sample (the {@code ceil(q·n)}-th smallest), exactly as the book's Go {@code Histogram.Percentile}
 * does: an approximation that never under-reports by more than 1 ms. The overflow bucket answers
 * {@code maxMillis + 1} ms, as in the book.
 *
 * <p>Thread-safety: {@link #record(long)} is lock-free (one atomic increment) and may be called from
 * any number of threads; read methods see a consistent-enough view once recording has stopped.
 */
public final class BucketHistogram {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final AtomicLongArray counts;

    /** @param maxMillis the first latency, in ms, that lands in the overflow bucket; at least 1 */
    public BucketHistogram(int maxMillis) {
        if (maxMillis < 1) {
            throw new IllegalArgumentException("maxMillis must be at least 1, was " + maxMillis);
        }
        this.counts = new AtomicLongArray(maxMillis + 1);
    }

    /** Records one latency in nanoseconds; a negative latency counts as 0. */
    public void record(long latencyNanos) {
        long millis = Math.max(0, latencyNanos) / NANOS_PER_MILLI;
        int bucket = (int) Math.min(millis, counts.length() - 1);
        counts.incrementAndGet(bucket);
    }

    /** @return the number of recorded latencies */
    public long count() {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) {
            total += counts.get(i);
        }
        return total;
    }

    /** @return how many latencies fell into bucket {@code i} ([i ms, i+1 ms); the last one is the overflow) */
    public long countInBucket(int i) {
        return counts.get(i);
    }

    /** @return the number of buckets including the overflow bucket */
    public int buckets() {
        return counts.length();
    }

    /**
     * @param q the quantile in [0, 1], e.g. 0.99; values outside are clamped as in the book
     * @return the upper edge of the bucket holding the {@code ceil(q·n)}-th sample; zero when empty
     */
    public Duration percentile(double q) {
        long total = count();
        if (total == 0) {
            return Duration.ZERO;
        }
        // the ceil(q·n)-th smallest, at least the 1st: q = 0 is the smallest sample, not bucket 0 regardless
        long target = Math.max(1, (long) Math.ceil(Math.min(Math.max(q, 0), 1) * total));
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= target) {
                return Duration.ofMillis(i + 1L);
            }
        }
        return Duration.ofMillis(counts.length());
    }
}
