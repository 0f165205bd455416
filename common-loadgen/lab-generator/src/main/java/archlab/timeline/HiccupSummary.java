package archlab.timeline;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * What the {@link HiccupProbe} saw during a measured run, in one line's worth of figures. The trap it guards: a p99
 * read without it cannot say whether the service was slow or the machine stalled under it.
 *
 * <p>Percentiles are shares of the run's time, not of wake-ups (the probe records each hiccup with the
 * expected-interval correction): {@code p99Micros = 3000} means that for 1% of the run a runnable thread waited 3 ms
 * or more before it got a core. Built by {@link #of} from the probe's histogram, or by {@link #builder()}.
 *
 * @param periodMicros how often the probe asked to wake, µs; 0 when no probe ran
 * @param samples      values in the histogram: wake-ups plus the ones a stall swallowed (≈ run time / period)
 * @param p50Micros    median hiccup, µs
 * @param p90Micros    p90, µs
 * @param p99Micros    p99, µs
 * @param p999Micros   p99.9, µs
 * @param maxMicros    the longest hiccup, µs
 */
public record HiccupSummary(long periodMicros, long samples, long p50Micros, long p90Micros, long p99Micros,
                            long p999Micros, long maxMicros) {

    /** A run without a probe (the timeline was turned off): nothing measured. */
    public static final HiccupSummary NONE = builder().build();

    /**
     * @param hiccupNanos the probe's hiccups over the run, ns
     * @param period      the probe's period
     * @return their summary, in µs
     */
    public static HiccupSummary of(Histogram hiccupNanos, Duration period) {
        Builder summary = builder().periodMicros(period.toNanos() / 1_000L);
        if (hiccupNanos.getTotalCount() == 0) {
            return summary.build();
        }
        return summary.samples(hiccupNanos.getTotalCount())
                .p50Micros(micros(hiccupNanos.getValueAtPercentile(50)))
                .p90Micros(micros(hiccupNanos.getValueAtPercentile(90)))
                .p99Micros(micros(hiccupNanos.getValueAtPercentile(99)))
                .p999Micros(micros(hiccupNanos.getValueAtPercentile(99.9)))
                .maxMicros(micros(hiccupNanos.getMaxValue()))
                .build();
    }

    /** @return a builder of a summary of nothing measured: every figure 0 */
    public static Builder builder() {
        return new Builder();
    }

    private static long micros(long nanos) {
        return nanos / 1_000L;
    }

    /** @return whether a probe ran and recorded anything */
    public boolean measured() {
        return samples > 0;
    }

    /**
     * @param slackNanos how much of a latency claim's slack the machine may take, ns
     * @return whether the machine's hiccup p99 stayed within it (true when nothing was measured: no evidence of a stall)
     */
    public boolean p99Within(long slackNanos) {
        return p99Micros * 1_000L <= slackNanos;
    }

    /** Builds a {@link HiccupSummary} figure by figure (µs, as the components); a figure not set is 0. Not thread-safe. */
    public static final class Builder {
        private long periodMicros;
        private long samples;
        private long p50Micros;
        private long p90Micros;
        private long p99Micros;
        private long p999Micros;
        private long maxMicros;

        private Builder() {
        }

        /** @see HiccupSummary#periodMicros() */
        public Builder periodMicros(long us) { periodMicros = us; return this; }

        /** @see HiccupSummary#samples() */
        public Builder samples(long n) { samples = n; return this; }

        /** @see HiccupSummary#p50Micros() */
        public Builder p50Micros(long us) { p50Micros = us; return this; }

        /** @see HiccupSummary#p90Micros() */
        public Builder p90Micros(long us) { p90Micros = us; return this; }

        /** @see HiccupSummary#p99Micros() */
        public Builder p99Micros(long us) { p99Micros = us; return this; }

        /** @see HiccupSummary#p999Micros() */
        public Builder p999Micros(long us) { p999Micros = us; return this; }

        /** @see HiccupSummary#maxMicros() */
        public Builder maxMicros(long us) { maxMicros = us; return this; }

        /** @return the HiccupSummary */
        public HiccupSummary build() {
            return new HiccupSummary(periodMicros, samples, p50Micros, p90Micros, p99Micros, p999Micros, maxMicros);
        }
    }
}
