package archlab.run;

import archlab.loadgen.testing.MultiSecondCheck;
import archlab.report.MoneyEvidence;
import archlab.report.RunReport;
import archlab.report.Spread;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.LoadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.Collections;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One named run end to end, on a tiny load (200 req/s for 200 ms: 40 requests that do nothing). */
@MultiSecondCheck
class LabRunTest {

    private static final LoadSpec TINY = LoadSpec.book().withRate(200).withDuration(Duration.ofMillis(200));
    private static final int TINY_REQUESTS = 40;

    @TempDir
    Path dir;

    private final List<String> printed = new CopyOnWriteArrayList<>();

    /** A run without the JVM's JIT warm-up: the tests of the warm-up give each run a warm-up state of its own. */
    private LabRun lab(String name) {
        return LabRun.named("test-module", name).spec(TINY).profiled(false).reportsDir(dir).output(printed::add)
                .jitWarmUp(Duration.ZERO, new JitWarmUp());
    }

    @Test
    @DisplayName("repetitions(3) builds a fresh fixture for every run: the supplier is called 3 times, for 3 distinct fixtures")
    void everyRepetitionGetsAFreshFixture() {
        AtomicInteger supplied = new AtomicInteger();
        Set<RecordingFixture> fixtures = Collections.newSetFromMap(new IdentityHashMap<>());
        LabRun.Reports outcome = lab("repeated").repetitions(3).run(() -> {
            supplied.incrementAndGet();
            RecordingFixture f = new RecordingFixture();
            fixtures.add(f);
            return f;
        });
        assertThat(supplied).hasValue(3);
        assertThat(fixtures).hasSize(3).allSatisfy(f -> assertThat(f.executed).hasValue(TINY_REQUESTS));
        assertThat(outcome.repetitions()).hasSize(3);
    }

    @Test
    @DisplayName("a repeated run's report carries a spread over all runs, min ≤ median ≤ max in every row, printed in its text")
    void repeatedRunCarriesTheSpread() throws IOException {
        LabRun.Reports outcome = lab("spread").repetitions(3).run(RecordingFixture::new);
        Spread spread = outcome.report().spread();
        assertThat(spread).isNotNull();
        assertThat(spread.runs()).isEqualTo(3);
        assertThat(spread.rows()).isNotEmpty().allSatisfy(row -> {
            assertThat(row.min()).as(row.name()).isLessThanOrEqualTo(row.median());
            assertThat(row.median()).as(row.name()).isLessThanOrEqualTo(row.max());
        });
        assertThat(spread.rows()).filteredOn(r -> r.name().equals("offered"))
                .singleElement().satisfies(r -> assertThat(r.max()).isEqualTo(TINY_REQUESTS));
        assertThat(outcome.report().text()).contains(spread.render()).contains("spread over 3 runs (min/median/max):");
        assertThat(Files.readString(outcome.textFile())).contains("spread over 3 runs");
    }

    @Test
    @DisplayName("the written report is the last repetition's, with the spread added")
    void writtenReportIsTheLastRepetition() {
        LabRun.Reports outcome = lab("last").repetitions(2).run(RecordingFixture::new);
        RunReport last = outcome.repetitions().get(1);
        assertThat(outcome.report().run()).isSameAs(last.run());
        assertThat(outcome.repetitions()).allSatisfy(r -> assertThat(r.spread()).isNull());
    }

    @Test
    @DisplayName("a single run has no spread, writes <name>.txt and <name>.json into reportsDir and no .jfr when not profiled")
    void singleRunWritesTextAndJson() {
        LabRun.Reports outcome = lab("single").run(RecordingFixture::new);
        assertThat(outcome.report().spread()).isNull();
        assertThat(outcome.profile()).isNull();
        assertThat(outcome.textFile()).isEqualTo(dir.resolve("single.txt")).isRegularFile();
        assertThat(dir.resolve("single.json")).isRegularFile();
        assertThat(dir.resolve("single.jfr")).doesNotExist();
        assertThat(outcome.run().offered()).isEqualTo(TINY_REQUESTS);
        assertThat(outcome.report().module()).isEqualTo("test-module");
        assertThat(outcome.report().name()).isEqualTo("single");
    }

    @Test
    @DisplayName("the run prints the report's text as written (its verdict on top), where it was written, the path of its page, and last its verdict again")
    void runPrintsTheReport() throws Exception {
        LabRun.Reports outcome = lab("printed").run(RecordingFixture::new);
        String text = java.nio.file.Files.readString(outcome.textFile());
        assertThat(printed).contains(text.stripTrailing());
        assertThat(printed).anySatisfy(l -> assertThat(l).startsWith("report: ").contains("printed.txt"));
        List<String> verdict = LabRun.verdictOf(text);
        assertThat(verdict).as("the report's verdict block").hasSizeGreaterThan(2).first().asString().startsWith("--- verdict");
        int page = printed.size() - verdict.size() - 1;
        assertThat(printed.get(page)).startsWith("page: ").contains("printed.html");
        assertThat(printed.subList(page + 1, printed.size())).containsExactlyElementsOf(verdict);
    }

    @Test
    @DisplayName("afterRun is called after the last request ran and before money(), downstreamCounts() and extra() are read")
    void afterRunComesAfterTheRunAndBeforeTheFigures() {
        List<RecordingFixture> made = new ArrayList<>();
        LabRun.Reports outcome = lab("order").run(() -> {
            RecordingFixture f = new RecordingFixture();
            made.add(f);
            return f;
        });
        RecordingFixture f = made.get(0);
        int afterRun = f.indexOf("afterRun");
        assertThat(f.calls.get(afterRun)).isEqualTo("afterRun executed=" + TINY_REQUESTS);
        assertThat(afterRun).isLessThan(f.indexOf("money"))
                .isLessThan(f.indexOf("downstreamCounts"))
                .isLessThan(f.indexOf("extra"));
        assertThat(outcome.report().downstream().inventoryCalls()).isEqualTo(TINY_REQUESTS);
        assertThat(outcome.report().extraByName()).containsEntry("executed", (long) TINY_REQUESTS);
    }

    @Test
    @DisplayName("beforeRun is called once, before any request runs")
    void beforeRunComesBeforeTheLoad() {
        List<RecordingFixture> made = new ArrayList<>();
        lab("before").run(() -> {
            RecordingFixture f = new RecordingFixture();
            made.add(f);
            return f;
        });
        List<String> calls = made.get(0).calls;
        assertThat(calls).filteredOn(c -> c.startsWith("beforeRun")).containsExactly("beforeRun executed=0");
        assertThat(made.get(0).indexOf("beforeRun")).isLessThan(made.get(0).indexOf("afterRun"));
    }

    @Test
    @DisplayName("a profiled run writes <name>.jfr beside the report and adds the profile to it")
    void profiledRunWritesTheJfrBesideTheReport() throws IOException {
        LabRun.Reports outcome = lab("profiled").profiled(true).run(RecordingFixture::new);
        Path jfr = dir.resolve("profiled.jfr");
        assertThat(jfr).isRegularFile();
        assertThat(Files.size(jfr)).isPositive();
        assertThat(outcome.textFile().getParent()).isEqualTo(jfr.getParent());
        assertThat(outcome.profile()).isNotNull();
        assertThat(Path.of(outcome.profile().file())).isEqualTo(jfr.toAbsolutePath());
        assertThat(outcome.report().profile()).isNotNull();
        assertThat(outcome.report().profile().jfrFile()).isEqualTo(jfr.toString());
        assertThat(outcome.report().text()).contains(outcome.report().profile().text().get(0));
        assertThat(printed).anySatisfy(l -> assertThat(l).startsWith("report: ").contains(".jfr"));
    }

    @Test
    @DisplayName("a fixture whose beforeRun fails leaves no JFR recording running, and its exception reaches the caller")
    void failingBeforeRunLeavesNoRecordingRunning() {
        IllegalStateException boom = new IllegalStateException("scenario clock would not start");
        RecordingFixture delegate = new RecordingFixture();
        LabFixture fixture = new LabFixture() {
            @Override
            public archlab.loadgen.Workload workload() {
                return delegate.workload();
            }

            @Override
            public void beforeRun() {
                throw boom;
            }

            @Override
            public archlab.downstream.DownstreamCounts downstreamCounts() {
                return delegate.downstreamCounts();
            }

            @Override
            public MoneyEvidence money() {
                return delegate.money();
            }
        };
        assertThatThrownBy(() -> lab("failing").profiled(true).run(() -> fixture)).isSameAs(boom);
        assertThat(FlightRecorder.getFlightRecorder().getRecordings())
                .noneMatch(r -> r.getName().equals("arch-lab profile") && r.getState() == RecordingState.RUNNING);
        assertThat(dir.resolve("failing.txt")).doesNotExist();
    }

    @Test
    @DisplayName("a run writes its interval log <name>.hlog beside the report, and the report's text names it")
    void runWritesItsIntervalLog() {
        LabRun.Reports outcome = lab("logged").run(RecordingFixture::new);
        assertThat(dir.resolve("logged.hlog")).isRegularFile();
        assertThat(outcome.report().text()).contains(" log=logged.hlog");
        assertThat(printed).anySatisfy(l -> assertThat(l).startsWith("report: ").contains(".hlog"));
    }

    @Test
    @DisplayName("every run's report has a hiccup line with the probe's p99, and its timeline's run intervals add up to what was offered")
    void everyRunHasHiccupsAndATimeline() {
        LabRun.Reports outcome = lab("timed").run(RecordingFixture::new);
        assertThat(outcome.report().text()).containsPattern("(?m)^hiccup p50=\\d+us p99=\\d+us max=\\d+us ");
        assertThat(outcome.run().hiccups().samples()).isPositive();
        assertThat(outcome.run().timeline().phase(archlab.timeline.Interval.RUN).stream()
                .mapToLong(archlab.timeline.Interval::offered).sum()).isEqualTo(TINY_REQUESTS);
    }

    @Test
    @DisplayName("-Dlab.interval sets the length of the timeline's intervals")
    void intervalOverride() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("lab.interval", "50ms");
        LabRun.Reports outcome = lab("interval").withOverrides(p).run(RecordingFixture::new);
        assertThat(outcome.run().timeline().interval()).isEqualTo(Duration.ofMillis(50));
        assertThat(outcome.report().text()).contains("timeline interval=50ms ");
    }
}
