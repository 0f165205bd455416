package archlab.sweep;

import archlab.loadgen.testing.MultiSecondCheck;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.DownstreamCounts;
import archlab.loadgen.LoadSpec;
import archlab.request.RequestContext;
import archlab.loadgen.Workload;
import archlab.run.CapacitySweep;
import archlab.run.JitWarmUp;
import archlab.run.LabFixture;
import archlab.report.MoneyEvidence;
import archlab.report.ReportWriter;
import archlab.report.SweepReport;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny real sweep against a no-op service: two rates, 200 ms each. */
@MultiSecondCheck
class CapacitySweepRunTest {

    /** A service that does nothing: every request completes at once. */
    private static class NoOp implements LabFixture {
        @Override
        public Workload workload() {
            return new Workload() {
                @Override
                public String operationOf(long sequence) {
                    return "noop";
                }

                @Override
                public void execute(long sequence, String operation, RequestContext ctx) {
                    work();
                }
            };
        }

        void work() {
        }

        @Override
        public DownstreamCounts downstreamCounts() {
            return DownstreamCounts.builder().build();
        }

        @Override
        public MoneyEvidence money() {
            return new MoneyEvidence(0, 0, 0, 0, 0);
        }
    }

    @Test
    @DisplayName("the warm-up and each rate run on a fresh fixture, offers exactly rate × duration, prints progress, and the report is written as text and JSON")
    void smallSweep(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>();
        AtomicInteger fixtures = new AtomicInteger();
        SweepReport report = CapacitySweep.of("noop-module", LoadSpec.book(), 8_000_000L)
                .rates(List.of(100, 50)).duration(Duration.ofMillis(200)).warmup(Duration.ofMillis(100))
                .jitWarmUp(Duration.ZERO, new JitWarmUp()).reportsDir(dir).output(lines::add)
                .run(() -> {
                    fixtures.incrementAndGet();
                    return new NoOp();
                });

        // a late attempt is listed whether or not one was left to rerun it: only "run again" lines made a fixture
        long rerunsMade = report.reruns().stream().filter(l -> l.endsWith("run again")).count();
        assertThat(fixtures).as("one for the warm-up, one per run of a rate (a rate is rerun while the generator was late): " + report.reruns())
                .hasValue(3 + (int) rerunsMade);
        assertThat(report.rows()).extracting(r -> r.offered()).containsExactly(10L, 20L);
        assertThat(lines).contains("[sweep] noop-module 50 req/s (1 of 2)", "[sweep] noop-module 100 req/s (2 of 2)");
        // a no-op service completes everything far below the 16 ms ceiling (a generous bound for 2 noisy cores)
        assertThat(report.knee().qualifying()).isNotEmpty();
        assertThat(Files.readString(dir.resolve("sweep-noop-module.txt"))).contains("capacity sweep").contains("knee");
        JsonNode json = ReportWriter.mapper().readTree(dir.resolve("sweep-noop-module.json").toFile());
        assertThat(json.path("kind").asText()).isEqualTo(SweepReport.KIND);
        assertThat(json.path("rows")).hasSize(2);
        assertThat(json.path("knee").path("definition").asText()).contains("99%");
        assertThat(json.path("environment").path("cores").asInt()).isPositive();
    }

    /**
     * A service whose requests each keep a CPU busy for 30 ms: at 100 req/s that is 3 cores' worth on the
     * virtual-thread carriers, so the generator's virtual threads start late and the run's send lag is tens of
     * milliseconds — a stand-in for a machine too busy to measure on.
     */
    private static final class Hogging extends NoOp {
        @Override
        void work() {
            long until = System.nanoTime() + 30_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }
    }

    @Test
    @DisplayName("a rate the machine disturbed (send-lag p99 over the knee's slack) is run again on a fresh fixture; the kept row is not the disturbed run, and the rerun is listed in the report")
    void lateRunIsRerun(@TempDir Path dir) {
        List<LabFixture> made = new ArrayList<>();
        SweepReport report = CapacitySweep.of("noop-module", LoadSpec.book(), 8_000_000L)
                .rates(List.of(100)).duration(Duration.ofMillis(500)).warmup(Duration.ZERO).attempts(3)
                .jitWarmUp(Duration.ZERO, new JitWarmUp())
                .reportsDir(dir).output(line -> { })
                .run(() -> {
                    LabFixture f = made.isEmpty() ? new Hogging() : new NoOp();
                    made.add(f);
                    return f;
                });

        assertThat(report.reruns()).isNotEmpty();
        assertThat(report.reruns().get(0)).startsWith("100 req/s attempt 1 of 3: send-lag p99").endsWith(", run again");
        assertThat(made).as("one fixture per run").hasSize(1 + Math.min(report.reruns().size(), 2));
        assertThat(report.rows()).hasSize(1);
        assertThat(report.rows().get(0).sendLagP99Micros() * 1_000L).as("the kept run is not the hogged one")
                .isLessThan(30_000_000L);
        assertThat(report.text()).contains("reruns (the generator started requests later");
    }

    @Test
    @DisplayName("-Dlab.sweep.attempts outside 1..10 or not a number is a clear error and changes nothing")
    void badAttemptsAreRefused() {
        CapacitySweep sweep = CapacitySweep.of("noop-module", LoadSpec.book(), 8_000_000L);
        java.util.Properties p = new java.util.Properties();
        p.setProperty(CapacitySweep.ATTEMPTS_PROPERTY, "0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sweep.withOverrides(p))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lab.sweep.attempts");
        p.setProperty(CapacitySweep.ATTEMPTS_PROPERTY, "three");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sweep.withOverrides(p))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("three");
    }
}
