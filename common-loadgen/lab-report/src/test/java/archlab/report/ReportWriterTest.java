package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.Arrival;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LoadSpec;
import archlab.request.RequestOutcome;
import archlab.loadgen.RunResult;
import archlab.loadgen.RunResult.Latencies;
import archlab.loadgen.RunResult.Outcomes;
import archlab.loadgen.RunResult.Requests;
import archlab.loadgen.testing.FakeClock;
import archlab.timeline.Interval;
import archlab.timeline.IntervalRecorder;
import archlab.timeline.TimelineSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report on disk: text for people, JSON for tools, both named after the run. */
class ReportWriterTest {

    @TempDir
    Path dir;

    private RunReport report;
    private JsonNode json;

    @BeforeEach
    void writeOne() throws IOException {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 1; i <= 137; i++) {
            h.record(i * 1_000_000L); // 1 ms .. 137 ms
        }
        LoadSpec spec = LoadSpec.book().withArrival(Arrival.poisson(7)).withWarmup(Duration.ofMillis(1500));
        RunResult run = RunResult.builder().spec(spec).requests(new Requests(150, 150, 0))
                .outcomes(new Outcomes(137, 0, 0, 0, 13)).wallNanos(3_000_000_000L)
                .latencies(new Latencies(h.summary(), Map.of(), h.summary(), Map.of(), 0)).warmupRequests(2250).build();
        report = RunReport.builder().module("test-module").name("writer-test").environment(Samples.ENV).run(run)
                .downstream(Samples.downstream(3, 2, 1)).money(Samples.money(2, 1))
                .extra(List.of(new ReportLine("outbox_depth", 4L))).build();
        ReportWriter.write(dir, report);
        json = new ObjectMapper().readTree(dir.resolve("writer-test.json").toFile());
    }

    @Test
    @DisplayName("write puts <name>.txt, <name>.json and the page <name>.html in the folder and returns the text file")
    void writesTextAndJsonNamedAfterTheRun() {
        Path sub = dir.resolve("nested/reports");
        Path txt = ReportWriter.write(sub, report);
        assertThat(txt).isEqualTo(sub.resolve("writer-test.txt"));
        assertThat(sub.resolve("writer-test.txt")).isRegularFile();
        assertThat(sub.resolve("writer-test.json")).isRegularFile();
        assertThat(sub.resolve("writer-test.html")).isRegularFile();
    }

    @Test
    @DisplayName("the text file holds the report's text, in UTF-8, with the verdict right under its first line")
    void textFileIsTheReportText() throws IOException {
        String written = Files.readString(dir.resolve("writer-test.txt"), StandardCharsets.UTF_8);
        String text = report.text();
        int firstLine = text.indexOf('\n') + 1;
        assertThat(written).startsWith(text.substring(0, firstLine) + "--- verdict (read this first) ---\n  outcome: ")
                .endsWith("\n\n" + text.substring(firstLine));
    }

    @Test
    @DisplayName("the JSON parses back and holds the run's counts, the HdrHistogram p99 and the money evidence")
    void jsonHoldsTheFigures() {
        assertThat(json.path("module").asText()).isEqualTo("test-module");
        assertThat(json.path("name").asText()).isEqualTo("writer-test");
        assertThat(json.path("run").path("offered").asLong()).isEqualTo(150);
        assertThat(json.path("run").path("poolExhausted").asLong()).isEqualTo(13);
        assertThat(json.path("run").path("latency").path("p99Micros").asLong())
                .isEqualTo(report.run().latency().p99Micros()).isPositive();
        assertThat(json.path("money").path("chargedButNotPaid").asLong()).isEqualTo(1);
        assertThat(json.path("extra").get(0).path("name").asText()).isEqualTo("outbox_depth");
        assertThat(json.path("environment").path("session").asText()).isEqualTo("test-session");
    }

    @Test
    @DisplayName("the JSON writes the spec's durations as ISO-8601 strings (PT3S) and the arrival by its description")
    void jsonWritesDurationsAndArrivalAsText() {
        JsonNode spec = json.path("run").path("spec");
        assertThat(spec.path("duration").isTextual()).isTrue();
        assertThat(spec.path("duration").asText()).isEqualTo("PT3S");
        assertThat(spec.path("timeout").asText()).isEqualTo("PT0.2S");
        assertThat(spec.path("warmup").asText()).isEqualTo("PT1.5S");
        assertThat(spec.path("arrival").asText()).isEqualTo("poisson(seed=7)");
        assertThat(spec.path("threads").asText()).isEqualTo("VIRTUAL");
    }

    @Test
    @DisplayName("the fixed arrival is written by its description too")
    void fixedArrivalIsWrittenByDescription() throws IOException {
        assertThat(ReportWriter.mapper().writeValueAsString(Arrival.fixed())).isEqualTo("\"fixed\"");
    }

    @Test
    @DisplayName("the encoded HdrHistogram in run.latency.hdrBase64 decodes to the same count")
    void hdrHistogramDecodesToTheSameCount() {
        String base64 = json.path("run").path("latency").path("hdrBase64").asText();
        assertThat(base64).isNotEmpty();
        assertThat(LatencyHistogram.decode(base64).getTotalCount()).isEqualTo(137);
        assertThat(LatencyHistogram.decode(base64).getValueAtPercentile(99))
                .isEqualTo(report.run().latency().p99Micros());
    }

    @Test
    @DisplayName("a single, unprofiled run writes null spread and profile, not missing fields")
    void absentSectionsAreNull() {
        assertThat(json.has("spread")).isTrue();
        assertThat(json.path("spread").isNull()).isTrue();
        assertThat(json.path("profile").isNull()).isTrue();
    }

    @Test
    @DisplayName("methods that are not record components (bookLine1, text, topHolder…) stay out of the JSON")
    void onlyComponentsAreWritten() {
        assertThat(json.fieldNames()).toIterable().containsExactlyInAnyOrder(
                "module", "name", "environment", "run", "downstream", "money", "extra", "profile", "spread", "jitWarmUp");
    }

    /** A report whose timeline was recorded (on a fake clock: one run interval of 50 ms with 3 completed requests). */
    private static RunReport withTimeline(RunReport r) {
        FakeClock clock = new FakeClock();
        IntervalRecorder rec = IntervalRecorder.start(clock, TimelineSettings.DEFAULT);
        try {
            rec.beginPhase(Interval.RUN);
            for (int i = 1; i <= 3; i++) {
                rec.started(10_000);
                rec.ended(RequestOutcome.COMPLETED, i * 1_000_000L);
            }
            clock.advance(50_000_000L);
            return r.toBuilder().run(r.run().withTimeline(rec.finish())).build();
        } finally {
            rec.close();
        }
    }

    @Test
    @DisplayName("a run with a timeline gets its interval log <name>.hlog beside the report, which HdrHistogram's reader reads back")
    void timelineIsWrittenAsAnIntervalLog() throws IOException {
        ReportWriter.write(dir, withTimeline(report));
        Path hlog = dir.resolve("writer-test.hlog");
        assertThat(hlog).isRegularFile();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            EncodableHistogram first = reader.nextIntervalHistogram();
            assertThat(first.getTag()).as("the run's latency, untagged").isNull();
            assertThat(((Histogram) first).getTotalCount()).isEqualTo(3);
        }
    }

    @Test
    @DisplayName("the JSON holds the timeline's intervals and the hiccups, but not the histograms behind them (those are the .hlog)")
    void jsonHoldsTheTimelineSummary() throws IOException {
        ReportWriter.write(dir, withTimeline(report));
        JsonNode run = new ObjectMapper().readTree(dir.resolve("writer-test.json").toFile()).path("run");
        assertThat(run.path("timeline").path("interval").asText()).isEqualTo("PT0.1S");
        assertThat(run.path("timeline").path("intervals")).hasSize(1);
        JsonNode interval = run.path("timeline").path("intervals").get(0);
        assertThat(interval.path("phase").asText()).isEqualTo("run");
        assertThat(interval.path("completed").asLong()).isEqualTo(3);
        assertThat(interval.path("lengthMillis").asDouble()).isEqualTo(50.0);
        assertThat(run.path("timeline").has("histograms")).isFalse();
        assertThat(run.path("timeline").has("originNanos")).isFalse();
        assertThat(run.path("hiccups").has("p99Micros")).isTrue();
    }

    @Test
    @DisplayName("a report without a timeline removes an interval log of the same name left by an earlier run")
    void noTimelineLeavesNoStaleLog() throws IOException {
        ReportWriter.write(dir, withTimeline(report));
        assertThat(dir.resolve("writer-test.hlog")).exists();
        ReportWriter.write(dir, report);
        assertThat(dir.resolve("writer-test.hlog")).doesNotExist();
    }
}
