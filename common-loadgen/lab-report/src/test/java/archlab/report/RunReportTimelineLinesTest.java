package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import archlab.timeline.HiccupSummary;
import archlab.timeline.Interval;
import archlab.timeline.RunTimeline;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The report's time axis: the {@code hiccup} line beside {@code send_lag}, the {@code timeline} line, and a warm-up the
 * settings line states as it was. Hand-made results: every figure chosen, nothing measured.
 */
class RunReportTimelineLinesTest {

    private static final String HICCUP_LINE = "hiccup p50=45us p99=310us max=3100us (how late a thread asking to wake"
            + " every 1000us woke: the machine's own stalls, time-weighted)";

    private static RunReport report(RunResult run, WarmUp warmUp) {
        return RunReport.builder().module("ch12-1-baseline").name("baseline").environment(Samples.ENV).run(run)
                .downstream(Samples.downstream(10, 5, 4)).money(Samples.money(5, 1))
                .jitWarmUp(warmUp).build();
    }

    private static RunResult detailed(LoadSpec spec) {
        return Samples.detailed(spec, List.of());
    }

    private static String line(RunReport report, String prefix) {
        return report.labLines().stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("the hiccup line gives the probe's p50, p99 and max in µs and its period, right after the send_lag line")
    void hiccupLineFollowsSendLag() {
        List<String> lines = report(detailed(LoadSpec.book()), null).labLines();
        int sendLag = lines.indexOf(line(report(detailed(LoadSpec.book()), null), "send_lag "));
        assertThat(lines.get(sendLag + 1)).isEqualTo(HICCUP_LINE);
    }

    @Test
    @DisplayName("a run without a probe says so on its hiccup line, never a 0 that looks measured")
    void noProbeSaysSo() {
        RunReport r = report(Samples.withHiccups(detailed(LoadSpec.book()), HiccupSummary.NONE), null);
        assertThat(line(r, "hiccup ")).isEqualTo("hiccup not measured (no probe ran during this run)");
    }

    @Test
    @DisplayName("the timeline line follows the hiccup line and names the interval log beside the report, <name>.hlog")
    void timelineLineNamesTheLog() {
        RunTimeline t = new RunTimeline(Duration.ofMillis(100), Duration.ofMillis(1), List.of(
                Interval.builder().phase(Interval.RUN).lengthMillis(100).offered(150).started(150).completed(150)
                        .latencyMicros(2_000, 4_000, 4_100).sendLagP99Micros(40).hiccupMaxMicros(200).build(),
                Interval.builder().phase(Interval.RUN).startMillis(100).lengthMillis(100).offered(150).started(150)
                        .completed(148).timedOut(2).latencyMicros(2_500, 9_000, 9_100).sendLagP99Micros(45)
                        .hiccupMaxMicros(1_200).build()), 0, 0,
                List.of());
        RunReport r = report(detailed(LoadSpec.book()).withTimeline(t), null);
        List<String> lines = r.labLines();
        assertThat(lines.get(lines.indexOf(HICCUP_LINE) + 1)).isEqualTo("timeline interval=100ms run_intervals=2"
                + " goodput_per_s min/median/max=1480/1480/1500 p99_ms min/median/max=4.000/4.000/9.000"
                + " worst_p99=9.000ms@0.1s hiccup_max=1.200ms@0.1s log=baseline.hlog");
    }

    @Test
    @DisplayName("a result without a timeline says 'timeline not recorded'")
    void noTimelineSaysSo() {
        assertThat(report(detailed(LoadSpec.book()), null).labLines()).contains("timeline not recorded");
    }

    @Test
    @DisplayName("a JIT warm-up just before the run is stated in the settings line: what, how long, at which rate, how many requests — not warmup=none")
    void jitWarmUpInThisRun() {
        WarmUp w = new WarmUp(Duration.ofSeconds(3), 1_500, 4_500, "ch12-1-baseline/baseline", true, RunTimeline.NONE);
        assertThat(line(report(detailed(LoadSpec.book()), w), "settings ")).contains(" warmup=jit 3s at 1500/s on a"
                + " scratch fixture just before this run (4500 requests, excluded) trace=");
    }

    @Test
    @DisplayName("a later run of the same JVM says its JIT warm-up ran earlier, before which run")
    void jitWarmUpEarlier() {
        WarmUp w = new WarmUp(Duration.ofSeconds(3), 1_500, 4_500, "ch12-2-cache-outbox-ratelimit/baseline", false,
                RunTimeline.NONE);
        assertThat(line(report(detailed(LoadSpec.book()), w), "settings ")).contains(" warmup=jit 3s at 1500/s on a"
                + " scratch fixture earlier in this JVM, before ch12-2-cache-outbox-ratelimit/baseline (4500 requests) trace=");
    }

    @Test
    @DisplayName("a JIT warm-up and the runner's own warm-up are both stated, in the order they ran")
    void bothWarmUps() {
        WarmUp w = new WarmUp(Duration.ofMillis(1500), 1_500, 2_250, "m/n", true, RunTimeline.NONE);
        RunResult withRunnerWarmUp = detailed(LoadSpec.book().withWarmup(Duration.ofSeconds(1)));
        RunResult r = withRunnerWarmUp.toBuilder().warmupRequests(1_500).build();
        assertThat(line(report(r, w), "settings ")).contains(" warmup=jit 1.5s at 1500/s on a scratch fixture just"
                + " before this run (2250 requests, excluded); then 1s (1500 requests, excluded) on this run's fixture trace=");
    }

    @Test
    @DisplayName("the spread of repeated runs has a hiccup_p99_us row, so a reader sees which runs the machine disturbed")
    void spreadHasHiccups() {
        RunReport r = report(detailed(LoadSpec.book()), null);
        assertThat(Spread.of(List.of(r, r)).render()).contains(" hiccup_p99_us=310/310/310 ");
    }
}
