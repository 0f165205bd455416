package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import archlab.compare.ScenarioTable;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario chart, from a hand-made table written by ScenarioTable.write. */
class ScenarioChartTest {

    private static ScenarioTable.Row row(String scenario, String module, long completed, long chargedNotPaid, long doubleCharges) {
        return new ScenarioTable.Row(scenario, module,
                new ScenarioTable.Requests(4_500, completed, 4_500 - completed, 0, 0),
                new ScenarioTable.Speed(completed / 3.0, 200, 210, 220, 12.5),
                new ScenarioTable.Money(200, doubleCharges, chargedNotPaid, -1, -1, -1),
                new ScenarioTable.Resilience(1.0, "-", -1, -1, 0));
    }

    @Test
    @DisplayName("goodput = completed / offered in %, money lost = charged-not-PAID + double charges (n/a counts 0)")
    void figures() {
        assertThat(ScenarioChart.goodputPercent(row("normal", "m", 3_600, 0, 0))).isCloseTo(80.0, within(1e-9));
        assertThat(ScenarioChart.moneyLost(row("normal", "m", 1, 84, 3))).isEqualTo(87.0);
        assertThat(ScenarioChart.moneyLost(row("normal", "m", 1, -1, -1))).isZero();
    }

    @Test
    @DisplayName("scenario × checkpoint grouped bars render to one valid two-panel PNG, even with a missing row")
    void render(@TempDir Path dir) {
        List<ScenarioTable.Row> rows = new ArrayList<>();
        for (String s : List.of("normal", "slow-downstream", "failing-downstream")) {
            rows.add(row(s, "ch12-1-baseline", 3_200, 84, 0));
            rows.add(row(s, "ch12-3-fault-scenarios", 4_450, 0, 1));
        }
        rows.add(row("normal", "ch12-2-cache-outbox-ratelimit", 4_490, 0, 0)); // ran one scenario only
        ScenarioTable.write(dir, rows);
        Path png = ScenarioChart.render(dir.resolve("scenarios.json"), dir.resolve("out/scenarios.png"));
        Pngs.assertPng(png, ScenarioChart.WIDTH, 2 * ScenarioChart.PANEL_HEIGHT);
    }

    @Test
    @DisplayName("scenarios.json written today has the saved table's fields in the saved order, and reads back to the rows written")
    void savedShapeAndRoundTrip(@TempDir Path dir) throws IOException {
        Path saved = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().resolve("results/scenarios.json");
        List<ScenarioTable.Row> rows = List.of(row("normal", "m", 4_000, 3, 1), row("slow-downstream", "m", 3_000, 0, 0));
        ScenarioTable.write(dir, rows);
        ObjectMapper json = new ObjectMapper();
        assertThat(fieldNames(json.readTree(dir.resolve("scenarios.json").toFile()).get(0)))
                .containsExactlyElementsOf(fieldNames(json.readTree(saved.toFile()).get(0)));
        assertThat(ScenarioChart.read(dir.resolve("scenarios.json"))).isEqualTo(rows);
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
