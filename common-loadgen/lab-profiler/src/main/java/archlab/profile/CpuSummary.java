package archlab.profile;

import java.util.Locale;

/**
 * The line Go prints above its CPU table ({@code Duration: 3.21s, Total samples = 300ms ( 9.33%)}), with the
 * percentage taken of the CPU time the machine offered ({@code duration × cores}) rather than of wall time.
 *
 * <p>{@code jdk.ExecutionSample} samples only threads that are running Java code, so time in native code, system
 * calls and the JVM's own threads (GC, JIT) is not in it, and the sampler need not catch every running thread
 * every period. Read samples × period as an estimate, more likely low than high, of the Java CPU time.
 *
 * @param durationNanos     how long the recording ran, nanoseconds
 * @param samples           {@code jdk.ExecutionSample} events
 * @param samplePeriodNanos the sampling period, nanoseconds: what one sample stands for
 * @param cores             processors available to the JVM during the recording
 * @param percentOfCapacity {@code samples × period} as a percentage of {@code duration × cores}
 */
public record CpuSummary(long durationNanos, long samples, long samplePeriodNanos, int cores, double percentOfCapacity) {

    /** @return {@code samples × period}, nanoseconds */
    public long sampledCpuNanos() {
        return samples * samplePeriodNanos;
    }

    /** @return e.g. {@code Duration: 3.21s, Total samples = 300ms ( 4.67% of 2 cores; 30 samples × 10ms)} */
    public String render() {
        return String.format(Locale.ROOT, "Duration: %s, Total samples = %s (%s of %d cores; %d samples × %s)",
                ValueUnit.NANOSECONDS.format(durationNanos), ValueUnit.NANOSECONDS.format(sampledCpuNanos()),
                String.format(Locale.ROOT, "%5.2f%%", percentOfCapacity), cores, samples,
                ValueUnit.NANOSECONDS.format(samplePeriodNanos));
    }
}
