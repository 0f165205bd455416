package archlab.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.HashSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.EventType;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The three {@code pprof -top} tables of a load run, read back from a {@code .jfr} file written by
 * {@link JfrRecorder} (any JFR recording works; the summaries are best with {@link JfrRecorder}'s events):
 * <ul>
 *   <li><b>lock contention</b>: nanoseconds waited, from {@code jdk.ThreadPark} events whose {@code parkedClass}
 *       is a lock (see {@link #isLockBlocker}), from {@code jdk.JavaMonitorEnter} (contended
 *       {@code synchronized}), and from {@code archlab.LockWait} events of {@code ProfiledLock} waits on
 *       <em>virtual</em> threads (a platform thread's wait on a ProfiledLock is already a {@code jdk.ThreadPark}
 *       and is not counted twice). The leaf is whatever parked ({@code jdk.internal.misc.Unsafe.park},
 *       {@code LockSupport.park}); the waiting application method shows in the cum column, as Go's mutex
 *       profile puts {@code sync.(*Mutex).Unlock} on top.</li>
 *   <li><b>CPU</b>: sampled CPU time, {@code jdk.ExecutionSample} count × sampling period.</li>
 *   <li><b>allocation</b>: bytes, the sum of {@code jdk.ObjectAllocationSample} weights (an estimate).</li>
 * </ul>
 *
 * <p><b>Allocation samples from before the recording</b> (measured on JDK 25): a sample's weight is what its thread
 * allocated since that thread's previous sample, and the counter is not reset when a recording starts, so the
 * first sample of a thread that ran before the recording can carry everything it allocated since then (531 MB on
 * a single sample in a measurement). The reader therefore drops the first sample of every thread that existed
 * when the recording started (known from {@code jdk.ThreadAllocationStatistics}, which {@link JfrRecorder}
 * enables) and says how much it dropped in {@link #notes()}; that loses at most one sampling interval of each such
 * thread's real allocation. A virtual thread's samples use its carrier thread's counter, which the reader cannot
 * see, so the first sample on each carrier may still carry old allocation; a note says so when virtual threads
 * allocated.
 *
 * <p>Methods are named {@code package.Class.method} from the frame's {@code RecordedMethod} (type name + method
 * name; nested classes with {@code $}, lambdas as {@code Outer.lambda$name$0}, a lambda's hidden class as
 * {@code Outer$$Lambda} without its per-run address). Overloads share a row, as in pprof.
 *
 * <p>Immutable and thread-safe; {@link #read} keeps no state between calls and may run concurrently.
 *
 * <p>A plain, immutable record of strings, numbers, lists and maps, so Jackson can serialise it; methods that
 * are not components ({@link #lockWaitNanos()}, {@link #lockWaitNanosWhere}, {@link #render}) are not getters
 * and stay out of the JSON.
 *
 * <p><b>What JFR does not see</b> (measured on JDK 25): a <em>virtual</em> thread waiting on a
 * {@code ReentrantLock} produces no {@code jdk.ThreadPark} event, and one blocked on a {@code synchronized}
 * monitor no {@code jdk.JavaMonitorEnter}; the same waits on platform threads are recorded one event per wait.
 * Profile the load on platform threads; {@link #notes()} says so whenever the lock table may be missing waits.
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

    static final String LOCK_TITLE = "Lock contention top (wait time by method; jdk.ThreadPark on locks + jdk.JavaMonitorEnter)";
    static final String CPU_TITLE = "CPU top (jdk.ExecutionSample: threads running Java code; 1 sample = %s)";
    static final String ALLOCATION_TITLE = "Allocation top (bytes by method; jdk.ObjectAllocationSample weight estimate)";

    private static final long DEFAULT_PERIOD_NANOS = ProfileSettings.DEFAULT_EXECUTION_SAMPLE_PERIOD.toNanos();
    private static final Pattern TIMESPAN = Pattern.compile("\\s*(\\d+)\\s*(ns|us|ms|s|m|h|d)\\s*");

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
        try {
            return new Reader(hideLeafFrame).read(jfr);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read JFR recording " + jfr, e);
        }
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
        return ProfileText.render(this, topN);
    }

    /** One pass over the file. */
    private static final class Reader {
        private final Predicate<String> hideLeafFrame;
        private final Map<List<String>, double[]> lock = new HashMap<>();  // [nanos, events]
        private final Map<List<String>, double[]> cpu = new HashMap<>();   // [samples, events]
        private final Map<List<String>, double[]> alloc = new HashMap<>(); // [bytes, events]
        private final Map<String, Long> byBlocker = new HashMap<>();
        private final LockBlockers blockers = new LockBlockers();
        private final FrameNames frameNames = new FrameNames();
        private final Set<Integer> gcPhaseIds = new HashSet<>();
        private final List<AllocationSample> allocationList = new ArrayList<>();
        private final Set<Long> threadsAtStart = new HashSet<>();
        private Instant threadStatsFirst;
        private long executionSamples, virtualSamples, allocationSamples, lockParks, monitorEnters, nonLockParks;
        private long gcs, virtualThreadsStarted, allocatedBytes, profiledLockWaits;
        private long gcPauseNanos, gcLongestNanos, phasePauseNanos, phaseLongestNanos;
        private long periodNanos = -1;
        private int markerCores = -1, hwThreads = -1;
        private Instant first, last, markerStart, markerStop;

        Reader(Predicate<String> hideLeafFrame) {
            this.hideLeafFrame = hideLeafFrame;
        }

        ProfileReport read(Path path) throws IOException {
            long executionSampleTypeId = Long.MIN_VALUE;
            try (RecordingFile rf = new RecordingFile(path)) {
                for (EventType t : rf.readEventTypes()) {
                    if (t.getName().equals("jdk.ExecutionSample")) {
                        executionSampleTypeId = t.getId();
                    }
                }
                while (rf.hasMoreEvents()) {
                    accept(rf.readEvent(), executionSampleTypeId);
                }
            }
            return build(path);
        }

        private void accept(RecordedEvent e, long executionSampleTypeId) {
            Instant start = e.getStartTime();
            Instant end = e.getEndTime();
            if (first == null || start.isBefore(first)) {
                first = start;
            }
            if (last == null || end.isAfter(last)) {
                last = end;
            }
            switch (e.getEventType().getName()) {
                case "jdk.ExecutionSample" -> {
                    executionSamples++;
                    RecordedThread t = e.getThread("sampledThread");
                    if (t != null && t.isVirtual()) {
                        virtualSamples++;
                    }
                    add(cpu, frames(e), 1);
                }
                case "jdk.ObjectAllocationSample" -> {
                    allocationSamples++;
                    RecordedThread t = e.getThread();
                    allocationList.add(new AllocationSample(t == null ? -1 : t.getId(), t != null && t.isVirtual(),
                            start, frames(e), e.getLong("weight")));
                }
                case "jdk.ThreadAllocationStatistics" -> {
                    RecordedThread t = e.getValue("thread");
                    if (threadStatsFirst == null || start.isBefore(threadStatsFirst)) {
                        threadStatsFirst = start;
                        threadsAtStart.clear();
                    }
                    if (t != null && start.equals(threadStatsFirst)) {
                        threadsAtStart.add(t.getId());
                    }
                }
                case "jdk.ThreadPark" -> {
                    RecordedClass c = e.getValue("parkedClass");
                    String name = c == null ? null : c.getName();
                    if (blockers.isLock(name)) {
                        lockParks++;
                        lockWait(e, name);
                    } else {
                        nonLockParks++;
                    }
                }
                case "jdk.JavaMonitorEnter" -> {
                    monitorEnters++;
                    RecordedClass c = e.getValue("monitorClass");
                    lockWait(e, LockBlockers.monitor(c == null ? null : c.getName()));
                }
                case "jdk.GarbageCollection" -> {
                    gcs++;
                    long sum = e.getDuration("sumOfPauses").toNanos();
                    long longest = e.getDuration("longestPause").toNanos();
                    gcPauseNanos += Math.max(0, sum);
                    gcLongestNanos = Math.max(gcLongestNanos, longest);
                }
                case "jdk.GCPhasePause" -> {
                    gcPhaseIds.add(e.getInt("gcId"));
                    long d = e.getDuration().toNanos();
                    phasePauseNanos += d;
                    phaseLongestNanos = Math.max(phaseLongestNanos, d);
                }
                case "jdk.ActiveSetting" -> {
                    if (e.getLong("id") == executionSampleTypeId && "period".equals(e.getString("name"))) {
                        long p = parseTimespanNanos(e.getString("value"));
                        if (p > 0 && (periodNanos < 0 || p < periodNanos)) {
                            periodNanos = p; // JFR uses the shortest period of all running recordings
                        }
                    }
                }
                case "jdk.CPUInformation" -> hwThreads = e.getInt("hwThreads");
                case "jdk.VirtualThreadStart" -> virtualThreadsStarted++;
                case PROFILED_LOCK_WAIT -> {
                    if (LockBlockers.countsProfiledLockWait(e.hasField("virtualThread") && e.getBoolean("virtualThread"))) {
                        profiledLockWaits++;
                        String name = e.hasField("lockName") ? e.getString("lockName") : null;
                        lockWait(e, LockBlockers.profiledLock(name));
                    }
                }
                case ProfileMarkerEvent.NAME -> {
                    markerCores = e.getInt("availableProcessors");
                    if (ProfileMarkerEvent.START.equals(e.getString("phase"))) {
                        markerStart = start;
                    } else {
                        markerStop = start;
                    }
                }
                default -> { }
            }
        }

        private void lockWait(RecordedEvent e, String blocker) {
            long nanos = Math.max(0, e.getDuration().toNanos());
            byBlocker.merge(blocker, nanos, Long::sum);
            add(lock, frames(e), nanos);
        }

        private List<String> frames(RecordedEvent e) {
            return frameNames.of(e);
        }

        private static void add(Map<List<String>, double[]> into, List<String> frames, double weight) {
            double[] v = into.computeIfAbsent(frames, k -> new double[2]);
            v[0] += weight;
            v[1] += 1;
        }

        private List<WeightedStack> stacks(Map<List<String>, double[]> from, double scale, boolean filter) {
            List<WeightedStack> out = new ArrayList<>(from.size());
            from.forEach((frames, v) -> out.add(new WeightedStack(filter ? hideLeaves(frames) : frames,
                    v[0] * scale, (long) v[1])));
            out.sort((a, b) -> Double.compare(b.weight(), a.weight()));
            return out;
        }

        private List<String> hideLeaves(List<String> frames) {
            int i = 0;
            while (i < frames.size() && hideLeafFrame.test(frames.get(i))) {
                i++;
            }
            return i == frames.size() ? frames : frames.subList(i, frames.size());
        }

        /** Drops each pre-existing thread's first allocation sample; fills {@link #alloc}; returns [dropped count, bytes]. */
        private long[] settleAllocationSamples() {
            long dropped = 0;
            long droppedBytes = 0;
            allocationList.sort((a, b) -> a.start().compareTo(b.start()));
            Set<Long> seen = new HashSet<>();
            for (AllocationSample s : allocationList) {
                if (threadsAtStart.contains(s.threadId()) && seen.add(s.threadId())) {
                    dropped++;
                    droppedBytes += s.weight();
                    continue;
                }
                allocatedBytes += s.weight();
                add(alloc, s.frames(), s.weight());
            }
            return new long[] {dropped, droppedBytes};
        }

        private ProfileReport build(Path path) {
            List<String> notes = new ArrayList<>();
            long[] dropped = settleAllocationSamples();
            boolean virtualAllocations = allocationList.stream().anyMatch(AllocationSample::virtual);
            long durationNanos;
            if (markerStart != null && markerStop != null && !markerStop.isBefore(markerStart)) {
                durationNanos = java.time.Duration.between(markerStart, markerStop).toNanos();
            } else {
                durationNanos = first == null ? 0 : java.time.Duration.between(first, last).toNanos();
            }
            int cores = markerCores > 0 ? markerCores : hwThreads;
            if (cores <= 0) {
                cores = Runtime.getRuntime().availableProcessors();
                notes.add("processor count not in the recording; using this JVM's (" + cores + ")");
            }
            long period = periodNanos;
            if (period <= 0) {
                period = DEFAULT_PERIOD_NANOS;
                if (executionSamples > 0) {
                    notes.add("CPU sampling period not in the recording (no jdk.ActiveSetting); assumed "
                            + ValueUnit.NANOSECONDS.format(period));
                }
            }

            List<WeightedStack> lockStacks = stacks(lock, 1, false);
            TopTable lockTable = TopTable.aggregate(LOCK_TITLE, ValueUnit.NANOSECONDS, stacks(lock, 1, true));
            TopTable cpuTable = TopTable.aggregate(String.format(Locale.ROOT, CPU_TITLE, ValueUnit.NANOSECONDS.format(period)),
                    ValueUnit.NANOSECONDS, stacks(cpu, period, true));
            TopTable allocTable = TopTable.aggregate(ALLOCATION_TITLE, ValueUnit.BYTES, stacks(alloc, 1, true));

            String vtCount = virtualThreadsStarted > 0
                    ? virtualThreadsStarted + " virtual threads were started during the recording"
                    : virtualSamples > 0 ? "virtual threads ran during the recording (" + virtualSamples + " CPU samples)"
                    : null;
            if (lockTable.rows().isEmpty()) {
                String why = "no lock-wait events in the recording; this does NOT show an absence of contention: "
                        + VIRTUAL_THREAD_LOCK_NOTE
                        + (vtCount != null ? " (" + vtCount + ")" : "")
                        + ". Otherwise no thread waited on a lock for longer than the recording's threshold";
                lockTable = lockTable.withNote(why);
                notes.add(why);
            } else if (vtCount != null) {
                String why = vtCount + ": their lock waits are missing from this table"
                        + (profiledLockWaits > 0 ? " (except " + profiledLockWaits + " waits on a ProfiledLock)" : "")
                        + ", which under-reports contention. " + VIRTUAL_THREAD_LOCK_NOTE;
                lockTable = lockTable.withNote(why);
                notes.add(why);
            }
            if (cpuTable.rows().isEmpty()) {
                String why = "no execution samples: jdk.ExecutionSample was off, the recording was too short,"
                        + " or no thread ran Java code";
                cpuTable = cpuTable.withNote(why);
                notes.add(why);
            }
            if (allocTable.rows().isEmpty()) {
                String why = allocationSamples > 0
                        ? "all " + allocationSamples + " allocation samples were first samples of threads that existed"
                                + " before the recording, and were dropped (see the note on dropped samples)"
                        : "no allocation samples: jdk.ObjectAllocationSample was off or nothing was allocated";
                allocTable = allocTable.withNote(why);
                notes.add(why);
            }

            int collections;
            long pauseTotal;
            long pauseMax;
            if (gcs > 0) {
                collections = (int) gcs;
                pauseTotal = gcPauseNanos;
                pauseMax = gcLongestNanos;
            } else {
                collections = gcPhaseIds.size();
                pauseTotal = phasePauseNanos;
                pauseMax = phaseLongestNanos;
            }
            if (dropped[0] > 0) {
                notes.add("dropped the first allocation sample of " + dropped[0] + " threads that existed before the"
                        + " recording (" + ValueUnit.BYTES.format(dropped[1]) + "): its weight can include everything the"
                        + " thread allocated since its previous sample, long before the recording");
            } else if (threadStatsFirst == null && allocationSamples > 0) {
                notes.add("no jdk.ThreadAllocationStatistics in the recording: the first allocation sample of threads"
                        + " that ran before the recording may carry allocation from before it; not corrected");
            }
            if (virtualAllocations) {
                notes.add("virtual threads allocated: their samples are weighted by their carrier thread's counter,"
                        + " so the first sample on each carrier that ran before the recording may carry older allocation;"
                        + " the allocation table and estimate may be too high");
            }
            if (collections == 0) {
                notes.add("no garbage collection during the recording");
            }
            double seconds = durationNanos / 1e9;
            double mbps = seconds > 0 ? allocatedBytes / seconds / (1 << 20) : 0;
            GcSummary gc = new GcSummary(collections, pauseTotal, pauseMax, allocatedBytes, mbps);

            double capacity = (double) durationNanos * cores;
            CpuSummary cpuSummary = new CpuSummary(durationNanos, executionSamples, period, cores,
                    capacity > 0 ? 100.0 * executionSamples * period / capacity : 0);

            long stacked = executionSamples + allocationSamples + lockParks + monitorEnters + profiledLockWaits;
            long truncated = frameNames.truncated();
            if (truncated > 0) {
                notes.add(truncated + " of " + stacked + " stack traces were cut at JFR's stack depth"
                        + " (-XX:FlightRecorderOptions:stackdepth, default 64): their outermost frames are missing,"
                        + " so cum of entry-point methods is under-counted");
            }

            Map<String, Long> blockers = new LinkedHashMap<>();
            byBlocker.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .forEach(en -> blockers.put(en.getKey(), en.getValue()));

            EventCounts counts = new EventCounts(executionSamples, allocationSamples, dropped[0], lockParks, monitorEnters,
                    profiledLockWaits,
                    nonLockParks, gcs, virtualThreadsStarted, truncated);
            return new ProfileReport(path.toAbsolutePath().toString(), durationNanos, lockTable, cpuTable, allocTable,
                    blockers, lockStacks, cpuSummary, gc, counts, notes);
        }
    }

    private record AllocationSample(long threadId, boolean virtual, Instant start, List<String> frames, long weight) {
    }

    /** @return nanoseconds of a JFR timespan setting such as {@code "10 ms"} or {@code "20000000 ns"}; -1 if not one */
    static long parseTimespanNanos(String value) {
        if (value == null) {
            return -1;
        }
        Matcher m = TIMESPAN.matcher(value);
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        long factor = switch (m.group(2)) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 86_400_000_000_000L;
        };
        return n * factor;
    }
}
