package archlab.timeline;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * What the {@link HiccupProbe} saw during a measured run, in one line's worth of figures. The trap it guards: a p99
 * read without it cannot say whether the service was slow or the machine stalled under it.
 *
 * <p>Percentiles are shares of the run's time, not of wake-ups (the probe records each hiccup with the
 * expected-interval correction): {@code p99Micros = 3000} means that for 1% of the run a runnable thread waited 3 ms
 * or more before it got a core.
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
    public static final HiccupSummary NONE = new HiccupSummary(0, 0, 0, 0, 0, 0, 0);

    /**
     * @param hiccupNanos the probe's hiccups over the run, ns
     * @param period      the probe's period
     * @return their summary, in µs
     */
    public static HiccupSummary of(Histogram hiccupNanos, Duration period) {
        if (hiccupNanos.getTotalCount() == 0) {
            return new HiccupSummary(period.toNanos() / 1_000L, 0, 0, 0, 0, 0, 0);
        }
        return new HiccupSummary(period.toNanos() / 1_000L, hiccupNanos.getTotalCount(),
                micros(hiccupNanos.getValueAtPercentile(50)), micros(hiccupNanos.getValueAtPercentile(90)),
                micros(hiccupNanos.getValueAtPercentile(99)), micros(hiccupNanos.getValueAtPercentile(99.9)),
                micros(hiccupNanos.getMaxValue()));
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
}
