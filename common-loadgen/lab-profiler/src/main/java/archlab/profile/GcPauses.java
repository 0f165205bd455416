package archlab.profile;

import java.util.HashSet;
import java.util.Set;

/**
 * Accumulating: garbage collections and their stop-the-world pauses.
 *
 * <p><b>Trap: two ways to count the same pauses.</b> {@code jdk.GarbageCollection} gives one event per collection
 * with its pauses summed; {@code jdk.GCPhasePause} gives one event per pause, one or more per collection. Adding
 * both would count each pause twice. The collection events are used when there are any; only a recording without
 * them falls back to the phases, counting collections by distinct {@code gcId}.
 *
 * <p>Not thread-safe: one per read.
 */
final class GcPauses {

    private long collectionEvents;
    private long collectionPauseNanos;
    private long collectionLongestNanos;
    private final Set<Integer> phaseGcIds = new HashSet<>();
    private long phasePauseNanos;
    private long phaseLongestNanos;

    /** One {@code jdk.GarbageCollection}: its {@code sumOfPauses} and {@code longestPause}, nanoseconds. */
    void collection(long sumOfPausesNanos, long longestPauseNanos) {
        collectionEvents++;
        collectionPauseNanos += Math.max(0, sumOfPausesNanos);
        collectionLongestNanos = Math.max(collectionLongestNanos, longestPauseNanos);
    }

    /** One {@code jdk.GCPhasePause} of collection {@code gcId}, lasting {@code nanos}. */
    void phasePause(int gcId, long nanos) {
        phaseGcIds.add(gcId);
        phasePauseNanos += nanos;
        phaseLongestNanos = Math.max(phaseLongestNanos, nanos);
    }

    /** @return {@code jdk.GarbageCollection} events read (the event count, whichever source the summary uses) */
    long collectionEvents() {
        return collectionEvents;
    }

    /**
     * @param allocatedBytes the allocation estimate (see {@link AllocationSamples})
     * @param durationNanos  how long the recording ran
     * @return collections and pauses from the collection events, else from the phases; allocation per second
     */
    GcSummary summary(long allocatedBytes, long durationNanos) {
        boolean byCollection = collectionEvents > 0;
        int collections = byCollection ? (int) collectionEvents : phaseGcIds.size();
        long pauseTotal = byCollection ? collectionPauseNanos : phasePauseNanos;
        long pauseMax = byCollection ? collectionLongestNanos : phaseLongestNanos;
        double seconds = durationNanos / 1e9;
        double mbps = seconds > 0 ? allocatedBytes / seconds / (1 << 20) : 0;
        return new GcSummary(collections, pauseTotal, pauseMax, allocatedBytes, mbps);
    }
}
