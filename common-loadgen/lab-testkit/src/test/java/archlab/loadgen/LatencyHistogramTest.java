package archlab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    /** A prime count, so that no tested q·n lands on an integer and the ranks are unambiguous. */
    private static final int N = 10_007;

    /** Latencies from about 50 µs to about 900 ms, log-uniform: every HdrHistogram precision level is exercised. */
    private static long[] randomNanos(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] nanos = new long[N];
        for (int i = 0; i < N; i++) {
            nanos[i] = (long) (50_000 * Math.pow(18_000, random.nextDouble()));
        }
        return nanos;
    }

    private static LatencyHistogram recorded(long[] nanos) {
        LatencyHistogram h = new LatencyHistogram();
        for (long n : nanos) {
            h.record(n);
        }
        return h;
    }

    /** Nearest rank: the ceil(p/100 · n)-th smallest, in the histogram's unit (whole microseconds). */
    private static long referenceMicros(long[] nanos, double percent) {
        long[] micros = Arrays.stream(nanos).map(n -> n / 1_000).sorted().toArray();
        int rank = (int) Math.max(1, Math.ceil(percent / 100 * micros.length));
        return micros[rank - 1];
    }

    @Test
    @DisplayName("HdrHistogram percentiles equal the nearest-rank percentile of the samples within its equivalent-value precision")
    void hdrPercentilesEqualNearestRankWithinPrecision() {
        long[] nanos = randomNanos(42);
        LatencyHistogram h = recorded(nanos);
        Histogram hdr = h.microsCopy();

        for (double p : new double[] {1, 10, 50, 90, 99, 99.9, 100}) {
            long expected = referenceMicros(nanos, p);
            long actual = h.percentileMicros(p);
            assertThat(hdr.valuesAreEquivalent(actual, expected))
                    .as("p%s: hdr %d µs, reference %d µs", p, actual, expected).isTrue();
            assertThat(actual).isEqualTo(hdr.highestEquivalentValue(expected));
        }
        LatencySummary s = h.summary();
        assertThat(s.p50Micros()).isEqualTo(hdr.highestEquivalentValue(referenceMicros(nanos, 50)));
        assertThat(s.p90Micros()).isEqualTo(hdr.highestEquivalentValue(referenceMicros(nanos, 90)));
        assertThat(s.p99Micros()).isEqualTo(hdr.highestEquivalentValue(referenceMicros(nanos, 99)));
        assertThat(s.p999Micros()).isEqualTo(hdr.highestEquivalentValue(referenceMicros(nanos, 99.9)));
    }

    @Test
    @DisplayName("the book's bucket percentile and the HdrHistogram percentile agree within one 1 ms bucket")
    void bookAndHdrPercentilesAgreeWithinOneBucket() {
        for (long seed : new long[] {1, 2, 3, 4}) {
            LatencySummary s = recorded(randomNanos(seed)).summary();
            assertThat(s.p50Micros()).as("p50, seed %d", seed).isCloseTo(s.bookP50Millis() * 1_000, within(1_000L));
            assertThat(s.p99Micros()).as("p99, seed %d", seed).isCloseTo(s.bookP99Millis() * 1_000, within(1_000L));
            assertThat(s.p999Micros()).as("p99.9, seed %d", seed).isCloseTo(s.bookP999Millis() * 1_000, within(1_000L));
        }
    }

    @Test
    @DisplayName("the book percentiles of the summary are those of the bucket histogram of the same samples")
    void bookPercentilesComeFromTheBuckets() {
        long[] nanos = randomNanos(7);
        LatencyHistogram h = recorded(nanos);
        BucketHistogram direct = new BucketHistogram(2_000);
        for (long n : nanos) {
            direct.record(n);
        }
        LatencySummary s = h.summary();
        assertThat(s.bookP50Millis()).isEqualTo(direct.percentile(0.50).toMillis());
        assertThat(s.bookP99Millis()).isEqualTo(direct.percentile(0.99).toMillis());
        assertThat(s.bookP999Millis()).isEqualTo(direct.percentile(0.999).toMillis());
        assertThat(h.bucketPercentile(0.99)).isEqualTo(direct.percentile(0.99));
    }

    @Test
    @DisplayName("count, mean and max of the summary are exact")
    void countMeanAndMaxAreExact() {
        long[] nanos = randomNanos(9);
        LatencySummary s = recorded(nanos).summary();
        assertThat(s.count()).isEqualTo(N);
        assertThat(s.meanMicros()).isCloseTo(Arrays.stream(nanos).sum() / 1_000.0 / N, within(1e-9));
        assertThat(s.maxMicros()).isEqualTo(Arrays.stream(nanos).max().orElseThrow() / 1_000.0);
    }

    @Test
    @DisplayName("hdrBase64 decodes to the very histogram that was recorded")
    void hdrBase64RoundTrips() {
        LatencyHistogram h = recorded(randomNanos(11));
        Histogram decoded = LatencyHistogram.decode(h.summary().hdrBase64());
        Histogram original = h.microsCopy();

        assertThat(decoded.getTotalCount()).isEqualTo(N);
        assertThat(decoded).isEqualTo(original);
        for (double p : new double[] {50, 99, 99.9}) {
            assertThat(decoded.getValueAtPercentile(p)).isEqualTo(original.getValueAtPercentile(p));
        }
    }

    @Test
    @DisplayName("an empty histogram summarises to zeros and still round-trips")
    void emptyHistogramSummarisesToZeros() {
        LatencySummary s = new LatencyHistogram().summary();
        assertThat(s.count()).isZero();
        assertThat(s.meanMicros()).isZero();
        assertThat(s.p99Micros()).isZero();
        assertThat(s.bookP99Millis()).isZero();
        assertThat(LatencyHistogram.decode(s.hdrBase64()).getTotalCount()).isZero();
    }

    @Test
    @DisplayName("a negative latency counts as 0 and a latency beyond one hour is clamped but still counted")
    void outOfRangeLatenciesAreStillCounted() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(-1);
        h.record(2 * 3_600_000_000_000L);
        LatencySummary s = h.summary();
        assertThat(s.count()).isEqualTo(2);
        assertThat(h.buckets().count()).isEqualTo(2);
        assertThat(h.buckets().countInBucket(0)).isEqualTo(1);
        assertThat(h.microsCopy().valuesAreEquivalent(h.percentileMicros(100), LatencyHistogram.HIGHEST_MICROS)).isTrue();
    }

    @Test
    @DisplayName("recording from 32 threads at once loses no sample")
    void concurrentRecordingLosesNothing() throws InterruptedException {
        int threads = 32;
        int perThread = 10_000;
        LatencyHistogram h = new LatencyHistogram();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            workers.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < perThread; i++) {
                    h.record(random.nextLong(3_000_000_000L)); // 0 to 3 s: some in the book overflow bucket
                }
            }));
        }
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        long expected = (long) threads * perThread;
        assertThat(h.summary().count()).isEqualTo(expected);
        assertThat(h.buckets().count()).isEqualTo(expected);
        assertThat(h.microsCopy().getTotalCount()).isEqualTo(expected);
    }
}
