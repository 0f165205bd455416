package archlab.ladder.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class GcFiguresTest {

    private static GcFigures phase(List<Long> pausesNanos) {
        return new GcFigures("test", pausesNanos.size(), GcFigures.Pauses.of(pausesNanos), 600L << 20, 3_000_000_000L);
    }

    @Test
    @DisplayName("pauses are summarised by nearest rank: the median, the 99th percentile, the longest and the total")
    void pauses() {
        GcFigures.Pauses p = GcFigures.Pauses.of(List.of(5L, 1L, 4L, 2L, 3L));
        assertThat(p.count()).isEqualTo(5);
        assertThat(p.p50()).isEqualTo(3);
        assertThat(p.p99()).isEqualTo(5);
        assertThat(p.max()).isEqualTo(5);
        assertThat(p.total()).isEqualTo(15);
        assertThat(GcFigures.Pauses.of(List.of()).count()).isZero();
        assertThat(phase(List.of()).allocationMiBPerSecond()).isEqualTo(200);
    }

    @Test
    @DisplayName("GC explains a p99 only when the pauses cover at least 1 % of the phase and the longest is at least half the p99's excess over the p50")
    void verdict() {
        // 40 pauses of 1 ms over 3 s: 1.3 % of the phase
        List<Long> often = java.util.Collections.nCopies(40, 1_000_000L);
        assertThat(phase(often).verdict(500, 2_400)).isEqualTo(GcFigures.Verdict.EXPLAINS_P99);
        assertThat(phase(often).verdict(500, 2_600)).as("a tail of 2.1 ms against 1 ms pauses").isEqualTo(GcFigures.Verdict.TOO_SHORT);
        // 20 pauses of 1 ms: 0.67 %
        assertThat(phase(java.util.Collections.nCopies(20, 1_000_000L)).verdict(500, 1_000)).isEqualTo(GcFigures.Verdict.TOO_RARE);
        assertThat(phase(List.of()).verdict(500, 1_000)).isEqualTo(GcFigures.Verdict.NO_GC);
        assertThat(phase(often).verdictText(500, 2_400)).startsWith("GC explains the p99 (pauses 1.33 % of the phase, the longest 1.00 ms");
    }
}
