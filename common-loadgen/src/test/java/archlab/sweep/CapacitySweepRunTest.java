package archlab.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.DownstreamCounts;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.RequestContext;
import archlab.loadgen.Workload;
import archlab.report.CapacitySweep;
import archlab.report.LabFixture;
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
class CapacitySweepRunTest {

    /** A service that does nothing: every request completes at once. */
    private static final class NoOp implements LabFixture {
        @Override
        public Workload workload() {
            return new Workload() {
                @Override
                public String operationOf(long sequence) {
                    return "noop";
                }

                @Override
                public void execute(long sequence, String operation, RequestContext ctx) {
                }
            };
        }

        @Override
        public DownstreamCounts downstreamCounts() {
            return new DownstreamCounts(0, 0, 0, 0, 0, 0, 0, 0, 0);
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
                .rates(List.of(100, 50)).duration(Duration.ofMillis(200)).warmup(Duration.ofMillis(100)).reportsDir(dir).output(lines::add)
                .run(() -> {
                    fixtures.incrementAndGet();
                    return new NoOp();
                });

        assertThat(fixtures).as("one for the warm-up, one per rate").hasValue(3);
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
}
