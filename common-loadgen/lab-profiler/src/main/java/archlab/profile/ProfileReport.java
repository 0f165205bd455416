package archlab.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The three {@code pprof -top} tables of a load run, read back from a {@code .jfr} file written by
 * {@link JfrRecorder} (any JFR recording works; the summaries are best with {@link JfrRecorder}'s events):
 * <ul>
 *   <li><b>lock contention</b>: nanoseconds waited, from {@code jdk.ThreadPark} events whose {@code parkedClass}
 *       is a lock (see {@link #isLockBlocker}), from {@code jdk.JavaMonitorEnter} (contended
 *       {@code synchronized}), and from {@code archlab.LockWait} events of {@code ProfiledLock} waits on
 *       <em>virtual</em> threads, also those that gave up (a timed-out {@code tryLock}, an interrupted wait); a
 *       platform thread's wait on a ProfiledLock is already a {@code jdk.ThreadPark} and is not counted twice.
 *       The leaf is whatever parked ({@code jdk.internal.misc.Unsafe.park}, {@code LockSupport.park}); the
 *       waiting application method shows in the cum column, as Go's mutex profile puts
 *       {@code sync.(*Mutex).Unlock} on top.</li>
 *   <li><b>CPU</b>: sampled CPU time, {@code jdk.ExecutionSample} count × sampling period.</li>
 *   <li><b>allocation</b>: bytes, the sum of {@code jdk.ObjectAllocationSample} weights (an estimate).</li>
 * </ul>
 *
 * <p><b>What JFR does not see</b> (measured on JDK 25): a <em>virtual</em> thread waiting on a
 * {@code ReentrantLock} produces no {@code jdk.ThreadPark} event, and one blocked on a {@code synchronized}
 * monitor no {@code jdk.JavaMonitorEnter}; the same waits on platform threads are recorded one event per wait.
 * Profile the load on platform threads; {@link #notes()} says so whenever the lock table may be missing waits.
 *
 * <p><b>Allocation samples from before the recording</b> (measured on JDK 25): the first sample of a thread that
 * ran before the recording can weigh everything it allocated since its previous sample, long before. The reader
 * drops the first sample of every thread that existed when the recording started and says how much it dropped in
 * {@link #notes()}; a note also says when virtual threads allocated, whose carriers' first samples it cannot spot.
 *
 * <p>Methods are named {@code package.Class.method} from the frame's {@code RecordedMethod} (type name + method
 * name; nested classes with {@code $}, lambdas as {@code Outer.lambda$name$0}, a lambda's hidden class as
 * {@code Outer$$Lambda} without its per-run address). Overloads share a row, as in pprof.
 *
 * <p>How a report is made, one idea per class of this package: {@code JfrEventReader} reads the events into small
 * accumulators ({@code RecordingSpan}, {@code CpuSamples}, {@code AllocationSamples}, {@code LockWaits},
 * {@code GcPauses}, each a {@code StackTally} per table); {@code LockBlockers} and {@code FrameNames} classify
 * (which waits are lock waits, and on which lock; which method a frame is); {@code ProfileAssembler} builds the
 * tables, summaries and notes; {@code ProfileText} prints them ({@link #render}).
 *
 * <p>Immutable and thread-safe; {@link #read} keeps no state between calls and may run concurrently.
 *
 * <p>A plain, immutable record of strings, numbers, lists and maps, so Jackson can serialise it; methods that
 * are not components ({@link #lockWaitNanos()}, {@link #lockWaitNanosWhere}, {@link #render}) are not getters
 * and stay out of the JSON.
 *
 * @param file              the {@code .jfr} file read (absolute path), for JDK Mission Control
 * @param durationNanos     how long the recording ran: between {@link JfrRecorder}'s start and stop markers, else
 *                          from the first to the last event in the file
 * @param lockTable         lock-wait time by method, nanoseconds
 * @param cpuTable          sampled CPU time by method, nanoseconds (samples × period)
 * @param allocationTable   allocated bytes by method (estimate)
 * @param lockWaitByBlocker lock-wait nanoseconds by the class waited on ({@code parkedClass} of
 *                          {@code jdk.ThreadPark}, {@code monitorClass} of {@code jdk.JavaMonitorEnter}), largest first
 * @param lockStacks        the distinct stacks behind the lock table (unfiltered, leaf first), largest wait first
 * @param cpu               Go's {@code Duration: …, Total samples = …} line
 * @param gc                collections, pauses, allocation-rate estimate
 * @param events            the event counts behind the tables
 * @param notes             plain warnings: what is missing from the tables and why; empty when nothing is
 */
public record ProfileReport(String file, long durationNanos, TopTable lockTable, TopTable cpuTable,
                            TopTable allocationTable, Map<String, Long> lockWaitByBlocker,
                            List<WeightedStack> lockStacks, CpuSummary cpu, GcSummary gc, EventCounts events,
                            List<String> notes) {

    /** The note of an empty lock table, and the start of the note when virtual threads may hide waits. */
    public static final String VIRTUAL_THREAD_LOCK_NOTE =
            "JFR (measured on JDK 25) records no jdk.ThreadPark when a virtual thread waits on a ReentrantLock,"
                    + " and no jdk.JavaMonitorEnter when one blocks on a synchronized monitor;"
                    + " run the profiled load on platform threads (or guard the lock with a ProfiledLock)";

    /** JFR name of the event a {@code ProfiledLock} commits per contended acquisition ({@code LockWaitEvent}). */
    static final String PROFILED_LOCK_WAIT = "archlab.LockWait";

    public ProfileReport {
        Objects.requireNonNull(file, "file");
        lockWaitByBlocker = Collections.unmodifiableMap(new LinkedHashMap<>(lockWaitByBlocker));
        lockStacks = List.copyOf(lockStacks);
        notes = List.copyOf(notes);
    }

    /**
     * Reads a recording with honest stacks: every frame is kept, so JDK frames such as
     * {@code jdk.internal.misc.Unsafe.park} may be the leaf (flat) of a row.
     *
     * @param jfr a {@code .jfr} file
     * @return the report
     * @throws UncheckedIOException if the file cannot be read or is not a JFR recording
     */
    public static ProfileReport read(Path jfr) {
        return read(jfr, frame -> false);
    }

    /**
     * Reads a recording, dropping leaf frames that {@code hideLeafFrame} matches from the tables: each stack loses
     * frames from its leaf end while they match (a stack that would lose every frame is kept whole), so flat moves
     * to the first frame that does not match. Cum and {@link #lockStacks()} / {@link #lockWaitNanosWhere} are
     * not affected by what is dropped from the leaf end, except that hidden methods disappear from the rows.
     *
     * @param jfr           a {@code .jfr} file
     * @param hideLeafFrame which leaf frames ({@code package.Class.method}) to drop, e.g. {@link #jdkFrames()}
     * @return the report
     * @throws UncheckedIOException if the file cannot be read or is not a JFR recording
     */
    public static ProfileReport read(Path jfr, Predicate<String> hideLeafFrame) {
        Objects.requireNonNull(jfr, "jfr");
        Objects.requireNonNull(hideLeafFrame, "hideLeafFrame");
        JfrEventReader.Tallies tallies;
        try {
            tallies = JfrEventReader.read(jfr);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read JFR recording " + jfr, e);
        }
        return ProfileAssembler.assemble(jfr, tallies, hideLeafFrame);
    }

    /** @return a leaf-frame filter matching JDK code: {@code java.*}, {@code javax.*}, {@code jdk.*}, {@code sun.*}, {@code com.sun.*} */
    public static Predicate<String> jdkFrames() {
        return m -> m.startsWith("java.") || m.startsWith("javax.") || m.startsWith("jdk.")
                || m.startsWith("sun.") || m.startsWith("com.sun.");
    }

    /** @return total lock-wait time in the lock table, nanoseconds */
    public long lockWaitNanos() {
        return Math.round(lockTable.total());
    }

    /**
     * @param framePrefix a prefix of {@code package.Class.method}, e.g. {@code "archlab.order.OrderService."}
     * @return lock-wait nanoseconds of the events whose stack has a frame starting with {@code framePrefix}
     */
    public long lockWaitNanosWhere(String framePrefix) {
        Objects.requireNonNull(framePrefix, "framePrefix");
        double sum = 0;
        for (WeightedStack s : lockStacks) {
            if (s.containsFrameStartingWith(framePrefix)) {
                sum += s.weight();
            }
        }
        return Math.round(sum);
    }

    /**
     * Whether a {@code jdk.ThreadPark} on {@code parkedClass} is a wait for a lock. Yes for classes of
     * {@code java.util.concurrent.locks} ({@code ReentrantLock$NonfairSync}, {@code ReentrantReadWriteLock$FairSync},
     * {@code StampedLock}, ...) and for synchronizers ({@code AbstractQueuedSynchronizer} subclasses) of a class that
     * implements {@link java.util.concurrent.locks.Lock} or {@link java.util.concurrent.locks.ReadWriteLock} when the
     * reader can load that class. No for a park without a blocker ({@code parkNanos} of schedulers and sleeps), for
     * {@code Condition.await} ({@code ConditionObject}: waiting for a signal, not for the lock), for latches,
     * semaphores, queues, futures and pools.
     *
     * @param parkedClass a binary class name ({@code a.b.C$D}), or {@code null}
     * @return whether waits on it belong in the lock table
     */
    public static boolean isLockBlocker(String parkedClass) {
        return LockBlockers.isLockBlocker(parkedClass);
    }

    /**
     * @param topN rows per table, at least 1
     * @return the lock, CPU and allocation tables, the GC line, the event counts, the notes and where the file is
     */
    public String render(int topN) {
        return ProfileText.render(this, topN, TopTable.PLUMBING);
    }

    /**
     * As {@link #render(int)}, for a recording of a load that {@code runner} drove: its dispatch frames are plumbing
     * too ({@link TopTable#plumbingAnd}).
     */
    public String render(int topN, Class<?> runner) {
        return ProfileText.render(this, topN, TopTable.plumbingAnd(runner));
    }

    /** @return nanoseconds of a JFR timespan setting such as {@code "10 ms"} or {@code "20000000 ns"}; -1 if not one */
    static long parseTimespanNanos(String value) {
        return CpuSamples.parseTimespanNanos(value);
    }

    /** @return a builder with no lock blocker, no lock stack and no note */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link ProfileReport} part by part; blockers, lock stacks and notes default to none. Not thread-safe. */
    public static final class Builder {
        private String file;
        private long durationNanos;
        private TopTable lockTable;
        private TopTable cpuTable;
        private TopTable allocationTable;
        private Map<String, Long> lockWaitByBlocker = Map.of();
        private List<WeightedStack> lockStacks = List.of();
        private CpuSummary cpu;
        private GcSummary gc;
        private EventCounts events;
        private List<String> notes = List.of();

        private Builder() {
        }

        /** @see ProfileReport#file() */
        public Builder file(String path) { file = path; return this; }

        /** @see ProfileReport#durationNanos() */
        public Builder durationNanos(long ns) { durationNanos = ns; return this; }

        /** @see ProfileReport#lockTable() */
        public Builder lockTable(TopTable table) { lockTable = table; return this; }

        /** @see ProfileReport#cpuTable() */
        public Builder cpuTable(TopTable table) { cpuTable = table; return this; }

        /** @see ProfileReport#allocationTable() */
        public Builder allocationTable(TopTable table) { allocationTable = table; return this; }

        /** @see ProfileReport#lockWaitByBlocker() */
        public Builder lockWaitByBlocker(Map<String, Long> nanosByClass) { lockWaitByBlocker = nanosByClass; return this; }

        /** @see ProfileReport#lockStacks() */
        public Builder lockStacks(List<WeightedStack> stacks) { lockStacks = stacks; return this; }

        /** @see ProfileReport#cpu() */
        public Builder cpu(CpuSummary summary) { cpu = summary; return this; }

        /** @see ProfileReport#gc() */
        public Builder gc(GcSummary summary) { gc = summary; return this; }

        /** @see ProfileReport#events() */
        public Builder events(EventCounts counts) { events = counts; return this; }

        /** @see ProfileReport#notes() */
        public Builder notes(List<String> lines) { notes = lines; return this; }

        /** @return the report */
        public ProfileReport build() {
            return new ProfileReport(file, durationNanos, lockTable, cpuTable, allocationTable, lockWaitByBlocker,
                    lockStacks, cpu, gc, events, notes);
        }
    }
}
