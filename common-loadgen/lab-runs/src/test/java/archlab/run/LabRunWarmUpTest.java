package archlab.run;

import archlab.loadgen.testing.MultiSecondCheck;
import archlab.report.WarmUp;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.timeline.Interval;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT warm-up every checkpoint's runs share ({@link JitWarmUp}), on a tiny load: 200 req/s for 200 ms measured,
 * warmed for 100 ms (20 requests). Each test has a warm-up state of its own, as a JVM has one.
 */
@MultiSecondCheck
class LabRunWarmUpTest {

    private static final LoadSpec TINY = LoadSpec.book().withRate(200).withDuration(Duration.ofMillis(200));
    private static final Duration WARM = Duration.ofMillis(100);

    @TempDir
    Path dir;

    private final List<String> printed = new CopyOnWriteArrayList<>();

    private LabRun lab(String name, JitWarmUp state) {
        return LabRun.named("test-module", name).spec(TINY).profiled(false).reportsDir(dir).output(printed::add)
                .jitWarmUp(WARM, state);
    }

    @Test
    @DisplayName("the first run of a JVM loads a scratch fixture of its own first: one more fixture, whose requests no figure of the report counts")
    void firstRunWarmsOnAScratchFixture() {
        List<RecordingFixture> made = new ArrayList<>();
        LabRun.Reports outcome = lab("first", new JitWarmUp()).run(() -> {
            RecordingFixture f = new RecordingFixture();
            made.add(f);
            return f;
        });
        assertThat(made).hasSize(2);
        assertThat(made.get(0).executed).as("the scratch fixture: 200/s for 100 ms").hasValue(20);
        assertThat(made.get(0).calls).contains("beforeRun executed=0", "afterRun executed=20");
        assertThat(made.get(1).executed).hasValue(40);
        assertThat(outcome.run().offered()).isEqualTo(40);
        WarmUp w = outcome.report().jitWarmUp();
        assertThat(w.inThisRun()).isTrue();
        assertThat(w.length()).isEqualTo(WARM);
        assertThat(w.requests()).isEqualTo(20);
        assertThat(w.before()).isEqualTo("test-module/first");
        assertThat(printed).anySatisfy(l -> assertThat(l).startsWith("[test-module/first] JIT warm-up: 200 req/s for 100 ms"));
    }

    @Test
    @DisplayName("the report says what was warmed and how long: the settings line states the JIT warm-up, never warmup=none")
    void settingsLineStatesTheWarmUp() {
        LabRun.Reports outcome = lab("stated", new JitWarmUp()).run(RecordingFixture::new);
        assertThat(outcome.report().text()).contains(" warmup=jit 0.1s at 200/s on a scratch fixture just before this run"
                + " (20 requests, excluded) ").doesNotContain("warmup=none");
    }

    @Test
    @DisplayName("the warmed run's timeline shows the warm-up's intervals, labelled jit-warmup, before the run's time 0")
    void timelineShowsTheWarmUp() {
        LabRun.Reports outcome = lab("visible", new JitWarmUp()).run(RecordingFixture::new);
        List<Interval> warm = outcome.run().timeline().phase(Interval.JIT_WARMUP);
        assertThat(warm).isNotEmpty().allSatisfy(i -> assertThat(i.endMillis()).isLessThanOrEqualTo(0.0));
        assertThat(warm.stream().mapToLong(Interval::offered).sum()).isEqualTo(20);
        assertThat(outcome.run().timeline().phase(Interval.RUN).stream().mapToLong(Interval::offered).sum()).isEqualTo(40);
        assertThat(outcome.report().text()).contains(" jit_warmup_intervals=" + warm.size() + " ");
    }

    @Test
    @DisplayName("a later run of the same JVM is not warmed again: no scratch fixture, and its report says the warm-up ran earlier, before which run")
    void laterRunsAreToldItRanEarlier() {
        JitWarmUp jvm = new JitWarmUp();
        lab("first", jvm).run(RecordingFixture::new);
        List<RecordingFixture> made = new ArrayList<>();
        LabRun.Reports second = lab("second", jvm).run(() -> {
            RecordingFixture f = new RecordingFixture();
            made.add(f);
            return f;
        });
        assertThat(made).hasSize(1);
        assertThat(second.report().jitWarmUp().inThisRun()).isFalse();
        assertThat(second.run().timeline().phase(Interval.JIT_WARMUP)).isEmpty();
        assertThat(second.report().text()).contains(" warmup=jit 0.1s at 200/s on a scratch fixture earlier in this JVM,"
                + " before test-module/first (20 requests) ");
    }

    @Test
    @DisplayName("of repeated runs only the first is warmed just before; the others say it ran earlier")
    void repetitionsAreWarmedOnce() {
        LabRun.Reports outcome = lab("repeated", new JitWarmUp()).repetitions(2).run(RecordingFixture::new);
        assertThat(outcome.repetitions().get(0).jitWarmUp().inThisRun()).isTrue();
        assertThat(outcome.repetitions().get(1).jitWarmUp().inThisRun()).isFalse();
    }

    @Test
    @DisplayName("-Dlab.jit.warmup=0s turns it off: no scratch fixture, and the settings line says warmup=none")
    void zeroTurnsItOff() {
        Properties p = new Properties();
        p.setProperty("lab.jit.warmup", "0s");
        List<RecordingFixture> made = new ArrayList<>();
        LabRun.Reports outcome = lab("cold", new JitWarmUp()).withOverrides(p).run(() -> {
            RecordingFixture f = new RecordingFixture();
            made.add(f);
            return f;
        });
        assertThat(made).hasSize(1);
        assertThat(outcome.report().jitWarmUp()).isNull();
        assertThat(outcome.report().text()).contains(" warmup=none (as in the book) ");
    }
}
