package archlab.profile;

/**
 * How many JFR events lie behind a {@link ProfileReport}: to tell "nothing happened" from "nothing was recorded".
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
}
