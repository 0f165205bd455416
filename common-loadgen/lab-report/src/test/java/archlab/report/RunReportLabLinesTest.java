package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.Arrival;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import archlab.loadgen.ThreadKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The lab's own lines: everything the book's two lines leave out. */
class RunReportLabLinesTest {

    private static RunReport report(LoadSpec spec) {
        return Samples.report(Samples.detailed(spec, List.of()));
    }

    private static List<String> labLines(LoadSpec spec) {
        return report(spec).labLines();
    }

    /** The same result with {@code n} warm-up requests. */
    private static RunResult withWarmupRequests(RunResult r, long n) {
        return r.toBuilder().warmupRequests(n).build();
    }

    private static String settingsLine(RunReport report) {
        return report.labLines().stream().filter(l -> l.startsWith("settings ")).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("the outcome line counts failed, rejected, pool_exhausted, not_started and unfinished")
    void outcomeLineCountsEveryOtherOutcome() {
        assertThat(labLines(LoadSpec.book()))
                .contains("failed=7 rejected=11 pool_exhausted=13 not_started=2 unfinished=3");
    }

    @Test
    @DisplayName("the latency line gives the HdrHistogram percentiles, max and mean in ms, the count and the overrun")
    void latencyLineHasHdrPercentilesInMillis() {
        assertThat(labLines(LoadSpec.book())).contains("latency hdr_p50=14.567ms hdr_p90=60.000ms hdr_p99=77.123ms"
                + " hdr_p999=80.999ms max=401.500ms mean=150.250ms n=89 max_overrun_past_deadline=4.321ms");
    }

    @Test
    @DisplayName("each operation has its own line: its outcomes, book percentiles and HdrHistogram percentiles")
    void eachOperationHasItsLine() {
        assertThat(labLines(LoadSpec.book()))
                .contains("op=create offered=40 completed=30 timed_out=5 failed=3 rejected=2 pool_exhausted=0"
                        + " book_p50=12ms book_p99=40ms hdr_p50=11.500ms hdr_p90=20.000ms hdr_p99=39.250ms"
                        + " hdr_p999=40.500ms max=401.500ms mean=150.250ms n=38")
                .contains("op=pay    offered=60 completed=41 timed_out=6 failed=4 rejected=9 pool_exhausted=13"
                        + " book_p50=22ms book_p99=80ms hdr_p50=21.500ms hdr_p90=50.000ms hdr_p99=79.250ms"
                        + " hdr_p999=80.500ms max=401.500ms mean=150.250ms n=51");
    }

    @Test
    @DisplayName("the send_lag line gives the generator's lateness in microseconds")
    void sendLagLineIsInMicros() {
        assertThat(labLines(LoadSpec.book()))
                .anySatisfy(l -> assertThat(l).startsWith("send_lag p50=12us p99=345us max=900us "));
    }

    @Test
    @DisplayName("failure causes are listed by exception class")
    void failureCausesAreListed() {
        assertThat(labLines(LoadSpec.book()))
                .contains("failure_causes DownstreamTimeoutException=11 IllegalStateException=7");
    }

    @Test
    @DisplayName("the money line and the integrity line print the ledger's evidence, n/a where not measured")
    void moneyAndIntegrityLines() {
        assertThat(labLines(LoadSpec.book()))
                .contains("money charges=5 distinct_orders_charged=5 paid_orders=4 charged_not_paid=1 double_charges=0")
                .contains("integrity charged_not_paid_after_reconcile=n/a paid_not_notified=n/a"
                        + " notified_more_than_once=n/a reservations_leaked=n/a");
    }

    @Test
    @DisplayName("measured integrity figures are printed as numbers")
    void measuredIntegrityFiguresArePrinted() {
        MoneyEvidence money = MoneyEvidence.builder().charges(5).distinctOrdersCharged(5).paidOrders(4)
                .chargedButNotPaid(1).chargedButNotPaidAfterReconcile(2).paidButNotNotified(3).notifiedMoreThanOnce(0)
                .reservationsLeaked(7).build().withAfterReconcile(0);
        RunReport report = RunReport.builder().module("m").name("n").environment(Samples.ENV)
                .run(Samples.detailed(LoadSpec.book(), List.of()))
                .downstream(Samples.downstream(1, 1, 1)).money(money).build();
        assertThat(report.labLines()).contains("integrity charged_not_paid_after_reconcile=0 paid_not_notified=3"
                + " notified_more_than_once=0 reservations_leaked=7");
    }

    @Test
    @DisplayName("the settings line of the book's load: rate, duration, timeout, arrival, threads, warm-up 'none (as in the book)', trace")
    void settingsLineOfTheBooksLoad() {
        assertThat(labLines(LoadSpec.book())).contains("settings rate=1500/s duration=3s timeout=200ms arrival=fixed"
                + " threads=virtual warmup=none (as in the book) trace=every request");
    }

    @Test
    @DisplayName("a changed load shows in the settings line: Poisson seed, platform threads, 1-in-N tracing")
    void settingsLineOfAChangedLoad() {
        LoadSpec spec = LoadSpec.book().withRate(200).withDuration(Duration.ofMillis(1500))
                .withTimeout(Duration.ofMillis(300)).withArrival(Arrival.poisson(7)).withThreads(ThreadKind.PLATFORM)
                .withTraceEvery(10);
        assertThat(settingsLine(report(spec))).isEqualTo("settings rate=200/s duration=1.500s timeout=300ms"
                + " arrival=poisson(seed=7) threads=platform warmup=none (as in the book) trace=1 in 10");
    }

    @Test
    @DisplayName("a warm-up shows its length and how many requests it excluded")
    void warmupShowsItsRequests() {
        LoadSpec spec = LoadSpec.book().withWarmup(Duration.ofSeconds(1));
        RunReport report = Samples.report(withWarmupRequests(Samples.detailed(spec, List.of()), 1500));
        assertThat(settingsLine(report)).contains(" warmup=1s (1500 requests, excluded) ");
    }

    @Test
    @DisplayName("tracing off shows as trace=off")
    void tracingOffShows() {
        assertThat(settingsLine(report(LoadSpec.book().withTraceEvery(0)))).endsWith(" trace=off");
    }

    @Test
    @DisplayName("a sub-millisecond timeout is printed with its fraction, never as 0ms")
    void subMillisecondTimeoutKeepsItsFraction() {
        assertThat(settingsLine(report(LoadSpec.book().withTimeout(Duration.ofNanos(500_000))))).contains(" timeout=0.5ms ");
    }

    @Test
    @DisplayName("the environment line names the JDK, the vendor, the cores, the OS, the heap, the time and the session")
    void environmentLine() {
        assertThat(labLines(LoadSpec.book())).contains("environment jdk=25.0.1+8-LTS vendor=Eclipse Adoptium cores=2"
                + " os=Linux 6.1 amd64 max_heap=2048MiB at=2026-01-02T03:04:05Z session=test-session");
    }

    @Test
    @DisplayName("chapter figures are printed as name=value, doubles with 4 decimals")
    void extraFiguresArePrinted() {
        RunReport report = RunReport.builder().module("m").name("n").environment(Samples.ENV)
                .run(Samples.detailed(LoadSpec.book(), List.of()))
                .downstream(Samples.downstream(1, 1, 1)).money(Samples.money(1, 0))
                .extra(List.of(new ReportLine("cache_hit_ratio", 0.5), new ReportLine("outbox_depth", 3L)))
                .build();
        assertThat(report.labLines()).contains("cache_hit_ratio=0.5000", "outbox_depth=3");
        assertThat(report.extraByName()).containsExactly(
                org.assertj.core.api.Assertions.entry("cache_hit_ratio", 0.5),
                org.assertj.core.api.Assertions.entry("outbox_depth", 3L));
    }

    @Test
    @DisplayName("a single run has no spread line")
    void singleRunHasNoSpreadLine() {
        assertThat(labLines(LoadSpec.book())).noneMatch(l -> l.startsWith("spread"));
    }

    @Test
    @DisplayName("the full text holds the lab lines under '--- lab lines ---'")
    void textHoldsTheLabLines() {
        RunReport report = report(LoadSpec.book());
        assertThat(report.text()).contains("--- lab lines ---\n" + String.join("\n", report.labLines()) + "\n");
    }
}
