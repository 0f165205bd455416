package archlab.run;

import archlab.clock.NanoClock;
import archlab.http.HttpOrderTarget;
import archlab.http.OrderHttpServer;
import archlab.http.ServerThreads;
import archlab.http.Wrk;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.LatencySummary;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.timeline.TimelineSettings;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Open loop beside closed loop, against the same server: one fresh fixture served by one {@link OrderHttpServer}
 * (Tomcat's 200 platform threads), first the lab's open-loop runner at the book's load (1,500 req/s, 200 ms deadline,
 * {@code duration}), then wrk ({@link Wrk}: {@code -t8 -c200}, the book's mix, the same duration and the same
 * {@code X-Deadline-Ms}). Writes {@code wrk.md} and {@code wrk.json} under the reports directory: one row per tool,
 * requests/s, p50, p99, max and the command line, every figure read from the run or parsed from wrk's output.
 *
 * <p>The two count differently, on purpose: the open-loop runner offers requests on a schedule and counts latency
 * from each one's planned start (a late request's wait counts); wrk sends the next request only when a connection's
 * answer came (its latency starts when it sends: coordinated omission). The open loop runs {@link #WARM_UP} unmeasured
 * first; wrk follows on the warm JVM. Not thread-safe.
 */
public final class WrkSideBySide {

    /** Unmeasured open-loop load before the open loop's measured run. */
    public static final Duration WARM_UP = Duration.ofSeconds(2);

    private WrkSideBySide() {
    }

    /**
     * @return the written {@code wrk.md}, or empty when wrk is not installed (a line on {@code out} says how to get it)
     */
    public static Optional<Path> run(Supplier<? extends LabFixture> fresh, Duration duration, Path reportsDir,
                                     Consumer<String> out) throws IOException, InterruptedException {
        Optional<Path> wrk = Wrk.find();
        if (wrk.isEmpty()) {
            out.accept("wrk: not installed, skipped the closed-loop run; install it with " + Wrk.INSTALL);
            return Optional.empty();
        }
        LabFixture fixture = fresh.get();
        if (!(fixture.workload() instanceof BookWorkload book)) {
            throw new IllegalArgumentException("wrk's side by side needs the book's workload, was " + fixture.workload());
        }
        // an unmeasured warm-up first, so that the JIT does not decide the open loop's figures (wrk then runs on a warm JVM)
        LoadSpec spec = LoadSpec.book().withDuration(duration).withTraceEvery(0).withWarmup(WARM_UP);
        RunResult open;
        Wrk.Result closed;
        String serverAfterOpen;
        String serverAfterBoth;
        try (OrderHttpServer server = OrderHttpServer.start(book.target(), ServerThreads.PLATFORM);
             HttpOrderTarget client = new HttpOrderTarget(server.baseUri())) {
            fixture.beforeRun();
            open = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.DEFAULT).run(spec, book.via(client));
            serverAfterOpen = server.serverLine();
            closed = Wrk.run(wrk.get(), server.baseUri(), book.pool(), duration, spec.timeout().toMillis());
            serverAfterBoth = server.serverLine();
        } finally {
            fixture.afterRun();
        }
        LatencySummary l = open.latency();
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(row("open-loop runner", open.completedPerSecond(), l.p50Micros() / 1e3, l.p99Micros() / 1e3,
                l.maxMicros() / 1e3, String.format(Locale.ROOT,
                        "offered=%d completed=%d timed_out=%d failed=%d rejected=%d", open.offered(), open.completed(),
                        open.timedOut(), open.failed(), open.rejected()),
                String.format(Locale.ROOT, "archlab.loadgen.OpenLoopRunner: %d req/s for %.1fs after %ds unmeasured, timeout %d ms, the book's mix",
                        spec.ratePerSecond(), duration.toMillis() / 1e3, WARM_UP.toSeconds(), spec.timeout().toMillis())));
        Wrk.Counts c = closed.counts();
        rows.add(row("wrk (closed loop)", closed.requestsPerSecond(), closed.latency().p50Millis(),
                closed.latency().p99Millis(), closed.latency().maxMillis(), String.format(Locale.ROOT,
                        "requests=%d non_2xx=%d socket_errors=%d", c.requests(), c.non2xx(), c.socketErrors()),
                closed.commandLine()));
        Files.createDirectories(reportsDir);
        Path md = reportsDir.resolve("wrk.md");
        Files.writeString(md, markdown(rows, serverAfterOpen, serverAfterBoth));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("rows", rows);
        json.put("server_after_open_loop", serverAfterOpen);
        json.put("server_after_both", serverAfterBoth);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(reportsDir.resolve("wrk.json").toFile(), json);
        out.accept(Files.readString(md));
        return Optional.of(md);
    }

    private static Map<String, Object> row(String tool, double rps, double p50, double p99, double max, String counts,
                                           String command) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tool", tool);
        r.put("requests_per_second", Math.round(rps * 10) / 10.0);
        r.put("p50_ms", Math.round(p50 * 100) / 100.0);
        r.put("p99_ms", Math.round(p99 * 100) / 100.0);
        r.put("max_ms", Math.round(max * 100) / 100.0);
        r.put("counts", counts);
        r.put("command", command);
        return r;
    }

    private static String markdown(List<Map<String, Object>> rows, String serverAfterOpen, String serverAfterBoth) {
        StringBuilder b = new StringBuilder("# Open loop beside closed loop (wrk), one server\n\n")
                .append("| tool | requests/s | p50 | p99 | max | counts | command |\n|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s ms | %s ms | %s ms | %s | `%s` |%n", r.get("tool"),
                    r.get("requests_per_second"), r.get("p50_ms"), r.get("p99_ms"), r.get("max_ms"), r.get("counts"),
                    r.get("command")));
        }
        return b.append("\nThe open-loop runner's requests/s counts completed requests (within the deadline) and its latency"
                        + " starts at each request's planned start; wrk's counts every answer (any status) and starts when it"
                        + " sends, after the previous answer on its connection.\n\n")
                .append("server after the open loop: ").append(serverAfterOpen).append("\n\n")
                .append("server after both: ").append(serverAfterBoth).append("\n").toString();
    }
}
