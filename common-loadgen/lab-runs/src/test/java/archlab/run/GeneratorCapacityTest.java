package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.http.Wrk;
import archlab.report.ReportWriter;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The lab's open-loop generators against wrk on one server's {@code GET /noop}: {@code mvn -pl common-loadgen/lab-runs test -Dgenerator} (its own flag: a checkpoint's {@code -Dwrk} builds common-loadgen too and must not run it)
 * writes {@code target/reports/generator-vs-wrk.md} (+ .json). The figures are the machine's; what is asserted is the
 * shape that holds on any machine.
 */
@EnabledIfSystemProperty(named = "generator", matches = ".*", disabledReason = "about 50 s of probes and 3 s of wrk: mvn -pl common-loadgen/lab-runs test -Dgenerator")
class GeneratorCapacityTest {

    @Test
    @DisplayName("each generator's capacity over HTTP is the highest probed rate that held (every request started, send lag p99 under 1 ms, every answer in time), the event loops' printed beside the thread-per-request runner's and wrk's requests/s on the same no-op endpoint, with the event loops' ratio to wrk")
    void capacityBesideWrk() throws Exception {
        GeneratorCapacity.CapacityResult result = GeneratorCapacity.run(ReportWriter.reportsDir(), System.out::println);
        String md = Files.readString(result.markdown());
        assertThat(md).contains("generator_capacity=" + result.eventLoops().capacity() + " req/s")
                .contains("thread_per_request_capacity=" + result.threadPerRequest().capacity() + " req/s");
        for (GeneratorCapacity.Series s : new GeneratorCapacity.Series[] {result.eventLoops(), result.threadPerRequest()}) {
            assertThat(s.probes()).as("%s: probes run", s.name()).isNotEmpty();
            s.probes().stream().filter(GeneratorCapacity.Probe::holds).forEach(p -> {
                assertThat(p.requests().started()).as("%s: a probe that held started every request (%d req/s)", s.name(), p.ratePerSecond()).isEqualTo(p.requests().offered());
                assertThat(p.requests().completed()).as("%s: a probe that held had every answer (%d req/s)", s.name(), p.ratePerSecond()).isEqualTo(p.requests().offered());
                assertThat(p.p99().sendLagMicros()).as("%s: a probe that held was on time (%d req/s)", s.name(), p.ratePerSecond())
                        .isLessThan(GeneratorCapacity.SEND_LAG_BOUND.toNanos() / 1_000);
            });
            assertThat(s.capacity()).as("%s: the capacity is a rate that held, or 0 when none did", s.name()).isEqualTo(s.probes().stream()
                    .filter(GeneratorCapacity.Probe::holds).mapToInt(GeneratorCapacity.Probe::ratePerSecond).max().orElse(0));
        }
        assertThat(result.wrk().isPresent()).as("a wrk row exactly when wrk is installed (" + Wrk.INSTALL + ")")
                .isEqualTo(Wrk.find().isPresent());
        result.wrk().ifPresent(w -> {
            assertThat(w.counts().non2xx()).as("wrk's answers are the no-op's 204s").isZero();
            assertThat(md).containsPattern("wrk_max=\\d+ req/s");
            if (result.eventLoops().capacity() > 0) {
                assertThat(md).containsPattern("ratio generator/wrk=\\d+\\.\\d\\d");
            }
        });
    }
}
