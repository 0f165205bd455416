package archlab.loadgen;

import archlab.request.RequestContext;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.ReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A benchmark of the runner itself, not a timed test: how fast can it offer requests and still start
 * each one within 1 ms of its plan? Against a no-op task, at rising rates, virtual threads, tracing off.
 * It prints a table and writes {@code target/reports/runner-capacity.txt} (+ .json); it asserts only
 * what holds on any machine (every planned request offered and started).
 *
 * <p>The trap in judging a rate by one run: on a shared 2-core machine a single 1 s run flaps over 1 ms now and then
 * (a JIT compilation, another process), and one flap used to decide the whole table ("every lower rate passing:
 * none"). Each rate runs {@value #ATTEMPTS} times and is judged by its median attempt; a median attempt over the
 * target while the machine itself stalled longer (the hiccup probe's p99 over the target) is <em>not judged</em>
 * rather than failed, and does not break the run of passing rates below the sustained rate.
 *
 * <p>Run: {@code mvn -pl common-loadgen/lab-runs test -Dbench -Dtest=RunnerCapacityBenchmark}.
 * Target on the lab's 2-core machine: ≥ 100,000 req/s with send-lag p99 ≤ 1 ms.
 */
@EnabledIfSystemProperty(named = "bench", matches = ".*", disabledReason = "a benchmark: mvn test -Dbench")
class RunnerCapacityBenchmark {

    private static final int[] RATES = {10_000, 25_000, 50_000, 75_000, 100_000, 150_000, 200_000, 300_000};
    private static final long LAG_TARGET_MICROS = 1_000;
    private static final int ATTEMPTS = 3;

    /** How one rate was judged. */
    enum RateVerdict { PASS, FAIL, NOT_JUDGED }

    record Row(int rate, long offered, long started, long sendLagP50Micros, long sendLagP99Micros, double sendLagMaxMicros,
               double wallSeconds, long hiccupP99Micros, List<Long> attemptSendLagP99Micros, RateVerdict verdict) {
    }

    @Test
    @DisplayName("the runner offers and starts every planned request at every rate; prints the highest rate with send-lag p99 ≤ 1 ms")
    void capacity() throws Exception {
        Workload noop = new Workload() {
            @Override
            public String operationOf(long sequence) {
                return "noop";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) {
            }
        };
        OpenLoopRunner runner = new OpenLoopRunner();
        // warm the JIT on the runner's own paths first (the first run of a JVM starts late: 1.07 ms against
        // 0.22–0.41 ms in the next three, measured at 1,500 req/s); excluded from the table
        runner.run(spec(20_000, Duration.ofSeconds(3)), noop);

        List<Row> rows = new ArrayList<>();
        int best = 0;
        int sustained = 0;
        boolean allBelowPassed = true;
        for (int rate : RATES) {
            // ATTEMPTS runs per rate; the row is the run with the median send-lag p99 (a noisy machine's spread)
            List<RunResult> runs = new ArrayList<>();
            for (int i = 0; i < ATTEMPTS; i++) {
                RunResult one = runner.run(spec(rate, Duration.ofSeconds(1)), noop);
                assertThat(one.offered()).isEqualTo(one.spec().plannedRequests());
                assertThat(one.started()).isEqualTo(one.offered());
                runs.add(one);
            }
            runs.sort(java.util.Comparator.comparingLong(x -> x.sendLag().p99Micros()));
            RunResult r = runs.get((runs.size() - 1) / 2);
            RateVerdict v = r.sendLag().p99Micros() <= LAG_TARGET_MICROS ? RateVerdict.PASS
                    : r.hiccups().p99Micros() > LAG_TARGET_MICROS ? RateVerdict.NOT_JUDGED : RateVerdict.FAIL;
            Row row = new Row(rate, r.offered(), r.started(), r.sendLag().p50Micros(), r.sendLag().p99Micros(),
                    r.sendLag().maxMicros(), r.wallNanos() / 1e9, r.hiccups().p99Micros(),
                    runs.stream().map(x -> x.sendLag().p99Micros()).toList(), v);
            rows.add(row);
            System.out.println(line(row));
            if (v == RateVerdict.PASS) {
                best = rate;
            }
            allBelowPassed &= v != RateVerdict.FAIL;
            if (allBelowPassed && v == RateVerdict.PASS) {
                sustained = rate;
            }
        }
        long notJudged = rows.stream().filter(x -> x.verdict() == RateVerdict.NOT_JUDGED).count();
        String verdict = String.format(Locale.ROOT,
                "highest rate with median send-lag p99 <= 1 ms: %s; highest with no lower rate failing: %s"
                        + " (%d rate(s) not judged: the machine stalled longer than the target)"
                        + " (target >= 100,000 req/s; %d cores, JDK %s)",
                best == 0 ? "none of the rates tried" : String.format(Locale.ROOT, "%,d req/s", best),
                sustained == 0 ? "none" : String.format(Locale.ROOT, "%,d req/s", sustained), notJudged,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        System.out.println(verdict);
        Path dir = ReportWriter.reportsDir();
        Files.createDirectories(dir);
        StringBuilder text = new StringBuilder("runner capacity: no-op task, virtual threads, tracing off, " + ATTEMPTS
                + " runs of 1 s per rate (median run shown; not judged = over the target while the machine's hiccup p99 was too)\n");
        rows.forEach(r -> text.append(line(r)).append('\n'));
        text.append(verdict).append('\n');
        Files.writeString(dir.resolve("runner-capacity.txt"), text);
        ReportWriter.writeJson(dir.resolve("runner-capacity.json"), rows);
    }

    private static String line(Row r) {
        return String.format(Locale.ROOT, "rate=%d offered=%d started=%d send_lag_p50=%dus send_lag_p99=%dus send_lag_max=%.0fus"
                        + " hiccup_p99=%dus wall=%.3fs attempts_send_lag_p99_us=%s verdict=%s",
                r.rate(), r.offered(), r.started(), r.sendLagP50Micros(), r.sendLagP99Micros(), r.sendLagMaxMicros(),
                r.hiccupP99Micros(), r.wallSeconds(), r.attemptSendLagP99Micros(), r.verdict().name().toLowerCase(Locale.ROOT));
    }

    private static LoadSpec spec(int rate, Duration duration) {
        return LoadSpec.book().withRate(rate).withDuration(duration).withTraceEvery(0).withThreads(ThreadKind.VIRTUAL);
    }
}
