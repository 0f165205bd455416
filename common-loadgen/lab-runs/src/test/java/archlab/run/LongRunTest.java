package archlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.loadgen.testing.MultiSecondCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** -Dlong end to end on a tiny load: 200 req/s, a 200 ms short run, then 0.5 s of warm-up, 1 s measured, 1 s after. */
@MultiSecondCheck
class LongRunTest {

    @TempDir
    Path dir;

    @Test
    @DisplayName("-Dlong writes <name>-long.txt and .json beside the short run's report: three windows of the asked lengths, each with the rate's requests, 5 slices of the short run's 200 ms; the short run's fixture is the last the supplier made, the long run's is closed")
    void aLongRunBesideTheShortOne() throws Exception {
        Properties p = new Properties();
        p.setProperty("long", "");
        p.setProperty("lab.long.warmup", "500ms");
        p.setProperty("lab.long.measured", "1s");
        p.setProperty("lab.long.stability", "1s");
        List<RecordingFixture> made = new CopyOnWriteArrayList<>();
        List<String> printed = new CopyOnWriteArrayList<>();
        LabRun.Reports outcome = LabRun.named("test-module", "tiny").spec(LoadSpec.book().withRate(200)
                .withDuration(Duration.ofMillis(200))).profiled(false).reportsDir(dir).output(printed::add)
                .jitWarmUp(Duration.ZERO, new JitWarmUp()).withOverrides(p).run(() -> {
                    RecordingFixture f = new RecordingFixture();
                    made.add(f);
                    return f;
                });

        assertThat(made).hasSize(2);
        assertThat(made.get(1).executed).as("the short run's fixture, made last").hasValue(40);
        assertThat(made.get(0).calls).as("the long run's fixture, made first, run and closed").contains("close");
        assertThat(made.get(0).executed.get()).as("warm-up + measured + stability at 200/s").isBetween(440L, 560L);
        assertThat(outcome.run().offered()).isEqualTo(40);

        String text = Files.readString(dir.resolve("tiny-long.txt"));
        assertThat(dir.resolve("tiny-long.json")).isRegularFile();
        assertThat(text).contains("long_run module=test-module name=tiny warmup=0.5s measured=1s stability=1s rule=short_form")
                .contains("slices of 0.2 s in the measured window: 5").contains("--- verdict").contains("trust: ");
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("tiny-long.json").toFile());
        assertThat(json.path("run").path("ratePerSecond").asInt()).isEqualTo(200);
        assertThat(json.path("windows").get(0).path("name").asText()).isEqualTo(LongRunReport.WARMUP);
        assertThat(json.path("windows").get(0).path("seconds").asDouble()).isBetween(0.4, 0.6);
        assertThat(json.path("windows").get(1).path("seconds").asDouble()).isBetween(0.9, 1.1);
        assertThat(json.path("windows").get(2).path("seconds").asDouble()).isBetween(0.9, 1.1);
        assertThat(json.path("windows").get(1).path("latency").path("requests").asLong()).isBetween(180L, 220L);
        assertThat(json.path("slices").path("p99sMicros")).hasSize(5);
        assertThat(json.path("shortRun").path("requests").asLong()).isEqualTo(40);
        assertThat(json.path("verdict").path("trustFactor").isNumber()).isTrue();
        assertThat(printed).anyMatch(l -> l.startsWith("long report: "));
    }
}
