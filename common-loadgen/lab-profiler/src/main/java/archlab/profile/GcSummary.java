package archlab.profile;

import java.time.Duration;
import java.util.Locale;

/**
 * Garbage collection during the recording, and the allocation behind it. Plain numbers so that Jackson
 * can serialise it; {@link #longestPause()} gives a {@link Duration}.
 *
 * @param collections            garbage collections that ran in the recording ({@code jdk.GarbageCollection}
 *                               events, or distinct GC ids of {@code jdk.GCPhasePause} if there are none)
 * @param totalPauseNanos        sum of the collections' stop-the-world pauses, nanoseconds
 * @param longestPauseNanos      the longest single pause, nanoseconds
 * @param allocatedBytesEstimate sum of {@code jdk.ObjectAllocationSample} weights (less the dropped first samples,
 *                               see {@link ProfileReport}): an <em>estimate</em> of the bytes allocated on the Java
 *                               heap while recording (JFR samples allocations and weights each sample by the bytes
 *                               its thread allocated since that thread's previous sample)
 * @param allocationRateMBps     {@code allocatedBytesEstimate} per second of recording, in MB/s (1 MB = 2^20 B)
 */
public record GcSummary(int collections, long totalPauseNanos, long longestPauseNanos,
                        long allocatedBytesEstimate, double allocationRateMBps) {

    /** @return {@link #longestPauseNanos} as a Duration */
    public Duration longestPause() {
        return Duration.ofNanos(longestPauseNanos);
    }

    /** @return e.g. {@code gc collections=3 pause_total=4.1ms pause_max=2ms alloc≈812.4MB/s (jdk.ObjectAllocationSample estimate)} */
    public String render() {
        return String.format(Locale.ROOT, "gc collections=%d pause_total=%s pause_max=%s alloc≈%sMB/s"
                        + " (%s allocated; jdk.ObjectAllocationSample estimate)",
                collections, ValueUnit.NANOSECONDS.format(totalPauseNanos),
                ValueUnit.NANOSECONDS.format(longestPauseNanos), ValueUnit.decimals(allocationRateMBps),
                ValueUnit.BYTES.format(allocatedBytesEstimate));
    }
}
