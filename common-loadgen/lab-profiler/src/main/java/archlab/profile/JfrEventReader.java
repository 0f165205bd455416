package archlab.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reading: one pass over a {@code .jfr} file, each event handed by its name to the accumulator that tallies it.
 * Nothing here decides what an event means ({@link LockBlockers}, {@link FrameNames}) or how the report looks
 * ({@link ProfileAssembler}, {@link ProfileText}); this class only pulls fields out of events.
 *
 * <p><b>Trap: the file is not in time order, and not necessarily {@link JfrRecorder}'s.</b> Events come chunk by
 * chunk and thread buffer by thread buffer, so every accumulator keeps what does not depend on order (sums,
 * minima, maxima, sets) and decides anything that does only after the last event (see
 * {@link AllocationSamples#settle()}). Any recording can be read: the fields of the lab's own
 * {@code archlab.LockWait} are checked with {@code hasField} (an older lab's event may lack one), and what only
 * {@link JfrRecorder} enables (markers, the sampling period, thread allocation statistics) may be absent; the
 * report then says what it assumed in a note.
 *
 * <p>A stack trace is turned into method names only for the events the report counts (not for parks that are not
 * lock waits, nor for a platform thread's {@code archlab.LockWait}), so the truncated-stack count is of those.
 *
 * <p>One instance per read; {@link #read} creates it, so reads may run concurrently.
 */
final class JfrEventReader {

    /** JFR name of the CPU sample event; its {@code period} setting says what one sample stands for. */
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    private final RecordingSpan span = new RecordingSpan();
    private final CpuSamples cpu = new CpuSamples();
    private final AllocationSamples allocations = new AllocationSamples();
    private final LockWaits locks = new LockWaits();
    private final GcPauses gc = new GcPauses();
    private final FrameNames frames = new FrameNames();
    private final LockBlockers blockers = new LockBlockers();
    /** {@code jdk.ActiveSetting} names the event it configures by type id, which differs per recording. */
    private long executionSampleTypeId = Long.MIN_VALUE;

    private JfrEventReader() {
    }

    /**
     * What one pass accumulated: the input of {@link ProfileAssembler}.
     *
     * @param span        duration and processors
     * @param cpu         CPU samples and the sampling period
     * @param allocations allocation samples, not yet settled
     * @param locks       lock waits and what explains a thin lock table
     * @param gc          collections and pauses
     * @param frames      how many of the counted stacks JFR truncated
     */
    record Tallies(RecordingSpan span, CpuSamples cpu, AllocationSamples allocations, LockWaits locks, GcPauses gc,
                   FrameNames frames) {
    }

    /**
     * @param jfr a {@code .jfr} file
     * @return what its events add up to
     * @throws IOException if the file cannot be read or is not a JFR recording
     */
    static Tallies read(Path jfr) throws IOException {
        JfrEventReader reader = new JfrEventReader();
        try (RecordingFile rf = new RecordingFile(jfr)) {
            for (EventType t : rf.readEventTypes()) {
                if (t.getName().equals(EXECUTION_SAMPLE)) {
                    reader.executionSampleTypeId = t.getId();
                }
            }
            while (rf.hasMoreEvents()) {
                reader.accept(rf.readEvent());
            }
        }
        return new Tallies(reader.span, reader.cpu, reader.allocations, reader.locks, reader.gc, reader.frames);
    }

    private void accept(RecordedEvent e) {
        Instant start = e.getStartTime();
        span.event(start, e.getEndTime());
        switch (e.getEventType().getName()) {
            case EXECUTION_SAMPLE -> {
                RecordedThread t = e.getThread("sampledThread");
                cpu.sample(t != null && t.isVirtual(), frames.of(e));
            }
            case "jdk.ActiveSetting" -> {
                if (e.getLong("id") == executionSampleTypeId && "period".equals(e.getString("name"))) {
                    cpu.periodSetting(e.getString("value"));
                }
            }
            case "jdk.ObjectAllocationSample" -> {
                RecordedThread t = e.getThread();
                allocations.sample(t == null ? -1 : t.getId(), t != null && t.isVirtual(), start, frames.of(e),
                        e.getLong("weight"));
            }
            case "jdk.ThreadAllocationStatistics" -> {
                RecordedThread t = e.getValue("thread");
                allocations.threadStatistics(start, t == null ? null : t.getId());
            }
            case "jdk.ThreadPark" -> {
                String parkedClass = className(e, "parkedClass");
                if (blockers.isLock(parkedClass)) {
                    locks.lockPark(parkedClass, e.getDuration().toNanos(), frames.of(e));
                } else {
                    locks.nonLockPark();
                }
            }
            case "jdk.JavaMonitorEnter" -> locks.monitorEnter(LockBlockers.monitor(className(e, "monitorClass")),
                    e.getDuration().toNanos(), frames.of(e));
            case ProfileReport.PROFILED_LOCK_WAIT -> {
                boolean virtual = e.hasField("virtualThread") && e.getBoolean("virtualThread");
                if (LockBlockers.countsProfiledLockWait(virtual)) {
                    String name = e.hasField("lockName") ? e.getString("lockName") : null;
                    locks.profiledLockWait(LockBlockers.profiledLock(name), e.getDuration().toNanos(), frames.of(e));
                }
            }
            case "jdk.VirtualThreadStart" -> locks.virtualThreadStarted();
            case "jdk.GarbageCollection" -> gc.collection(e.getDuration("sumOfPauses").toNanos(),
                    e.getDuration("longestPause").toNanos());
            case "jdk.GCPhasePause" -> gc.phasePause(e.getInt("gcId"), e.getDuration().toNanos());
            case "jdk.CPUInformation" -> span.cpuInformation(e.getInt("hwThreads"));
            case ProfileMarkerEvent.NAME -> span.marker(ProfileMarkerEvent.START.equals(e.getString("phase")), start,
                    e.getInt("availableProcessors"));
            default -> { }
        }
    }

    /** @return the name of the class in {@code field}, or {@code null} if the event has none there */
    private static String className(RecordedEvent e, String field) {
        RecordedClass c = e.getValue(field);
        return c == null ? null : c.getName();
    }
}
