package archlab.profile;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link JfrRecorder} asks JDK Flight Recorder to record: the Java counterpart of Go's
 * {@code -cpuprofile -memprofile -mutexprofile} flags, set programmatically.
 *
 * <p>JFR merges the settings of all recordings running in a JVM (the shortest period, the lowest
 * threshold and the highest throttle win), so a concurrent recording started by someone else can make
 * this one record <em>more</em> than asked, never less. Immutable and thread-safe.
 *
 * @param executionSamplePeriod      interval of {@code jdk.ExecutionSample} (CPU samples of threads running
 *                                   Java code); positive. One sample stands for this much CPU time.
 * @param allocationSamplesPerSecond throttle of {@code jdk.ObjectAllocationSample}: at most this many samples
 *                                   per second (JFR spreads them over the allocating threads); positive. Each
 *                                   sample's {@code weight} is the bytes the thread allocated since its previous
 *                                   sample, so the sum of weights estimates total allocation at any rate.
 * @param lockWaitThreshold          only lock waits at least this long are recorded ({@code jdk.ThreadPark},
 *                                   {@code jdk.JavaMonitorEnter}); zero records every wait; not negative
 */
public record ProfileSettings(Duration executionSamplePeriod, int allocationSamplesPerSecond, Duration lockWaitThreshold) {

    /** JFR's own default ({@code default.jfc} uses 20 ms, {@code profile.jfc} 10 ms): 100 samples/s per running thread. */
    public static final Duration DEFAULT_EXECUTION_SAMPLE_PERIOD = Duration.ofMillis(10);

    /**
     * Twice {@code profile.jfc}'s 300/s: about 1,800 allocation samples in a 3-second run, enough for the
     * top allocating methods to stand out from noise; each sample costs one stack walk.
     */
    public static final int DEFAULT_ALLOCATION_SAMPLES_PER_SECOND = 600;

    public ProfileSettings {
        Objects.requireNonNull(executionSamplePeriod, "executionSamplePeriod");
        Objects.requireNonNull(lockWaitThreshold, "lockWaitThreshold");
        if (executionSamplePeriod.isZero() || executionSamplePeriod.isNegative()) {
            throw new IllegalArgumentException("executionSamplePeriod must be positive, was " + executionSamplePeriod);
        }
        if (allocationSamplesPerSecond <= 0) {
            throw new IllegalArgumentException("allocationSamplesPerSecond must be positive, was " + allocationSamplesPerSecond);
        }
        if (lockWaitThreshold.isNegative()) {
            throw new IllegalArgumentException("lockWaitThreshold must not be negative, was " + lockWaitThreshold);
        }
    }

    /** @return 10 ms CPU samples, 600 allocation samples/s, every lock wait (threshold 0) */
    public static ProfileSettings defaults() {
        return new ProfileSettings(DEFAULT_EXECUTION_SAMPLE_PERIOD, DEFAULT_ALLOCATION_SAMPLES_PER_SECOND, Duration.ZERO);
    }
}
