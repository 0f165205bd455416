package archlab.ladder.gc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the garbage collector did in one measured phase, and what the phase allocated: the collections and their
 * stop-the-world pauses from the phase's JDK Flight Recorder file ({@code jdk.GarbageCollection}: one per
 * collection; {@code jdk.GCPhasePause}: one per pause, of any collector — G1's and Parallel's young pauses, ZGC's
 * short pauses around its concurrent work), and the bytes every thread of the JVM allocated (the JVM's own count,
 * {@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}, not a sample).
 *
 * <p>Whether the pauses explain a run's p99 is {@link #verdict}'s rule.
 *
 * @param collectors     the JVM's collectors, as its management beans name them (e.g. "G1 Young Generation")
 * @param collections    collections in the phase (distinct GC ids)
 * @param pauses         their stop-the-world pauses
 * @param allocatedBytes bytes the JVM's threads allocated in the phase
 * @param phaseNanos     the phase's length, ns
 *
 * <p>Immutable.
 */
public record GcFigures(String collectors, int collections, Pauses pauses, long allocatedBytes, long phaseNanos) {

    /** Pauses covering at least this share of the phase are met by about as many requests (an open loop's arrivals are even). */
    public static final double P99_SHARE = 0.01;

    /**
     * The pauses of a phase, ns.
     *
     * @param count   pauses
     * @param p50     the median pause
     * @param p99     the 99th percentile pause (nearest rank)
     * @param max     the longest
     * @param total   all together
     */
    public record Pauses(int count, long p50, long p99, long max, long total) {

        /** @return the pauses' figures (zeros for none) */
        public static Pauses of(List<Long> nanos) {
            if (nanos.isEmpty()) {
                return new Pauses(0, 0, 0, 0, 0);
            }
            List<Long> sorted = nanos.stream().sorted().toList();
            return new Pauses(sorted.size(), rank(sorted, 0.50), rank(sorted, 0.99), sorted.get(sorted.size() - 1),
                    sorted.stream().mapToLong(Long::longValue).sum());
        }

        private static long rank(List<Long> sorted, double q) {
            return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
        }
    }

    /** Whether the pauses explain a p99, by {@link #verdict}'s rule. */
    public enum Verdict {
        /** No collection in the phase. */
        NO_GC,
        /** Pauses too rare: they cover less than {@link #P99_SHARE} of the phase, fewer requests than a p99's tail meet one. */
        TOO_RARE,
        /** Pauses too short: the longest is under half the p99's excess over the p50. */
        TOO_SHORT,
        /** The pauses explain the p99: frequent enough to be met by one request in a hundred, long enough to make its tail. */
        EXPLAINS_P99
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** @return the bytes this JVM's threads have allocated so far (the JVM's count; -1 where it does not count) */
    public static long allocatedSoFar() {
        return THREADS.getTotalThreadAllocatedBytes();
    }

    /** @return this JVM's collectors, by their management beans' names */
    public static String thisJvmsCollectors() {
        return String.join(", ", ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName).toList());
    }

    /**
     * @param jfr            the phase's recording (with {@code jdk.GarbageCollection} and {@code jdk.GCPhasePause})
     * @param allocatedBytes what the phase allocated
     * @param phaseNanos     the phase's length
     * @return the phase's figures, for this JVM's collectors
     */
    public static GcFigures read(Path jfr, long allocatedBytes, long phaseNanos) {
        Set<Integer> gcIds = new HashSet<>();
        List<Long> pauses = new ArrayList<>();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("jdk.GarbageCollection")) {
                    gcIds.add(e.getInt("gcId"));
                } else if (type.equals("jdk.GCPhasePause")) {
                    gcIds.add(e.getInt("gcId"));
                    pauses.add(e.getDuration().toNanos());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the phase's recording " + jfr, e);
        }
        return new GcFigures(thisJvmsCollectors(), gcIds.size(), Pauses.of(pauses), allocatedBytes, phaseNanos);
    }

    /** @return the phase's allocation, MiB/s */
    public double allocationMiBPerSecond() {
        return phaseNanos <= 0 ? 0 : allocatedBytes / (phaseNanos / 1e9) / (1 << 20);
    }

    /** @return the share of the phase the pauses covered, 0..1 */
    public double pauseShare() {
        return phaseNanos <= 0 ? 0 : pauses.total() / (double) phaseNanos;
    }

    /**
     * The rule: the pauses explain a p99 when they cover at least {@link #P99_SHARE} of the phase (so that about one
     * request in a hundred, arriving evenly, meets one) and the longest is at least half the p99's excess over the
     * p50 (a request that met it waited long enough to be in the tail).
     *
     * @param p50Micros the run's p50, µs
     * @param p99Micros the run's p99, µs
     * @return the verdict
     */
    public Verdict verdict(double p50Micros, double p99Micros) {
        if (collections == 0 || pauses.count() == 0) {
            return Verdict.NO_GC;
        }
        if (pauseShare() < P99_SHARE) {
            return Verdict.TOO_RARE;
        }
        return pauses.max() / 1_000.0 >= (p99Micros - p50Micros) / 2 ? Verdict.EXPLAINS_P99 : Verdict.TOO_SHORT;
    }

    /** @return the verdict in words, with the figures it was judged on */
    public String verdictText(double p50Micros, double p99Micros) {
        String figures = String.format(Locale.ROOT, "pauses %.2f %% of the phase, the longest %.2f ms, the p99's excess over"
                + " the p50 %.2f ms", 100 * pauseShare(), pauses.max() / 1e6, (p99Micros - p50Micros) / 1_000);
        return switch (verdict(p50Micros, p99Micros)) {
            case NO_GC -> "no collection in the phase: GC does not explain the p99";
            case TOO_RARE -> "not GC: too rare to reach the p99 (" + figures + ")";
            case TOO_SHORT -> "not GC alone: too short to make the tail (" + figures + ")";
            case EXPLAINS_P99 -> "GC explains the p99 (" + figures + ")";
        };
    }
}
