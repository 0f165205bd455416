package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.run.LongRunReport.Latency;
import archlab.run.LongRunReport.Window;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** -Dlong's settings and the long report's verdicts, on hand-made figures. */
class LongRunSettingsTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    private static java.util.Optional<LongRunSettings> from(Properties p) {
        return LongRunSettings.from(p, LabProperties.read(p));
    }

    @Test
    @DisplayName("without -Dlong there is no long run; -Dlong alone is the article's rule (30 s, 2 min, 30 s), which the windows keep")
    void defaultsAreTheArticles() {
        assertThat(from(props())).isEmpty();
        LongRunSettings article = from(props("long", "")).orElseThrow();
        assertThat(article).isEqualTo(LongRunSettings.ARTICLE);
        assertThat(article.measured()).isEqualTo(Duration.ofMinutes(2));
        assertThat(article.keepsTheArticlesRule()).isTrue();
        assertThat(article.loaded()).isEqualTo(Duration.ofSeconds(150));
    }

    @Test
    @DisplayName("lab.long.* changes the windows; a short form is said not to keep the rule; -Dlong=a,b covers those runs only")
    void shortForm() {
        LongRunSettings s = from(props("long", "", "lab.long.warmup", "2s", "lab.long.measured", "9s",
                "lab.long.stability", "3s")).orElseThrow();
        assertThat(s).isEqualTo(new LongRunSettings(Duration.ofSeconds(2), Duration.ofSeconds(9), Duration.ofSeconds(3),
                java.util.Set.of()));
        assertThat(s.keepsTheArticlesRule()).isFalse();
        assertThat(s.covers("baseline")).isTrue();
        LongRunSettings named = from(props("long", "baseline, overload")).orElseThrow();
        assertThat(named.covers("baseline")).isTrue();
        assertThat(named.covers("overload")).isTrue();
        assertThat(named.covers("ablation-no-cache")).isFalse();
        assertThat(from(props("long", "true")).orElseThrow().covers("anything")).isTrue();
    }

    @Test
    @DisplayName("bad input is refused, naming it: a lab.long.* key without -Dlong, a window under 1 s, a negative warm-up, a typo, a run name that is no report name")
    void badInput() {
        assertThatThrownBy(() -> from(props("lab.long.measured", "10s"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lab.long.measured").hasMessageContaining("add -Dlong");
        assertThatThrownBy(() -> from(props("long", "", "lab.long.measured", "500ms")))
                .hasMessageContaining("measured window must be at least 1 s");
        assertThatThrownBy(() -> from(props("long", "", "lab.long.stability", "0s")))
                .hasMessageContaining("stability window must be at least 1 s");
        assertThatThrownBy(() -> from(props("long", "", "lab.long.warmup", "-1s"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> from(props("long", "", "lab.long.measure", "10s"))).hasMessageContaining("lab.long.measured");
        assertThatThrownBy(() -> from(props("long", "../etc"))).hasMessageContaining("-Dlong=../etc");
        assertThatThrownBy(() -> from(props("long", ","))).hasMessageContaining("names no run");
        assertThatThrownBy(() -> from(props("long", "false"))).hasMessageContaining("leave -Dlong out");
        assertThatThrownBy(() -> from(props("long", "", "lab.long.measured", "PT2H"))).hasMessageContaining("at most 60 minutes");
    }

    private static Window window(String name, long p99) {
        return new Window(name, 10, 0, new Latency(1000, 100, 50, p99, p99 * 2, p99 * 3), 0, new LongRunReport.Process(2, 500));
    }

    private static LongRunReport report(long shortP99, long measuredP99, long stabilityP99, List<Long> slices) {
        return new LongRunReport(new LongRunReport.Run("m", "baseline", 1500, 200, null), LongRunSettings.ARTICLE, List.of(window(LongRunReport.WARMUP, 900),
                window(LongRunReport.MEASURED, measuredP99), window(LongRunReport.STABILITY, stabilityP99)),
                new LongRunReport.Slices(3, slices), new Latency(4500, 100, 50, shortP99, 2 * shortP99, 3 * shortP99), Map.of());
    }

    @Test
    @DisplayName("the trust factor is the farthest of the slices' and the short run's p99 from the window's, either way; inside/outside and stable say where a p99 fell")
    void verdicts() {
        LongRunReport r = report(1200, 1000, 1100, List.of(800L, 1000L, 1500L));
        assertThat(r.shortRunTrustFactor()).isEqualTo(1.5);
        assertThat(r.shortRunInsideTheSlices()).isTrue();
        assertThat(r.stable()).isTrue();
        assertThat(r.text()).contains("lands within x1.50").contains("inside the slices' range")
                .contains("slices of 3 s in the measured window: 3, their p99 min/median/max = 800/1000/1500 us");

        LongRunReport low = report(400, 1000, 2000, List.of(800L, 1000L, 1500L));
        assertThat(low.shortRunTrustFactor()).isEqualTo(2.5);
        assertThat(low.shortRunInsideTheSlices()).isFalse();
        assertThat(low.stable()).isFalse();
        assertThat(low.text()).contains("outside the slices' range").contains("drifted");
        assertThat(report(400, 0, 0, List.of()).shortRunTrustFactor()).isNaN();
        assertThat(report(400, 0, 0, List.of()).text()).contains("trust: not judged").contains("stability: not judged");
    }

    @Test
    @DisplayName("a window's GC pauses per minute and bytes per request come from its own seconds and requests; unknown bytes stay unknown")
    void perMinuteAndPerRequest() {
        Window w = window(LongRunReport.MEASURED, 1000);
        assertThat(w.gcPausesPerMinute()).isEqualTo(12.0);
        assertThat(w.bytesWrittenPerRequest()).isEqualTo(0.5);
        Window unknown = new Window("x", 10, 0, w.latency(), 0, new LongRunReport.Process(0, -1));
        assertThat(unknown.bytesWrittenPerRequest()).isEqualTo(-1);
    }
}
