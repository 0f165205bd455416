package archlab.loadgen;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;

/**
 * One stream of latencies recorded twice: into the book's {@link BucketHistogram} (1 ms buckets, so
 * the report's book lines compare like for like) and into an HdrHistogram at microsecond resolution
 * with three significant digits (the lab's precise percentiles). Both see exactly the same samples.
 *
 * <p>Range: 1 µs to {@value #HIGHEST_MICROS} µs (one hour); longer latencies are clamped to it and
 * still counted. Units: {@link #record(long)} takes nanoseconds.
 *
 * <p>Thread-safety: recording is lock-free (atomic counters, no global lock), safe from thousands of
 * threads at once. Take {@link #summary()} after recording stopped.
 */
public final class LatencyHistogram {

    /** Highest trackable latency, in microseconds. */
    public static final long HIGHEST_MICROS = 3_600_000_000L;

    private static final long NANOS_PER_MICRO = 1_000L;

    private final BucketHistogram buckets;
    private final AtomicHistogram micros = new AtomicHistogram(HIGHEST_MICROS, 3);
    private final LongAdder sumNanos = new LongAdder();
    private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

    /** A histogram with the book's 2,000 ms of 1 ms buckets. */
    public LatencyHistogram() {
        this(2_000);
    }

    /** @param bucketMaxMillis where the book histogram's overflow bucket starts */
    public LatencyHistogram(int bucketMaxMillis) {
        this.buckets = new BucketHistogram(bucketMaxMillis);
    }

    /** Records one latency, in nanoseconds (negative counts as 0). */
    public void record(long latencyNanos) {
        long nanos = Math.max(0, latencyNanos);
        buckets.record(nanos);
        micros.recordValue(Math.min(HIGHEST_MICROS, nanos / NANOS_PER_MICRO));
        sumNanos.add(nanos);
        maxNanos.accumulate(nanos);
    }

    /** @return the 1 ms bucket histogram (the book's) */
    public BucketHistogram buckets() {
        return buckets;
    }

    /** @return a copy of the microsecond HdrHistogram */
    public Histogram microsCopy() {
        return micros.copy();
    }

    /** @return the value at percentile {@code percent} (0–100) of the microsecond histogram, in µs */
    public long percentileMicros(double percent) {
        return micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percent);
    }

    /** @return an immutable summary: count, mean, max, book-bucket and HdrHistogram percentiles */
    public LatencySummary summary() {
        long count = micros.getTotalCount();
        return LatencySummary.builder()
                .count(count)
                .meanMicros(count == 0 ? 0 : sumNanos.sum() / 1_000.0 / count)
                .maxMicros(maxNanos.get() / 1_000.0)
                .bookP50Millis(buckets.percentile(0.50).toMillis())
                .bookP99Millis(buckets.percentile(0.99).toMillis())
                .bookP999Millis(buckets.percentile(0.999).toMillis())
                .p50Micros(percentileMicros(50))
                .p90Micros(percentileMicros(90))
                .p99Micros(percentileMicros(99))
                .p999Micros(percentileMicros(99.9))
                .hdrBase64(encode(micros))
                .build();
    }

    /** @return the histogram in HdrHistogram's compressed form, Base64: for the JSON report and later charts */
    static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** Decodes what {@link LatencySummary#hdrBase64()} holds. */
    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram", e);
        }
    }

    /** @return the bucket percentile as a Duration, convenience for the book line */
    public Duration bucketPercentile(double q) {
        return buckets.percentile(q);
    }
}
