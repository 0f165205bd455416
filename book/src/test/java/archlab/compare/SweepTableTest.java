package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.Environment;
import archlab.report.Knee;
import archlab.report.ReportWriter;
import archlab.report.SweepReport;
import archlab.report.SweepRow;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep table, from hand-made sweep reports written the way CapacitySweep writes them. */
class SweepTableTest {

    /** A sweep of {@code module} in {@code session} whose service keeps up to {@code capacity} req/s. */
    private static void sweep(Path root, String module, String session, int capacity) {
        List<SweepRow> rows = new ArrayList<>();
        for (int rate : List.of(250, 500, 1000, 2000)) {
            long offered = rate * 3L;
            long completed = Math.min(offered, capacity * 3L);
            long p99 = rate <= capacity ? 9_000 : 190_000;
            rows.add(SweepRow.builder().ratePerSecond(rate).offered(offered).completed(completed)
                    .timedOut(offered - completed).goodput((double) completed / offered).rpsCompleted(completed / 3.0)
                    .p50Micros(p99 / 2).p99Micros(p99).sendLagP99Micros(200).cpuShare(rate / 4000.0).hiccupP99Micros(50)
                    .build());
        }
        Environment env = new Environment(new Environment.Machine("25", "test", 2, "Linux", 2048), "2026-01-01T00:00:00Z",
                session);
        ReportWriter.writeJson(root.resolve(module).resolve("target/reports/sweep-" + module + ".json"),
                SweepReport.builder().module(module).name("sweep").environment(env).settings("test")
                        .payFloorNanos(8_000_000L).rows(rows).knee(Knee.find(rows, 8_000_000L))
                        .reruns(List.of("500 req/s attempt 1: send-lag p99 9 ms")).build());
    }

    @Test
    @DisplayName("the sweep table takes this session's sweeps only, each with its knee, its rates and its reruns")
    void oneRowPerSweepOfTheSession(@TempDir Path root) {
        sweep(root, "m1", "s1", 1000);
        sweep(root, "m2", "s1", 100);
        sweep(root, "m3", "old", 2000);

        SweepTable table = SweepTable.collect(root, "s1");

        assertThat(table.rows()).extracting(SweepTable.Row::module).containsExactly("m1", "m2");
        SweepTable.Row m1 = table.rows().get(0);
        assertThat(m1.knee().kneeRate()).isEqualTo(1000);
        assertThat(m1.swept().rates()).isEqualTo(4);
        assertThat(m1.swept().lowestRate()).isEqualTo(250);
        assertThat(m1.swept().highestRate()).isEqualTo(2000);
        assertThat(m1.reruns()).isEqualTo(1);
        assertThat(m1.highestCpuShare()).isEqualTo(0.5);
        assertThat(table.rows().get(1).knee().kneeRate()).isNull();
        assertThat(table.markdown()).contains("| m1 | sweep | 4 | 250–2000 | 1000 | 16.0 | 0 | 1 | 50% |")
                .contains("| m2 | sweep | 4 | 250–2000 | none |");
    }

    @Test
    @DisplayName("sweeps.json written today has the saved table's fields in the saved order")
    void savedShape(@TempDir Path root) throws IOException {
        sweep(root, "m1", "s1", 1000);
        SweepTable.collect(root, "s1").write(root.resolve("out"));
        Path saved = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().resolve("results/sweeps.json");
        ObjectMapper json = new ObjectMapper();
        assertThat(fieldNames(json.readTree(root.resolve("out/sweeps.json").toFile()).get(0)))
                .containsExactlyElementsOf(fieldNames(json.readTree(saved.toFile()).get(0)));
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
