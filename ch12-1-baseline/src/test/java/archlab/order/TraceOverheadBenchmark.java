package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.Downstream;
import archlab.request.Deadline;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.loadgen.RunResult;
import archlab.run.LabRun;
import archlab.report.ReportWriter;
import archlab.trace.RequestTrace;
import archlab.trace.SegmentTable;
import archlab.trace.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What measuring costs (the article's warning: monitoring on the hot path has its own price). Two
 * figures, printed and saved as {@code target/reports/trace-overhead.txt} (+ .json), never asserted
 * as timings:
 * <ol>
 *   <li>cost per request, ns: one thread calling {@code get} on an uncontended service, tracing off,
 *       on (every request) and sampled (1 in 10); the difference is the price of the segments;</li>
 *   <li>effect on p99: the book's load with tracing off, on and sampled.</li>
 * </ol>
 * Run: {@code mvn -pl ch12-1-baseline test -Dbench -Dtest=TraceOverheadBenchmark}.
 */
@EnabledIfSystemProperty(named = "bench", matches = ".*", disabledReason = "a benchmark: mvn test -Dbench")
class TraceOverheadBenchmark {

    private static final int OPS = 200_000;
    private static final int ROUNDS = 7;

    record CostRow(String mode, double nanosPerRequest, double overheadNanos) {
    }

    record LoadRow(String mode, int traceEvery, long completed, long timedOut, long bookP99Millis, double hdrP99Millis,
                   long tracedRequests) {
    }

    @Test
    @DisplayName("prints the per-request cost of segment tracing (off / on / 1 in 10) and its effect on the book load's p99")
    void traceOverhead() throws Exception {
        Downstream instant = Downstream.instant();
        OrderService service = new OrderService(instant.inventory(), instant.payments(), instant.notifier());
        String id = service.create(RequestContext.background(), "cust", List.of(new Item("sku-a", 1, 1999))).id();

        int[] modes = {0, 1, 10};
        for (int every : modes) { // warm-up: let the JIT compile all three paths before anything is timed
            nanosPerGet(service, id, every);
        }
        double[][] rounds = new double[modes.length][ROUNDS];
        for (int round = 0; round < ROUNDS; round++) { // interleaved, so a noisy moment hits every mode alike
            for (int m = 0; m < modes.length; m++) {
                rounds[m][round] = nanosPerGet(service, id, modes[m]);
            }
        }
        double off = median(rounds[0]);
        double on = median(rounds[1]);
        double sampled = median(rounds[2]);
        List<CostRow> costs = List.of(new CostRow("off", off, 0), new CostRow("on", on, on - off),
                new CostRow("1-in-10", sampled, sampled - off));

        List<LoadRow> loads = new ArrayList<>();
        for (int every : new int[] {0, 1, 10}) {
            LabRun.Reports o = LabRun.named("ch12-1-baseline", "trace-overhead-load-" + every).profiled(false)
                    .spec(archlab.loadgen.LoadSpec.book().withTraceEvery(every)).output(s -> { }).run(BookLab::new);
            RunResult r = o.run();
            assertThat(r.offered()).isEqualTo(r.spec().plannedRequests());
            loads.add(new LoadRow(every == 0 ? "off" : every == 1 ? "on" : "1-in-10", every, r.completed(), r.timedOut(),
                    r.latency().bookP99Millis(), r.latency().p99Micros() / 1e3, r.tracedRequests()));
        }

        StringBuilder text = new StringBuilder("segment tracing cost: get on an uncontended ch12-1 service, one thread, "
                + OPS + " requests × " + ROUNDS + " interleaved rounds, median, after a warm-up round\n");
        costs.forEach(c -> text.append(String.format(Locale.ROOT, "trace=%-8s ns_per_request=%.0f overhead_ns=%.0f%n",
                c.mode(), c.nanosPerRequest(), c.overheadNanos())));
        text.append("effect on the book's load (1,500 req/s, 3 s, profiles off):\n");
        loads.forEach(l -> text.append(String.format(Locale.ROOT,
                "trace=%-8s completed=%d timed_out=%d p99=%dms hdr_p99=%.3fms traced=%d%n",
                l.mode(), l.completed(), l.timedOut(), l.bookP99Millis(), l.hdrP99Millis(), l.tracedRequests())));
        System.out.print(text);
        Path dir = ReportWriter.reportsDir();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("trace-overhead.txt"), text);
        ReportWriter.writeJson(dir.resolve("trace-overhead.json"), java.util.Map.of("cost", costs, "load", loads));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** ns per get over one round, including what the runner does per traced request (create, finish, record). */
    private static double nanosPerGet(OrderService service, String id, int traceEvery) {
        NanoClock clock = NanoClock.SYSTEM;
        SegmentTable table = new SegmentTable();
        {
            long start = System.nanoTime();
            for (int i = 1; i <= OPS; i++) {
                long planned = clock.nanoTime();
                RequestTrace trace = traceEvery > 0 && i % traceEvery == 0 ? new RequestTrace(clock, planned) : null;
                if (trace != null) {
                    trace.begin(planned);
                }
                service.get(new RequestContext(i, planned, Deadline.NONE, clock, trace == null ? Trace.OFF : trace), id);
                if (trace != null) {
                    trace.finish(clock.nanoTime());
                    table.record("get", trace);
                }
            }
            return (System.nanoTime() - start) / (double) OPS;
        }
    }
}
