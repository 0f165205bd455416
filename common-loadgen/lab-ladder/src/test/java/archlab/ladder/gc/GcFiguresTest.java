package archlab.ladder.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GcFiguresTest {

    /** A 3 s phase with these pauses (ns), 600 MiB allocated. */
    private static GcFigures phase(List<Long> pausesNanos) {
        return new GcFigures(new GcFigures.Jvm("test", 128L << 20), pausesNanos.size(), GcFigures.Pauses.of(pausesNanos),
                GcFigures.Pauses.of(pausesNanos), new GcFigures.Stalls(0, 0), new GcFigures.Allocation(600L << 20, 3_000_000_000L));
    }

    @Test
    @DisplayName("pauses are summarised by nearest rank: the median, the 99th percentile, the longest and the total; allocation per second in MiB")
    void pauses() {
        GcFigures.Pauses p = GcFigures.Pauses.of(List.of(5L, 1L, 4L, 2L, 3L));
        assertThat(p.count()).isEqualTo(5);
        assertThat(p.p50()).isEqualTo(3);
        assertThat(p.p99()).isEqualTo(5);
        assertThat(p.max()).isEqualTo(5);
        assertThat(p.total()).isEqualTo(15);
        assertThat(p.each()).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(GcFigures.Pauses.of(List.of()).count()).isZero();
        assertThat(phase(List.of()).allocation().mibPerSecond()).isEqualTo(200);
    }

    @Test
    @DisplayName("the pauses explain a p99 only when the part of the phase deep enough inside a pause to push a median request past the p99 (each pause less the p99's excess over the p50) is at least 1 % of it")
    void verdict() {
        // 40 pauses of 1 ms over 3 s: 1.3 % of the phase in pauses
        List<Long> often = Collections.nCopies(40, 1_000_000L);
        assertThat(phase(often).verdict(500, 1_000)).as("excess 0.5 ms: 40 × 0.5 ms = 0.67 %").isEqualTo(GcFigures.Verdict.TOO_RARE);
        assertThat(phase(often).verdict(500, 600)).as("excess 0.1 ms: 40 × 0.9 ms = 1.2 %").isEqualTo(GcFigures.Verdict.EXPLAINS_P99);
        assertThat(phase(often).verdict(500, 2_400)).as("no 1 ms pause can make a 1.9 ms excess").isEqualTo(GcFigures.Verdict.TOO_SHORT);
        // one 100 ms pause: 100 − 60 = 40 ms of 3 s = 1.3 %
        assertThat(phase(List.of(100_000_000L)).verdict(2_000, 62_000)).isEqualTo(GcFigures.Verdict.EXPLAINS_P99);
        assertThat(phase(List.of(100_000_000L)).verdict(2_000, 82_000)).isEqualTo(GcFigures.Verdict.TOO_RARE);
        assertThat(phase(List.of()).verdict(500, 1_000)).isEqualTo(GcFigures.Verdict.NO_GC);
        assertThat(phase(often).verdictText(500, 600)).startsWith("the pauses explain the p99 (the longest pause 1.00 ms, the p99's excess over the p50 0.10 ms, 1.20 %");
        assertThat(phase(often).pushedPastP99Share(500, 600)).isCloseTo(0.012, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    @DisplayName("young collections are told by their names: G1New, ParallelScavenge, DefNew, ZGC Minor; not G1Old, ParallelOld, ZGC Major")
    void young() {
        assertThat(List.of("G1New", "ParallelScavenge", "DefNew", "ZGC Minor")).allMatch(GcFigures::young);
        assertThat(List.of("G1Old", "ParallelOld", "ZGC Major", "SerialOld")).noneMatch(GcFigures::young);
        assertThat(GcFigures.young(null)).isFalse();
    }

    @Test
    @DisplayName("a phase's figures count only the pauses and collections that started inside it, read from a real recording")
    void window(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("phase.jfr");
        java.time.Instant from;
        java.time.Instant to;
        try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
            r.enable("jdk.GarbageCollection");
            r.enable("jdk.GCPhasePause");
            r.start();
            System.gc();
            Thread.sleep(20);
            from = java.time.Instant.now();
            System.gc();
            to = java.time.Instant.now();
            Thread.sleep(20);
            System.gc();
            r.stop();
            r.dump(jfr);
        }
        GcFigures inside = GcFigures.read(jfr, from, to, new GcFigures.Allocation(0, 1_000_000_000L));
        GcFigures all = GcFigures.read(jfr, java.time.Instant.EPOCH, java.time.Instant.now(), new GcFigures.Allocation(0, 1_000_000_000L));
        // the System.gc() inside, and any collection the test JVM's other threads caused meanwhile; the two outside left out
        assertThat(inside.collections()).isPositive();
        assertThat(inside.pauses().count()).isPositive();
        assertThat(all.collections()).isGreaterThanOrEqualTo(inside.collections() + 2);
    }
}
