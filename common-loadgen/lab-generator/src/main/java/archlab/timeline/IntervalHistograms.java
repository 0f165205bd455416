package archlab.timeline;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One interval's histograms, one per {@link Series}, kept encoded (HdrHistogram's uncompressed V2 form: a few hundred
 * bytes for a sparse histogram, where a live copy is 200 KB) until the interval log is written. The trap it avoids:
 * holding every interval's histograms live would cost tens of megabytes per run.
 *
 * <p>Immutable once made; {@link #histogram(Series)} decodes a fresh copy each call.
 *
 * @param phase      the interval's phase, e.g. {@link Interval#RUN}
 * @param startNanos when it began, on the run's clock
 * @param endNanos   when it ended, on the run's clock
 */
public record IntervalHistograms(String phase, long startNanos, long endNanos, byte[][] encoded) {

    public IntervalHistograms {
        Objects.requireNonNull(phase, "phase");
        if (encoded.length != Series.values().length) {
            throw new IllegalArgumentException("one histogram per series, was " + encoded.length);
        }
    }

    /** @return the histogram of {@code series} in this interval, decoded, ns */
    public Histogram histogram(Series series) {
        try {
            return Histogram.decodeFromByteBuffer(ByteBuffer.wrap(encoded[series.ordinal()]), 0);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot decode the " + series + " histogram of an interval", e);
        }
    }

    /** @return this interval in phase {@code p} */
    IntervalHistograms inPhase(String p) {
        return new IntervalHistograms(p, startNanos, endNanos, encoded);
    }

    /** Encodes {@code h} with {@code buffer} (large enough for it) as scratch space. */
    static byte[] encode(Histogram h, ByteBuffer buffer) {
        buffer.clear();
        int length = h.encodeIntoByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return bytes;
    }
}
