package archlab.profile;

/**
 * How many JFR events lie behind a {@link ProfileReport}: to tell "nothing happened" from "nothing was recorded".
 * Built by {@link #builder()}.
 *
 * @param executionSamples       {@code jdk.ExecutionSample} events (the CPU table)
 * @param allocationSamples      {@code jdk.ObjectAllocationSample} events in the recording
 * @param allocationSamplesDropped of those, first samples of threads that existed before the recording, left out
 *                               of the allocation table and estimate (see {@link ProfileReport})
 * @param lockParks              {@code jdk.ThreadPark} events on a lock (in the lock table)
 * @param monitorEnters          {@code jdk.JavaMonitorEnter} events (in the lock table)
 * @param profiledLockWaits      {@code archlab.LockWait} events of virtual threads waiting on a {@code ProfiledLock}
 *                               (in the lock table; platform threads' ones duplicate a {@code jdk.ThreadPark} and are not)
 * @param nonLockParks           {@code jdk.ThreadPark} events that are not lock waits and were left out: idle
 *                               pool threads, {@code sleep}-like {@code parkNanos} without a blocker, latches,
 *                               {@code Condition.await}
 * @param garbageCollections     {@code jdk.GarbageCollection} events
 * @param virtualThreadsStarted  {@code jdk.VirtualThreadStart} events: virtual threads started while recording
 * @param truncatedStacks        stack traces of the above that JFR cut at its stack depth
 */
public record EventCounts(long executionSamples, long allocationSamples, long allocationSamplesDropped,
                          long lockParks, long monitorEnters, long profiledLockWaits,
                          long nonLockParks, long garbageCollections, long virtualThreadsStarted,
                          long truncatedStacks) {

    /** @return a builder of counts of a recording with no event: every count 0 */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link EventCounts} count by count; a count not set is 0. Not thread-safe. */
    public static final class Builder {
        private long executionSamples;
        private long allocationSamples;
        private long allocationSamplesDropped;
        private long lockParks;
        private long monitorEnters;
        private long profiledLockWaits;
        private long nonLockParks;
        private long garbageCollections;
        private long virtualThreadsStarted;
        private long truncatedStacks;

        private Builder() {
        }

        /** @see EventCounts#executionSamples() */
        public Builder executionSamples(long n) { executionSamples = n; return this; }

        /** @see EventCounts#allocationSamples() */
        public Builder allocationSamples(long n) { allocationSamples = n; return this; }

        /** @see EventCounts#allocationSamplesDropped() */
        public Builder allocationSamplesDropped(long n) { allocationSamplesDropped = n; return this; }

        /** @see EventCounts#lockParks() */
        public Builder lockParks(long n) { lockParks = n; return this; }

        /** @see EventCounts#monitorEnters() */
        public Builder monitorEnters(long n) { monitorEnters = n; return this; }

        /** @see EventCounts#profiledLockWaits() */
        public Builder profiledLockWaits(long n) { profiledLockWaits = n; return this; }

        /** @see EventCounts#nonLockParks() */
        public Builder nonLockParks(long n) { nonLockParks = n; return this; }

        /** @see EventCounts#garbageCollections() */
        public Builder garbageCollections(long n) { garbageCollections = n; return this; }

        /** @see EventCounts#virtualThreadsStarted() */
        public Builder virtualThreadsStarted(long n) { virtualThreadsStarted = n; return this; }

        /** @see EventCounts#truncatedStacks() */
        public Builder truncatedStacks(long n) { truncatedStacks = n; return this; }

        /** @return the counts */
        public EventCounts build() {
            return new EventCounts(executionSamples, allocationSamples, allocationSamplesDropped, lockParks,
                    monitorEnters, profiledLockWaits, nonLockParks, garbageCollections, virtualThreadsStarted,
                    truncatedStacks);
        }
    }
}
