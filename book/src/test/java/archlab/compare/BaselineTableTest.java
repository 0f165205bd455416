package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.ReportWriter;
import archlab.run.LongRunReport;
import archlab.run.LongRunSettings;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The baseline table from long reports: hand-made ones, and the saved ones against the saved table. */
class BaselineTableTest {

    @TempDir
    Path dir;

    private static LongRunReport.Window window(String name, long p99, double seconds) {
        return new LongRunReport.Window(name, seconds, 0, new LongRunReport.Latency(180_000, 1_500.5, 90, p99, 2 * p99, 3 * p99),
                0, new LongRunReport.Process(30, 90_000));
    }

    private void save(String module, LongRunSettings settings, Map<String, String> extra) {
        LongRunReport r = new LongRunReport(new LongRunReport.Run(module, "baseline", 1500, 200, null), settings,
                List.of(window(LongRunReport.WARMUP, 9_000, settings.warmup().toSeconds()),
                        window(LongRunReport.MEASURED, 7_000, settings.measured().toSeconds()),
                        window(LongRunReport.STABILITY, 7_100, settings.stability().toSeconds())),
                new LongRunReport.Slices(3, List.of(6_000L, 7_000L, 8_400L)),
                new LongRunReport.Latency(4_500, 1_600, 100, 7_700, 9_000, 9_500), extra);
        ReportWriter.writeJson(dir.resolve(module).resolve("baseline-long.json"), r);
    }

    @Test
    @DisplayName("one row per saved long run, in the checkpoints' order: the measured window's mean, P99, P99.9, GC pauses a minute and bytes a request, the cache's ratio, the database, the short run's trust, and whether the rule was kept")
    void rowsFromLongReports() throws Exception {
        save("ch12-3-fault-scenarios", LongRunSettings.ARTICLE, Map.of("cache_hit_ratio", "0.4010"));
        save("ch12-1-baseline", new LongRunSettings(Duration.ofSeconds(2), Duration.ofSeconds(9), Duration.ofSeconds(3), Set.of()),
                Map.of());

        BaselineTable.Table t = BaselineTable.read(dir);

        assertThat(t.kind()).isEqualTo(BaselineTable.KIND);
        assertThat(t.rows()).extracting(BaselineTable.Row::id).containsExactly("ch12-1-baseline/baseline",
                "ch12-3-fault-scenarios/baseline");
        BaselineTable.Row article = t.rows().get(1);
        assertThat(article.latency()).isEqualTo(new BaselineTable.Latency(180_000, 1_500.5, 7_000, 14_000));
        assertThat(article.sides()).isEqualTo(new BaselineTable.Sides("none (in memory)", "40.1 %", 15.0, 0.5));
        assertThat(t.rows().get(0).sides().gcPausesPerMinute()).as("30 pauses in 9 s").isEqualTo(200.0);
        assertThat(article.trustFactor()).isEqualTo(1.2);
        assertThat(article.articlesRule()).isTrue();
        assertThat(t.rows().get(0).articlesRule()).isFalse();
        assertThat(t.rows().get(0).sides().cacheHitRatio()).isEqualTo("no cache");

        String md = Files.readString(BaselineTable.write(dir, t));
        assertThat(md).contains("| ch12-3-fault-scenarios/baseline | 1500 req/s, timeout 200 ms; measured 120 s after 30 s of"
                + " warm-up | 180000 | 1.501 | 7.000 | 14.000 | none (in memory) | 40.1 % | 15.0 | 0.5 | x1.20 |")
                .contains("(short form, not the article's rule)");
        assertThat(new ObjectMapper().readTree(dir.resolve("baseline-table.json").toFile()).path("kind").asText())
                .isEqualTo("baseline-table");
    }

    @Test
    @DisplayName("the saved baseline table is what the saved long runs say, row for row (refreshed with the book)")
    void savedTableMatchesSavedLongRuns() throws Exception {
        Path results = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().resolve("results");
        Path saved = results.resolve(BaselineTable.NAME + ".json");
        BaselineTable.Table fresh = BaselineTable.read(results);
        assertThat(fresh.rows()).as("a long run saved for each checkpoint").hasSize(BaselineTable.SOURCES.size());
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(saved.toFile())).isEqualTo(json.readTree(json.writeValueAsString(fresh)));
        assertThat(fresh.rows()).allSatisfy(r -> assertThat(r.articlesRule()).as(r.id() + " kept the article's rule").isTrue());
    }
}
