package archlab.sweep;

import static archlab.sweep.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.LimitEvidence;
import archlab.report.SweepRow;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the rows say past the knee: evidence and what it is consistent with, never a verdict. */
class LimitEvidenceTest {

    private static final long CEILING = 16_000L;

    @Test
    @DisplayName("timeouts while the CPU is mostly idle read as a wait without work: consistent with a lock or a queue")
    void timeoutsWithIdleCpu() {
        List<String> lines = LimitEvidence.between(row(250, 250, 9_000), row(500, 300, 200_000, 150, 0.2), CEILING);
        assertThat(lines.get(0)).startsWith("at 500 req/s (the first rate past the knee)");
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("timed_out=200").contains("lock or a queue"));
        assertThat(lines).noneSatisfy(l -> assertThat(l).contains("generator"));
    }

    @Test
    @DisplayName("a send lag that grew past 1 ms reads as the generator falling behind, and a busy CPU as saturation")
    void sendLagAndBusyCpu() {
        SweepRow knee = row(1000, 1000, 5_000, 200, 0.5);
        SweepRow past = row(2000, 1990, 30_000, 9_000, 0.95);  // 9 ms of a 30 ms p99 spent waiting to be sent
        List<String> lines = LimitEvidence.between(knee, past, CEILING);
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("send-lag p99 9.000 ms").contains("0.200 ms at the knee"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("CPU saturation"));
        assertThat(lines).noneSatisfy(l -> assertThat(l).contains("lock or a queue"));
    }

    @Test
    @DisplayName("p99 over the ceiling with an idle CPU and on-time starts reads as waiting, not computing")
    void slowButIdle() {
        List<String> lines = LimitEvidence.between(null, row(250, 250, 27_800, 1_300, 0.22), CEILING);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains("p99 27.800 ms over the ceiling").contains("22% of the CPU")
                .contains("waiting, not computing");
        assertThat(lines).noneSatisfy(l -> assertThat(l).contains("generator started requests late"));
    }

    @Test
    @DisplayName("a send lag over half the ceiling is never called 'on time', even when it is too small a share of the p99 to count as the generator falling behind")
    void lagOverTheSlackIsNotOnTime() {
        // 10 ms ceiling (5 ms floor); send-lag p99 7.6 ms of a 40 ms p99: under a quarter, so not "late" either
        List<String> lines = LimitEvidence.between(row(1000, 1000, 7_000, 1_000, 0.1), row(1500, 1500, 40_000, 7_600, 0.13), 10_000L);
        assertThat(lines).noneSatisfy(l -> assertThat(l).contains("started requests on time"));
    }

    @Test
    @DisplayName("when no figure stands out it says so instead of guessing")
    void nothingStandsOut() {
        List<String> lines = LimitEvidence.between(row(250, 250, 9_000), row(500, 500, 20_000, 150, 0.6), CEILING);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).startsWith("no single figure stands out");
    }

    @Test
    @DisplayName("without a knee the evidence is about the lowest rate swept")
    void noKnee() {
        assertThat(LimitEvidence.between(null, row(250, 100, 90_000), CEILING).get(0))
                .startsWith("at 250 req/s (the lowest rate swept)");
    }
}
