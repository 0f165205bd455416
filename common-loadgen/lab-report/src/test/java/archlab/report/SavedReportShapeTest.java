package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.loadgen.testing.FakeClock;
import archlab.loadgen.testing.RepoRoot;
import archlab.request.RequestOutcome;
import archlab.timeline.Interval;
import archlab.timeline.IntervalRecorder;
import archlab.timeline.RunTimeline;
import archlab.timeline.TimelineSettings;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The book's tools read saved reports by path ({@code run.offered}, {@code run.latency.p99Micros}, …): a report
 * written today must hold the fields of the saved ones, in their order, whatever the records behind it look like.
 */
class SavedReportShapeTest {

    private static final Path SAVED_RESULTS = RepoRoot.path().resolve("book/results/ch12-1-baseline");
    /** A saved report of the book, with a profile, a JIT warm-up, operations, segments and a timeline. */
    private static final Path SAVED = SAVED_RESULTS.resolve("baseline.json");
    /** A saved capacity sweep of the book, with a knee. */
    private static final Path SAVED_SWEEP = SAVED_RESULTS.resolve("sweep-ch12-1-baseline.json");

    /** Reads JSON refusing a field that appears twice in one object (a part's figure serialized beside the part). */
    private static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    static Stream<String> objectsTheBookReads() {
        return Stream.of("", "/environment", "/run", "/run/spec", "/run/latency", "/run/operations/pay",
                "/run/operations/pay/latency", "/run/sendLag", "/run/segments/0", "/run/timeline",
                "/run/timeline/intervals/0", "/run/hiccups", "/downstream", "/money", "/extra/0");
    }

    @ParameterizedTest(name = "at '{0}'")
    @MethodSource("objectsTheBookReads")
    @DisplayName("a report written today has the saved report's fields at this path, in the saved order, none twice")
    void sameFieldsInTheSameOrder(String pointer) throws IOException {
        JsonNode saved = STRICT.readTree(SAVED.toFile()).at(pointer);
        JsonNode written = STRICT.readTree(ReportWriter.mapper().writeValueAsString(sample())).at(pointer);
        assertThat(saved.isObject()).as("the saved report has an object at '%s'", pointer).isTrue();
        assertThat(fieldNames(written)).as("fields at '%s'", pointer).containsExactlyElementsOf(fieldNames(saved));
    }

    static Stream<String> sweepObjectsTheBookReads() {
        return Stream.of("", "/environment", "/rows/0", "/knee");
    }

    @ParameterizedTest(name = "at '{0}'")
    @MethodSource("sweepObjectsTheBookReads")
    @DisplayName("a sweep report written today has the saved sweep's fields at this path, in the saved order, none twice")
    void sweepSameFieldsInTheSameOrder(String pointer) throws IOException {
        JsonNode saved = STRICT.readTree(SAVED_SWEEP.toFile()).at(pointer);
        JsonNode written = STRICT.readTree(ReportWriter.mapper().writeValueAsString(sweep())).at(pointer);
        assertThat(saved.isObject()).as("the saved sweep has an object at '%s'", pointer).isTrue();
        assertThat(fieldNames(written)).as("fields at '%s'", pointer).containsExactlyElementsOf(fieldNames(saved));
    }

    /** Two rates, the lower one the knee. */
    private static SweepReport sweep() {
        List<SweepRow> rows = List.of(
                SweepRow.builder().ratePerSecond(500).offered(1_500).completed(1_500).goodput(1).rpsCompleted(500)
                        .p50Micros(4_000).p99Micros(9_000).sendLagP99Micros(100).cpuShare(0.3).hiccupP99Micros(50).build(),
                SweepRow.builder().ratePerSecond(1_000).offered(3_000).completed(2_000).timedOut(1_000).goodput(0.67)
                        .rpsCompleted(666).p50Micros(90_000).p99Micros(200_000).build());
        return SweepReport.builder().module("m").name("sweep").environment(Samples.ENV).settings("test")
                .payFloorNanos(8_000_000L).rows(rows).knee(Knee.find(rows, 8_000_000L)).build();
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Every part filled: two operations, segments, failure causes, hiccups, a one-interval timeline. */
    private static RunReport sample() {
        RunReport r = Samples.report(Samples.detailed(LoadSpec.book(),
                List.of(Samples.segment("pay", "db", 10, 12, 1.5, 40.0, 3.0))));
        return r.toBuilder().run(r.run().withTimeline(oneIntervalTimeline()))
                .extra(List.of(new ReportLine("outbox_depth", 4L))).build();
    }

    private static RunTimeline oneIntervalTimeline() {
        FakeClock clock = new FakeClock();
        try (IntervalRecorder rec = IntervalRecorder.start(clock, TimelineSettings.DEFAULT)) {
            rec.beginPhase(Interval.RUN);
            rec.started(10_000);
            rec.ended(RequestOutcome.COMPLETED, 1_000_000L);
            clock.advance(50_000_000L);
            return rec.finish();
        }
    }
}
