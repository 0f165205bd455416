package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.compare.ScenarioTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Figures entry point over a folder of saved reports. */
class FiguresTest {

    @Test
    @DisplayName("every chart with inputs is written and printed; a foreign JSON and the missing .jfr are reported as skipped")
    void rendersWhatItFinds(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        Samples.runReport(results.resolve("ch12-1-baseline/target/reports/baseline.json"), "ch12-1-baseline", "baseline",
                Map.of("pay", Samples.latencies(300, 190, 230, 1), "get", Samples.latencies(300, 180, 220, 2)));
        ScenarioTable.write(results.resolve("target/reports"), List.of(new ScenarioTable.Row("normal", "ch12-1-baseline",
                new ScenarioTable.Requests(4_500, 3_300, 1_200, 0, 0),
                new ScenarioTable.Speed(1_100, 200, 210, 220, 20),
                new ScenarioTable.Money(200, 0, 84, -1, -1, -1),
                new ScenarioTable.Resilience(1.0, "-", -1, -1, 0))));
        Files.writeString(results.resolve("notes.json"), "{\"something\": \"else\"}");
        List<String> out = new ArrayList<>();

        List<Path> written = Figures.run(results, dir.resolve("figures"), out::add);

        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder(
                "percentiles-baseline.png", "percentiles-ch12-1-baseline-baseline-by-op.png", "scenarios.png");
        written.forEach(p -> Pngs.assertPng(p, 500, 300));
        assertThat(out).contains("wrote " + dir.resolve("figures/scenarios.png"));
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("skipped 1 JSON file").contains("notes.json"));
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("skipped sweep chart: no capacity sweep"));
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("skipped timelines: no run report with a timeline"));
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("skipped flame graphs: no .jfr"));
    }

    @Test
    @DisplayName("given the names a page links to, only those figures are drawn, and the others are listed as not drawn")
    void onlyWantedFiguresAreDrawn(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        Samples.runReport(results.resolve("ch12-1-baseline/target/reports/baseline.json"), "ch12-1-baseline", "baseline",
                Map.of("pay", Samples.latencies(300, 190, 230, 1), "get", Samples.latencies(300, 180, 220, 2)));
        List<String> out = new ArrayList<>();

        List<Path> written = Figures.run(results, dir.resolve("figures"), out::add,
                java.util.Set.of("percentiles-ch12-1-baseline-baseline-by-op.png")::contains);

        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactly("percentiles-ch12-1-baseline-baseline-by-op.png");
        assertThat(Files.exists(dir.resolve("figures/percentiles-baseline.png"))).isFalse();
        assertThat(out).contains("not drawn, no page links to them: percentiles-baseline.png");
    }

    @Test
    @DisplayName("an exercise's runs and the repeated runs' copies are never a figure's input, even when newer than the book's run of the same name")
    void exerciseAndRepeatRunsAreNotInputs(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        Samples.runReport(results.resolve("exercises/12.1-x/ch12-1-baseline/baseline.json"), "ch12-1-baseline", "baseline",
                Map.of("pay", Samples.latencies(300, 190, 230, 1)));
        Samples.runReport(results.resolve("repeats/ch12-1-baseline/baseline.json"), "ch12-1-baseline", "baseline",
                Map.of("pay", Samples.latencies(300, 190, 230, 1)));
        List<String> out = new ArrayList<>();

        assertThat(Figures.run(results, dir.resolve("figures"), out::add)).isEmpty();
        assertThat(out).anySatisfy(l -> assertThat(l).startsWith("skipped percentile charts: no run report"));
    }

    @Test
    @DisplayName("an empty results folder writes nothing and says why for each figure, without failing")
    void emptyFolder(@TempDir Path dir) {
        List<String> out = new ArrayList<>();
        assertThat(Figures.run(dir, dir.resolve("figures"), out::add)).isEmpty();
        assertThat(out).hasSize(5).allSatisfy(l -> assertThat(l).startsWith("skipped"));
    }

    @Test
    @DisplayName("a results folder that does not exist is refused with its path in the message")
    void missingFolder(@TempDir Path dir) {
        assertThatThrownBy(() -> Figures.run(dir.resolve("nope"), dir.resolve("figures"), l -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
    }
}
