package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The durable floor of a pay, from a report's JSON: stubs' latencies + commits per pay × the commit probe. */
class DurableFloorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode report(String probe, long storeWriteEntries) throws Exception {
        return JSON.readTree("""
                {"run": {"operations": {"pay": {"latency": {"count": 100, "p50Micros": 9000, "p99Micros": 30000}}},
                         "segments": [{"operation": "pay", "segment": "store.write", "requests": 100, "operationRequests": 100,
                                       "entries": %d},
                                      {"operation": "create", "segment": "store.write", "requests": 80, "entries": 80}]},
                 "extra": [{"name": "downstream_latency", "value": "inventory=2ms payment=4ms notify=2ms"}%s]}
                """.formatted(storeWriteEntries, probe == null ? ""
                : ", {\"name\": \"store_commit_probe\", \"value\": \"one-row commit every 10ms on its own connection " + probe + "\"}"));
    }

    @Test
    @DisplayName("the floor is inventory + payment + commits per pay × the probe's commit time, at p50 and at p99, and the run's pay is put beside it as ratios")
    void floorAndRatios() throws Exception {
        DurableFloor.Figures f = DurableFloor.of(report("p50=0.500ms p99=4.000ms max=9ms n=300 wait_share=5.0% failures=0", 200))
                .orElseThrow();
        assertThat(f.commitsPerPay()).isEqualTo(2.0);
        assertThat(f.floorP50Millis()).isCloseTo(7.0, within(1e-9));
        assertThat(f.floorP99Millis()).isCloseTo(14.0, within(1e-9));
        assertThat(f.p50Ratio()).isCloseTo(9.0 / 7.0, within(1e-9));
        assertThat(f.p99Ratio()).isCloseTo(30.0 / 14.0, within(1e-9));
        assertThat(DurableFloor.verdictLine(report("p50=0.500ms p99=4.000ms", 200)).orElseThrow())
                .startsWith("floor: a pay needs inventory + payment 6 ms and 2.0 commits")
                .contains("7.0 ms at p50, 14.0 ms at p99").contains("p50 9.0 ms is 1.29× the floor, p99 30.0 ms 2.14×");
    }

    @Test
    @DisplayName("orders charged but not PAID on a durable store whose disk did not keep pace, with no reconciler: the money line puts the disk's pace beside them and names 12.3's reconciler; on a disk that kept pace it does not")
    void chargedNotPaidBesideTheDisk() throws Exception {
        JsonNode report = report("p50=0.500ms p99=40.000ms max=120ms n=300 wait_share=31.0% failures=0", 200);
        ((com.fasterxml.jackson.databind.node.ObjectNode) report).set("money", JSON.readTree("{\"chargedButNotPaid\": 3}"));
        assertThat(RunVerdict.lines(report, Optional.empty())).filteredOn(l -> l.startsWith("money: ")).singleElement().asString()
                .contains("3 charged but not PAID").contains("the disk's pace meanwhile: p50=0.500ms p99=40.000ms max=120ms")
                .contains("12.3's reconciler");
        ((com.fasterxml.jackson.databind.node.ObjectNode) report).set("money", JSON.readTree("{\"chargedButNotPaid\": 0}"));
        assertThat(RunVerdict.lines(report, Optional.empty())).filteredOn(l -> l.startsWith("money: ")).singleElement().asString()
                .doesNotContain("disk");
        JsonNode keptPace = report("p50=0.500ms p99=4.000ms max=9ms n=300 wait_share=6.0% failures=0", 200);
        ((com.fasterxml.jackson.databind.node.ObjectNode) keptPace).set("money", JSON.readTree("{\"chargedButNotPaid\": 3}"));
        assertThat(RunVerdict.lines(keptPace, Optional.empty())).filteredOn(l -> l.startsWith("money: ")).singleElement()
                .asString().as("a disk that kept pace (ch12-1's lock, say) is not blamed").doesNotContain("disk");
    }

    @Test
    @DisplayName("a run without a commit probe (in memory) has no floor line")
    void noProbeNoLine() throws Exception {
        assertThat(DurableFloor.verdictLine(report(null, 200))).isEmpty();
        assertThat(RunVerdict.lines(report(null, 200), Optional.empty())).noneMatch(l -> l.startsWith("floor:"));
        assertThat(RunVerdict.lines(report("p50=0.500ms p99=4.000ms", 200), Optional.empty())).anyMatch(l -> l.startsWith("floor:"));
    }
}
