package archlab.profile;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Assembling: from what one pass over a recording accumulated ({@link JfrEventReader.Tallies}) to the
 * {@link ProfileReport}: the three tables, the CPU and GC summaries, the event counts and the notes.
 *
 * <p><b>Contract: every gap gets a note, in a fixed order.</b> A table can be empty or thin because nothing
 * happened or because JFR did not record it, and only the notes tell the two apart. They are added in the order
 * the saved reports and the book quote them: processors, sampling period, lock table, CPU table, allocation table,
 * dropped allocation samples, virtual threads' allocation, garbage collection, truncated stacks. A table's own
 * note (printed under its title) is the same text as its entry in {@link ProfileReport#notes()}.
 *
 * <p>Stateless: {@link #assemble} is a function of its arguments (and of this JVM's processor count when the
 * recording has none).
 */
final class ProfileAssembler {

    static final String LOCK_TITLE =
            "Lock contention top (wait time by method; jdk.ThreadPark on locks + jdk.JavaMonitorEnter)";
    static final String CPU_TITLE = "CPU top (jdk.ExecutionSample: threads running Java code; 1 sample = %s)";
    static final String ALLOCATION_TITLE = "Allocation top (bytes by method; jdk.ObjectAllocationSample weight estimate)";

    private static final long DEFAULT_PERIOD_NANOS = ProfileSettings.DEFAULT_EXECUTION_SAMPLE_PERIOD.toNanos();

    private ProfileAssembler() {
    }

    /**
     * @param file          the recording read
     * @param read          what its events added up to
     * @param hideLeafFrame leaf frames to drop from the tables (not from {@link ProfileReport#lockStacks()})
     * @return the report
     */
    static ProfileReport assemble(Path file, JfrEventReader.Tallies read, Predicate<String> hideLeafFrame) {
        List<String> notes = new ArrayList<>();
        CpuSamples cpu = read.cpu();
        LockWaits locks = read.locks();
        AllocationSamples allocations = read.allocations();
        AllocationSamples.Settled settled = allocations.settle();
        long durationNanos = read.span().durationNanos();

        int cores = read.span().cores();
        if (cores <= 0) {
            cores = Runtime.getRuntime().availableProcessors();
            notes.add("processor count not in the recording; using this JVM's (" + cores + ")");
        }
        long period = cpu.periodNanos();
        if (period <= 0) {
            period = DEFAULT_PERIOD_NANOS;
            if (cpu.samples() > 0) {
                notes.add("CPU sampling period not in the recording (no jdk.ActiveSetting); assumed "
                        + ValueUnit.NANOSECONDS.format(period));
            }
        }

        List<WeightedStack> lockStacks = locks.stacks().stacks(1);
        TopTable lockTable = lockTable(locks, cpu, locks.stacks().stacks(1, hideLeafFrame), notes);
        String cpuTitle = String.format(Locale.ROOT, CPU_TITLE, ValueUnit.NANOSECONDS.format(period));
        TopTable cpuTable = TopTable.aggregate(cpuTitle, ValueUnit.NANOSECONDS, cpu.stacks().stacks(period, hideLeafFrame));
        if (cpuTable.rows().isEmpty()) {
            String why = "no execution samples: jdk.ExecutionSample was off, the recording was too short,"
                    + " or no thread ran Java code";
            cpuTable = cpuTable.withNote(why);
            notes.add(why);
        }
        TopTable allocTable = TopTable.aggregate(ALLOCATION_TITLE, ValueUnit.BYTES,
                settled.stacks().stacks(1, hideLeafFrame));
        if (allocTable.rows().isEmpty()) {
            String why = allocations.count() > 0
                    ? "all " + allocations.count() + " allocation samples were first samples of threads that existed"
                            + " before the recording, and were dropped (see the note on dropped samples)"
                    : "no allocation samples: jdk.ObjectAllocationSample was off or nothing was allocated";
            allocTable = allocTable.withNote(why);
            notes.add(why);
        }

        if (settled.dropped() > 0) {
            notes.add("dropped the first allocation sample of " + settled.dropped() + " threads that existed before the"
                    + " recording (" + ValueUnit.BYTES.format(settled.droppedBytes()) + "): its weight can include"
                    + " everything the thread allocated since its previous sample, long before the recording");
        } else if (!allocations.threadStatisticsSeen() && allocations.count() > 0) {
            notes.add("no jdk.ThreadAllocationStatistics in the recording: the first allocation sample of threads"
                    + " that ran before the recording may carry allocation from before it; not corrected");
        }
        if (settled.virtual()) {
            notes.add("virtual threads allocated: their samples are weighted by their carrier thread's counter,"
                    + " so the first sample on each carrier that ran before the recording may carry older allocation;"
                    + " the allocation table and estimate may be too high");
        }
        GcSummary gc = read.gc().summary(settled.bytes(), durationNanos);
        if (gc.collections() == 0) {
            notes.add("no garbage collection during the recording");
        }

        double capacity = (double) durationNanos * cores;
        CpuSummary cpuSummary = new CpuSummary(durationNanos, cpu.samples(), period, cores,
                capacity > 0 ? 100.0 * cpu.samples() * period / capacity : 0);

        long truncated = read.frames().truncated();
        long stacked = cpu.samples() + allocations.count() + locks.lockParks() + locks.monitorEnters()
                + locks.profiledLockWaits();
        if (truncated > 0) {
            notes.add(truncated + " of " + stacked + " stack traces were cut at JFR's stack depth"
                    + " (-XX:FlightRecorderOptions:stackdepth, default 64): their outermost frames are missing,"
                    + " so cum of entry-point methods is under-counted");
        }

        EventCounts counts = EventCounts.builder()
                .executionSamples(cpu.samples())
                .allocationSamples(allocations.count())
                .allocationSamplesDropped(settled.dropped())
                .lockParks(locks.lockParks())
                .monitorEnters(locks.monitorEnters())
                .profiledLockWaits(locks.profiledLockWaits())
                .nonLockParks(locks.nonLockParks())
                .garbageCollections(read.gc().collectionEvents())
                .virtualThreadsStarted(locks.virtualThreadsStarted())
                .truncatedStacks(truncated)
                .build();
        return ProfileReport.builder()
                .file(file.toAbsolutePath().toString())
                .durationNanos(durationNanos)
                .lockTable(lockTable)
                .cpuTable(cpuTable)
                .allocationTable(allocTable)
                .lockWaitByBlocker(locks.byBlocker())
                .lockStacks(lockStacks)
                .cpu(cpuSummary)
                .gc(gc)
                .events(counts)
                .notes(notes)
                .build();
    }

    /**
     * The lock table, with a note when it may be missing waits: always when it is empty (an empty table is not
     * an absence of contention), and when virtual threads ran (JFR does not see most of their waits).
     */
    private static TopTable lockTable(LockWaits locks, CpuSamples cpu, List<WeightedStack> stacks, List<String> notes) {
        TopTable table = TopTable.aggregate(LOCK_TITLE, ValueUnit.NANOSECONDS, stacks);
        String virtualThreads = locks.virtualThreadsStarted() > 0
                ? locks.virtualThreadsStarted() + " virtual threads were started during the recording"
                : cpu.virtualSamples() > 0
                ? "virtual threads ran during the recording (" + cpu.virtualSamples() + " CPU samples)"
                : null;
        String why;
        if (table.rows().isEmpty()) {
            why = "no lock-wait events in the recording; this does NOT show an absence of contention: "
                    + ProfileReport.VIRTUAL_THREAD_LOCK_NOTE
                    + (virtualThreads != null ? " (" + virtualThreads + ")" : "")
                    + ". Otherwise no thread waited on a lock for longer than the recording's threshold";
        } else if (virtualThreads != null) {
            why = locks.profiledLockWaits() > 0
                    ? virtualThreads + ": JFR records none of their lock waits, but a ProfiledLock reports its own, so its "
                            + locks.profiledLockWaits() + " waits are in this table; a virtual thread's wait on any other lock"
                            + " is not. " + ProfileReport.VIRTUAL_THREAD_LOCK_NOTE
                    : virtualThreads + ": their lock waits are missing from this table, which under-reports contention. "
                            + ProfileReport.VIRTUAL_THREAD_LOCK_NOTE;
        } else {
            return table;
        }
        notes.add(why);
        return table.withNote(why);
    }
}
