package archlab.profile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Accumulating: {@code jdk.ObjectAllocationSample} events, and which of them to believe.
 *
 * <p><b>Trap: a sample can weigh what was allocated before the recording</b> (measured on JDK 25). A sample's
 * weight is what its thread allocated since that thread's previous sample, and the counter is not reset when a
 * recording starts, so the first sample of a thread that ran before the recording can carry everything it
 * allocated since then (531 MB on a single sample in a measurement). {@link #settle()} therefore drops the first
 * sample of every thread that existed when the recording started, known from the earliest batch of
 * {@code jdk.ThreadAllocationStatistics} (which {@link JfrRecorder} enables); that loses at most one sampling
 * interval of each such thread's real allocation. A virtual thread's samples use its carrier thread's counter,
 * which the reader cannot see, so the first sample on each carrier may still carry old allocation:
 * {@link Settled#virtual()} lets the report say so.
 *
 * <p>Samples are kept until {@link #settle()} because the file is not in time order: which sample is a thread's
 * first is only known at the end. Not thread-safe: one per read. Public for readers of their own
 * ({@code archlab.ladder.BusinessProfile} places the settled stacks by the ladder's stages).
 */
public final class AllocationSamples {

    private final List<Sample> samples = new ArrayList<>();
    private final Set<Long> threadsAtStart = new HashSet<>();
    private Instant statisticsFirst;

    /**
     * One {@code jdk.ObjectAllocationSample}.
     *
     * @param threadId the sampled thread's id, -1 if the event has none
     * @param virtual  whether that thread is virtual
     * @param start    the event's start time
     * @param frames   the allocating stack, leaf first
     * @param weight   the event's {@code weight}: bytes
     */
    public void sample(long threadId, boolean virtual, Instant start, List<String> frames, long weight) {
        samples.add(new Sample(threadId, virtual, start, frames, weight));
    }

    /**
     * One {@code jdk.ThreadAllocationStatistics}: only the earliest batch is kept, as the threads that existed
     * when the recording started.
     *
     * @param start    the event's start time
     * @param threadId the event's thread id, or {@code null} if it has none
     */
    public void threadStatistics(Instant start, Long threadId) {
        if (statisticsFirst == null || start.isBefore(statisticsFirst)) {
            statisticsFirst = start;
            threadsAtStart.clear();
        }
        if (threadId != null && start.equals(statisticsFirst)) {
            threadsAtStart.add(threadId);
        }
    }

    /** @return {@code jdk.ObjectAllocationSample} events read, dropped ones included */
    long count() {
        return samples.size();
    }

    /** @return whether the recording had {@code jdk.ThreadAllocationStatistics}, so first samples could be dropped */
    boolean threadStatisticsSeen() {
        return statisticsFirst != null;
    }

    /**
     * Drops each pre-existing thread's first sample (see the trap above) and tallies the rest. Call once, after the
     * last event.
     *
     * @return what is left, and what was dropped
     */
    public Settled settle() {
        long dropped = 0;
        long droppedBytes = 0;
        long bytes = 0;
        StackTally stacks = new StackTally();
        samples.sort((a, b) -> a.start().compareTo(b.start()));
        Set<Long> seen = new HashSet<>();
        for (Sample s : samples) {
            if (threadsAtStart.contains(s.threadId()) && seen.add(s.threadId())) {
                dropped++;
                droppedBytes += s.weight();
                continue;
            }
            bytes += s.weight();
            stacks.add(s.frames(), s.weight());
        }
        boolean virtual = samples.stream().anyMatch(Sample::virtual);
        return new Settled(stacks, bytes, dropped, droppedBytes, virtual);
    }

    /**
     * The allocation samples after {@link #settle()}.
     *
     * @param stacks       bytes per stack, of the samples kept
     * @param bytes        bytes of the samples kept: the allocation estimate
     * @param dropped      first samples of pre-existing threads, left out
     * @param droppedBytes their bytes
     * @param virtual      whether any sample (kept or dropped) was of a virtual thread
     */
    public record Settled(StackTally stacks, long bytes, long dropped, long droppedBytes, boolean virtual) {

        /** @return the kept samples' stacks (leaf first) with their bytes, largest first */
        public List<WeightedStack> weightedStacks() {
            return stacks.stacks(1);
        }
    }

    private record Sample(long threadId, boolean virtual, Instant start, List<String> frames, long weight) {
    }
}
