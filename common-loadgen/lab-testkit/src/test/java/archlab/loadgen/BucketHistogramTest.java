package archlab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BucketHistogramTest {

    private static final long MS = 1_000_000L;
    private static final int MAX_MILLIS = 50;

    /**
     * The reference: sort the samples, take the ceil(q·n)-th smallest (at least the first; q clamped
     * to [0, 1]) and answer the upper edge of its 1 ms bucket, maxMillis + 1 for the overflow bucket.
     */
    private static Duration referencePercentile(long[] samples, double q, int maxMillis) {
        if (samples.length == 0) {
            return Duration.ZERO;
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        double clamped = Math.min(Math.max(q, 0), 1);
        int rank = (int) Math.max(1, Math.ceil(clamped * sorted.length));
        long sample = Math.max(0, sorted[rank - 1]);
        long bucket = Math.min(sample / MS, maxMillis);
        return Duration.ofMillis(bucket + 1);
    }

    /** 10,007 samples from 0 to 60 ms, skewed towards the low end, some negative, some in the overflow. */
    private static long[] randomSamples(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] samples = new long[10_007];
        for (int i = 0; i < samples.length; i++) {
            double u = random.nextDouble();
            samples[i] = (long) (u * u * 60 * MS) - 10_000; // a few just below 0
        }
        return samples;
    }

    @ParameterizedTest(name = "q = {0}")
    @ValueSource(doubles = {0, 0.0001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1, -0.5, 1.5})
    @DisplayName("percentile is the upper edge of the bucket holding the ceil(q·n)-th sample, as computed from the sorted samples")
    void percentileEqualsReferenceFromSortedSamples(double q) {
        for (long seed : new long[] {1, 2, 3}) {
            long[] samples = randomSamples(seed);
            BucketHistogram h = new BucketHistogram(MAX_MILLIS);
            for (long s : samples) {
                h.record(s);
            }
            assertThat(h.percentile(q)).as("seed %d", seed).isEqualTo(referencePercentile(samples, q, MAX_MILLIS));
        }
    }

    @Test
    @DisplayName("the samples really reach the overflow bucket, so the reference test covers it")
    void randomSamplesCoverTheOverflowBucket() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        for (long s : randomSamples(1)) {
            h.record(s);
        }
        assertThat(h.countInBucket(MAX_MILLIS)).isPositive();
        assertThat(h.percentile(1)).isEqualTo(Duration.ofMillis(MAX_MILLIS + 1));
    }

    @Test
    @DisplayName("percentile(0) is the bucket of the smallest sample, not bucket 0 when bucket 0 is empty")
    void percentileZeroIsTheSmallestSamplesBucket() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        h.record(7 * MS + 300_000);
        h.record(12 * MS);
        h.record(30 * MS);

        assertThat(h.percentile(0)).isEqualTo(Duration.ofMillis(8));
        assertThat(h.percentile(-1)).isEqualTo(Duration.ofMillis(8));
    }

    @Test
    @DisplayName("quantiles outside [0, 1] are clamped: below 0 answers like 0, above 1 like 1")
    void quantilesOutsideTheRangeAreClamped() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        for (int ms = 3; ms <= 9; ms++) {
            h.record(ms * MS);
        }
        assertThat(h.percentile(-0.1)).isEqualTo(h.percentile(0)).isEqualTo(Duration.ofMillis(4));
        assertThat(h.percentile(7)).isEqualTo(h.percentile(1)).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    @DisplayName("a latency of maxMillis or more lands in the overflow bucket, which answers maxMillis + 1 ms")
    void overflowBucketHoldsEverythingFromMaxMillisUp() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        h.record(MAX_MILLIS * MS - 1);        // last regular bucket
        h.record(MAX_MILLIS * MS);            // overflow
        h.record(Long.MAX_VALUE);             // overflow

        assertThat(h.buckets()).isEqualTo(MAX_MILLIS + 1);
        assertThat(h.countInBucket(MAX_MILLIS - 1)).isEqualTo(1);
        assertThat(h.countInBucket(MAX_MILLIS)).isEqualTo(2);
        assertThat(h.percentile(0.34)).isEqualTo(Duration.ofMillis(MAX_MILLIS + 1));
        assertThat(h.percentile(0.33)).isEqualTo(Duration.ofMillis(MAX_MILLIS));
    }

    @Test
    @DisplayName("buckets are [i ms, i+1 ms): 999,999 ns is bucket 0, 1,000,000 ns is bucket 1")
    void bucketEdgesAreHalfOpen() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        h.record(MS - 1);
        h.record(MS);
        assertThat(h.countInBucket(0)).isEqualTo(1);
        assertThat(h.countInBucket(1)).isEqualTo(1);
    }

    @Test
    @DisplayName("an empty histogram answers zero for every quantile")
    void emptyHistogramAnswersZero() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        assertThat(h.count()).isZero();
        for (double q : new double[] {0, 0.5, 0.99, 1}) {
            assertThat(h.percentile(q)).isEqualTo(Duration.ZERO);
        }
    }

    @Test
    @DisplayName("a negative latency counts as 0 and lands in bucket 0")
    void negativeLatencyGoesToBucketZero() {
        BucketHistogram h = new BucketHistogram(MAX_MILLIS);
        h.record(-5 * MS);
        h.record(Long.MIN_VALUE);
        assertThat(h.countInBucket(0)).isEqualTo(2);
        assertThat(h.count()).isEqualTo(2);
        assertThat(h.percentile(1)).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    @DisplayName("maxMillis below 1 is refused")
    void maxMillisBelowOneIsRefused() {
        assertThatThrownBy(() -> new BucketHistogram(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxMillis");
    }
}
