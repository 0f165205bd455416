package archlab.ladder.gc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the garbage collector did in one measured phase, and what the phase allocated, read from the phase's JDK Flight
 * Recorder file: every stop-the-world pause ({@code jdk.GCPhasePause}, of any collector: G1's and Parallel's young,
 * remark, cleanup and full pauses, ZGC's short pauses around its concurrent work), the young collections' apart
 * ({@code jdk.GarbageCollection} names the collection a pause belongs to: {@code G1New}, {@code ParallelScavenge},
 * {@code ZGC Minor}), ZGC's allocation stalls ({@code jdk.ZAllocationStall}: a thread waiting for the collector to free
 * memory, which is not a pause), each counted only when it started inside the phase; and the bytes every thread of the
 * JVM allocated (the JVM's own count, {@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}, not a
 * sample).
 *
 * <p>Whether the pauses explain a run's p99 is {@link #verdict}'s rule.
 *
 * <p>Immutable.
 *
 * @param jvm         the JVM's collectors and heap
 * @param collections collections with a pause or an event in the phase (distinct GC ids; a G1 concurrent cycle counts)
 * @param pauses      the phase's stop-the-world pauses, all of them
 * @param youngPauses those of young collections
 * @param stalls      ZGC's allocation stalls in the phase (none under other collectors)
 * @param allocation  what the JVM's threads allocated in the phase
 */
public record GcFigures(Jvm jvm, int collections, Pauses pauses, Pauses youngPauses, Stalls stalls, Allocation allocation) {

    /** A p99 is the latency one request in this many exceeds. */
    public static final double P99_SHARE = 0.01;

    /**
     * @param collectors   the JVM's collectors, as its management beans name them (e.g. "G1 Young Generation")
     * @param heapMaxBytes the heap's limit, bytes ({@link Runtime#maxMemory}: {@code -Xmx}, less a survivor space under
     *                     some collectors)
     */
    public record Jvm(String collectors, long heapMaxBytes) {
        /** @return this JVM's */
        public static Jvm current() {
            return new Jvm(String.join(", ", ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .map(GarbageCollectorMXBean::getName).toList()), Runtime.getRuntime().maxMemory());
        }
    }

    /**
     * Pauses, ns.
     *
     * @param count pauses
     * @param p50   the median (nearest rank)
     * @param p99   the 99th percentile (nearest rank)
     * @param max   the longest
     * @param total all together
     * @param each  every pause, shortest first
     */
    public record Pauses(int count, long p50, long p99, long max, long total, List<Long> each) {

        public Pauses {
            each = List.copyOf(each);
        }

        /** @return the pauses' figures (zeros for none) */
        public static Pauses of(List<Long> nanos) {
            if (nanos.isEmpty()) {
                return new Pauses(0, 0, 0, 0, 0, List.of());
            }
            List<Long> sorted = nanos.stream().sorted().toList();
            return new Pauses(sorted.size(), rank(sorted, 0.50), rank(sorted, 0.99), sorted.get(sorted.size() - 1),
                    sorted.stream().mapToLong(Long::longValue).sum(), sorted);
        }

        private static long rank(List<Long> sorted, double q) {
            return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
        }
    }

    /**
     * @param count      stalls
     * @param totalNanos their durations together, ns
     */
    public record Stalls(int count, long totalNanos) {
    }

    /**
     * @param bytes      bytes the JVM's threads allocated in the phase
     * @param phaseNanos the phase's length, ns
     */
    public record Allocation(long bytes, long phaseNanos) {
        /** @return MiB per second */
        public double mibPerSecond() {
            return phaseNanos <= 0 ? 0 : bytes / (phaseNanos / 1e9) / (1 << 20);
        }
    }

    /** Whether the pauses explain a p99, by {@link #verdict}'s rule. */
    public enum Verdict {
        /** No pause in the phase. */
        NO_GC,
        /** No pause was longer than the p99's excess over the p50: none can push a request from the median past the p99. */
        TOO_SHORT,
        /** Some pauses were, but too little of the phase lies that deep inside them for one request in a hundred. */
        TOO_RARE,
        /** The pauses alone push at least one request in a hundred from the median past the p99. */
        EXPLAINS_P99
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** @return the bytes this JVM's threads have allocated so far, exited threads' included (the JVM's count) */
    public static long allocatedSoFar() {
        return THREADS.getTotalThreadAllocatedBytes();
    }

    /**
     * @param jfr        the phase's recording (with {@code jdk.GarbageCollection}, {@code jdk.GCPhasePause} and
     *                   {@code jdk.ZAllocationStall})
     * @param from       the phase's start (events that started before it are left out)
     * @param to         the phase's end (events that started after it are left out: the drain, the recording's dump)
     * @param allocation what the phase allocated
     * @return the phase's figures, for this JVM
     */
    public static GcFigures read(Path jfr, Instant from, Instant to, Allocation allocation) {
        Map<Integer, String> names = new HashMap<>();
        Set<Integer> ids = new HashSet<>();
        List<long[]> pauses = new ArrayList<>(); // {gcId, nanos}
        int stalls = 0;
        long stallNanos = 0;
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                boolean inside = !e.getStartTime().isBefore(from) && e.getStartTime().isBefore(to);
                switch (type) {
                    case "jdk.GarbageCollection" -> {
                        names.put(e.getInt("gcId"), e.getString("name"));
                        if (inside) {
                            ids.add(e.getInt("gcId"));
                        }
                    }
                    case "jdk.GCPhasePause" -> {
                        if (inside) {
                            ids.add(e.getInt("gcId"));
                            pauses.add(new long[] {e.getInt("gcId"), e.getDuration().toNanos()});
                        }
                    }
                    case "jdk.ZAllocationStall" -> {
                        if (inside) {
                            stalls++;
                            stallNanos += e.getDuration().toNanos();
                        }
                    }
                    default -> { }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the phase's recording " + jfr, e);
        }
        List<Long> all = pauses.stream().map(p -> p[1]).toList();
        List<Long> young = pauses.stream().filter(p -> young(names.get((int) p[0]))).map(p -> p[1]).toList();
        return new GcFigures(Jvm.current(), ids.size(), Pauses.of(all), Pauses.of(young), new Stalls(stalls, stallNanos), allocation);
    }

    /** @return whether a collection so named is a young one (G1New, ParallelScavenge, DefNew, ZGC Minor) */
    static boolean young(String collection) {
        return collection != null && (collection.contains("New") || collection.contains("Scavenge") || collection.contains("Minor"));
    }

    /** @return the share of the phase the pauses covered, 0..1 */
    public double pauseShare() {
        return allocation.phaseNanos() <= 0 ? 0 : pauses.total() / (double) allocation.phaseNanos();
    }

    /**
     * The rule. A request that arrives during a pause waits for the rest of it; with the p99's excess over the p50 as
     * {@code e}, a request of median cost lands past the p99 when more than {@code e} of the pause is left, which for a
     * pause of length {@code L} is the case over {@code max(0, L − e)} of it. Arrivals being even (an open loop), the
     * share of requests the pauses alone push past the p99 is {@code Σ max(0, L − e) / phase}: the pauses explain the
     * p99 when that is at least {@link #P99_SHARE}. It leaves out the queue a pause leaves behind (which can only add),
     * the collector's concurrent threads taking CPU from the requests, and ZGC's allocation stalls ({@link #stalls}):
     * a "does not explain" says the pauses alone do not, not that the collector played no part. The phase runs from the
     * first planned request to the last answer, a little longer than the arrivals' spread, so the share is a little
     * low when the service fell behind.
     *
     * @param p50Micros the run's p50, µs
     * @param p99Micros the run's p99, µs
     * @return the verdict
     */
    public Verdict verdict(double p50Micros, double p99Micros) {
        if (pauses.count() == 0) {
            return Verdict.NO_GC;
        }
        double deep = deepNanos(p50Micros, p99Micros);
        if (deep == 0) {
            return Verdict.TOO_SHORT;
        }
        return deep / Math.max(1, allocation.phaseNanos()) >= P99_SHARE ? Verdict.EXPLAINS_P99 : Verdict.TOO_RARE;
    }

    /** @return the share of the phase the pauses alone push a median request past the p99 over, 0..1 */
    public double pushedPastP99Share(double p50Micros, double p99Micros) {
        return allocation.phaseNanos() <= 0 ? 0 : deepNanos(p50Micros, p99Micros) / allocation.phaseNanos();
    }

    private double deepNanos(double p50Micros, double p99Micros) {
        double excessNanos = Math.max(0, (p99Micros - p50Micros) * 1_000);
        return pauses.each().stream().mapToDouble(l -> Math.max(0, l - excessNanos)).sum();
    }

    /** @return the verdict in words, with the figures it was judged on */
    public String verdictText(double p50Micros, double p99Micros) {
        String figures = String.format(Locale.ROOT, "the longest pause %.2f ms, the p99's excess over the p50 %.2f ms, %.2f %%"
                        + " of the phase deep enough in a pause to push a median request past the p99", pauses.max() / 1e6,
                (p99Micros - p50Micros) / 1_000, 100 * pushedPastP99Share(p50Micros, p99Micros));
        String stalled = stalls.count() == 0 ? "" : String.format(Locale.ROOT, "; %d allocation stalls (%.1f ms), not pauses,"
                + " not judged", stalls.count(), stalls.totalNanos() / 1e6);
        return switch (verdict(p50Micros, p99Micros)) {
            case NO_GC -> "no pause in the phase" + stalled;
            case TOO_SHORT -> "the pauses do not explain the p99: none longer than its excess (" + figures + ")" + stalled;
            case TOO_RARE -> "the pauses do not explain the p99: too few requests meet one deep enough (" + figures + ")" + stalled;
            case EXPLAINS_P99 -> "the pauses explain the p99 (" + figures + ")" + stalled;
        };
    }
}
