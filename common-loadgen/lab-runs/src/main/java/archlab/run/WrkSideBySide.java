package archlab.run;

import archlab.clock.NanoClock;
import archlab.http.HttpOrderTarget;
import archlab.http.OrderHttpServer;
import archlab.http.ServerThreads;
import archlab.http.Wrk;
import archlab.hyperfoil.HyperfoilBenchmark;
import archlab.hyperfoil.HyperfoilRun;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.ClosedLoopRunner;
import archlab.loadgen.LatencySummary;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.request.RequestOutcome;
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
 * (Tomcat's 200 platform threads), first the lab's open-loop runner at the book's load (1,500 req/s, {@code duration}, a
 * {@link #TIMEOUT} deadline), then the lab's closed loop ({@link ClosedLoopRunner}: {@code connections} workers, the book's mix
 * going on where the open loop stopped, the same duration and deadline), then wrk ({@link Wrk}: {@code -t8 -c<connections>},
 * the book's mix, the same duration and {@code X-Deadline-Ms}) when it is installed, then Hyperfoil in this JVM
 * ({@link HyperfoilBenchmark}: the book's mix as one open-model phase per operation after a warm-up of the same length
 * as the open loop's, the same rate, duration, timeout and connections as wrk). Writes {@code wrk.md}, {@code wrk.json}
 * and Hyperfoil's file {@code book-mix.hf.yaml} under the reports directory: one row per tool, requests/s, p50, p99, max
 * and the command line, every figure read from the run, parsed from wrk's output or taken from Hyperfoil's statistics.
 *
 * <p>They count differently, on purpose: the open-loop runner offers requests on a schedule and counts latency
 * from each one's planned start (a late request's wait counts); the closed loop and wrk send the next request only
 * when a connection's answer came (their latency starts when they send: coordinated omission). The open loop runs
 * {@link #WARM_UP} unmeasured first; the closed loops follow on the warm JVM. Not thread-safe.
 */
public final class WrkSideBySide {

    /** Unmeasured open-loop load before the open loop's measured run. */
    public static final Duration WARM_UP = Duration.ofSeconds(2);

    /**
     * Every row's deadline (and {@code X-Deadline-Ms}): wrk's {@code --timeout 2s}. The book's 200 ms would cap every
     * row's latencies near 200 ms, open or closed, and hide the wait the open loop counts and the closed loops omit.
     */
    public static final Duration TIMEOUT = Duration.ofSeconds(2);

    /**
     * What one side-by-side run measured.
     *
     * @param markdown the written {@code wrk.md}
     * @param open     the open loop's measured run
     * @param closed   the lab's closed loop
     * @param wrk      wrk's figures, empty when wrk is not installed
     * @param hyperfoil Hyperfoil's figures of its measured phases
     */
    public record Table(Path markdown, RunResult open, ClosedLoopRunner.ClosedLoopResult closed, Optional<Wrk.WrkResult> wrk,
                        HyperfoilRun.Figures hyperfoil) {
        /** @return requests the closed loop completed within their deadline, whole run */
        public long closedCompleted() {
            return closed.count(RequestOutcome.COMPLETED);
        }
    }

    private WrkSideBySide() {
    }

    /** What the four loads measured. */
    private record Loads(RunResult open, ClosedLoopRunner.ClosedLoopResult closed, Optional<Wrk.WrkResult> wrk,
                         HyperfoilBenchmark hyperfoilPlan, HyperfoilRun.Figures hyperfoil) {
    }

    /** The server the loads reach the fixture through, and its client: closed once the loads are over or failed. */
    private static final class Served implements FixtureRun.Around {
        private final OrderHttpServer server;
        private final HttpOrderTarget client;

        Served(OrderHttpServer server) {
            this.server = server;
            HttpOrderTarget c;
            try {
                c = new HttpOrderTarget(server.baseUri());
            } catch (RuntimeException | Error e) {
                server.close();
                throw e;
            }
            this.client = c;
        }

        @Override
        public void loaded() {
            try (server; client) {
                // closed: the client first, then the server
            }
        }

        @Override
        public void failed(Throwable failure) {
            try {
                loaded();
            } catch (RuntimeException | Error closeFailed) {
                failure.addSuppressed(closeFailed);
            }
        }
    }

    /** As {@link #run(Supplier, Duration, int, Path, Consumer)} with {@code -Dlab.loop.connections} (default 200). */
    public static Table run(Supplier<? extends LabFixture> fresh, Duration duration, Path reportsDir,
                            Consumer<String> out) throws IOException, InterruptedException {
        int connections = LabProperties.fromSystem().get(LabProperties.LOOP_CONNECTIONS)
                .orElse(LabProperties.DEFAULT_CONNECTIONS);
        return run(fresh, duration, connections, reportsDir, out);
    }

    /**
     * Runs the open loop, the closed loop and (when installed) wrk; without wrk a line on {@code out} says how to
     * get it and the table has no wrk row.
     *
     * @param connections the closed loop's and wrk's connections
     */
    public static Table run(Supplier<? extends LabFixture> fresh, Duration duration, int connections, Path reportsDir,
                            Consumer<String> out) throws IOException, InterruptedException {
        Optional<Path> wrk = Wrk.find();
        LabFixture fixture = fresh.get();
        if (!(fixture.workload() instanceof BookWorkload book)) {
            throw new IllegalArgumentException("wrk's side by side needs the book's workload, was " + fixture.workload());
        }
        // an unmeasured warm-up first, so that the JIT does not decide the open loop's figures
        LoadSpec spec = LoadSpec.book().withDuration(duration).withTimeout(TIMEOUT).withTraceEvery(0)
                .withWarmup(WARM_UP);
        List<String> serverLines = new ArrayList<>();
        Loads loads;
        List<String> preCreated = List.copyOf(book.pool()); // before the loops: their pays may take orders they created
        try (fixture) {
            // the server serves the fixture from before its beforeRun to after the loads, and stops before its afterRun
            Served served = new Served(OrderHttpServer.start(book.target(), ServerThreads.PLATFORM));
            HttpOrderTarget client = served.client;
            OrderHttpServer server = served.server;
            loads = FixtureRun.between(fixture, served, workload -> {
                BookWorkload overHttp = book.via(client);
                RunResult open = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.DEFAULT).run(spec, overHttp);
                serverLines.add("server after the open loop: " + server.serverLine());
                ClosedLoopRunner.ClosedLoopResult closed = new ClosedLoopRunner(NanoClock.SYSTEM).run(overHttp, connections, duration,
                        spec.timeout(), (long) spec.warmupRequests() + spec.plannedRequests(), spec.threads());
                serverLines.add("server after the closed loop: " + server.serverLine());
                Optional<Wrk.WrkResult> byWrk = Optional.empty();
                if (wrk.isPresent()) {
                    // fresh orders for wrk's pays, created over the wire before it starts: the pre-created pool was paid
                    // by the loops before it, and a pay of a paid order is a 409, not the work the other rows did
                    byWrk = Optional.of(Wrk.run(wrk.get(), server.baseUri(), freshOrders(client, preCreated.size()),
                            duration, spec.timeout().toMillis(), connections));
                    serverLines.add("server after wrk: " + server.serverLine());
                } else {
                    out.accept("wrk: not installed, no wrk row; install it with " + Wrk.INSTALL);
                }
                // Hyperfoil's gets read the book's pool; its pays take orders its creates made, these fresh ones when none waits
                HyperfoilBenchmark hf = HyperfoilBenchmark.builder().base(server.baseUri()).ratePerSecond(spec.ratePerSecond())
                        .warmUp(WARM_UP).duration(duration).timeout(spec.timeout()).connections(connections)
                        .getIds(preCreated).payIds(freshOrders(client, preCreated.size())).build();
                Files.createDirectories(reportsDir);
                Files.writeString(reportsDir.resolve(hf.name() + ".hf.yaml"), hf.yaml());
                HyperfoilRun.Figures byHyperfoil = HyperfoilRun.run(hf);
                serverLines.add("server after Hyperfoil: " + server.serverLine());
                return new Loads(open, closed, byWrk, hf, byHyperfoil);
            });
        } catch (IOException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("the loads throw no other checked exception", e);
        }
        RunResult open = loads.open();
        ClosedLoopRunner.ClosedLoopResult closed = loads.closed();
        Optional<Wrk.WrkResult> byWrk = loads.wrk();
        LatencySummary l = open.latency();
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(row("open-loop runner", open.completedPerSecond(), l.p50Micros() / 1e3, l.p99Micros() / 1e3,
                l.maxMicros() / 1e3, String.format(Locale.ROOT,
                        "offered=%d completed=%d timed_out=%d failed=%d rejected=%d send_lag_p99=%.2fms", open.offered(),
                        open.completed(), open.timedOut(), open.failed(), open.rejected(), open.sendLag().p99Micros() / 1e3),
                String.format(Locale.ROOT, "%s: %d req/s for %.1fs after %ds unmeasured, timeout %d ms, the book's mix",
                        OpenLoopRunner.class.getName(), spec.ratePerSecond(), duration.toMillis() / 1e3, WARM_UP.toSeconds(),
                        spec.timeout().toMillis())));
        // the open loop's own lateness: how far its figures are the generator's and not the server's
        rows.get(0).put("send_lag_p99_ms", Math.round(open.sendLag().p99Micros() / 10.0) / 100.0);
        LatencySummary c = closed.latency();
        rows.add(row("lab closed loop", closed.completedPerSecond(), c.p50Micros() / 1e3, c.p99Micros() / 1e3,
                c.maxMicros() / 1e3, String.format(Locale.ROOT,
                        "answered=%d completed=%d timed_out=%d failed=%d rejected=%d pool_exhausted=%d", closed.answered(),
                        closed.count(RequestOutcome.COMPLETED), closed.count(RequestOutcome.TIMED_OUT), closed.count(RequestOutcome.FAILED),
                        closed.count(RequestOutcome.REJECTED), closed.count(RequestOutcome.POOL_EXHAUSTED)),
                String.format(Locale.ROOT, "%s: %d connections for %.1fs, timeout %d ms from"
                        + " each send, the book's mix (-Dlab.loop.connections=%d)", ClosedLoopRunner.class.getName(), connections, duration.toMillis() / 1e3,
                        spec.timeout().toMillis(), connections)));
        byWrk.ifPresent(w -> rows.add(row("wrk (closed loop)", w.requestsPerSecond(), w.latency().p50Millis(),
                w.latency().p99Millis(), w.latency().maxMillis(), String.format(Locale.ROOT,
                        "requests=%d non_2xx=%d socket_errors=%d", w.counts().requests(), w.counts().non2xx(),
                        w.counts().socketErrors()), w.commandLine())));
        HyperfoilRun.Figures hf = loads.hyperfoil();
        rows.add(row("Hyperfoil (open model)", hf.inTimePerSecond(), hf.latencyMillis(50), hf.latencyMillis(99),
                hf.maxMillis(), String.format(Locale.ROOT, "requests=%d responses=%d in_time=%d 2xx=%d 4xx=%d 5xx=%d"
                                + " timeouts=%d connection_errors=%d blocked_ms=%d", hf.answers().requests(),
                        hf.answers().responses(), hf.answeredInTime(),
                        hf.answers().status2xx(), hf.answers().status4xx(), hf.answers().status5xx(), hf.lost().timeouts(),
                        hf.lost().connectionErrors(), hf.lost().blockedMillis()), loads.hyperfoilPlan().describe()));
        Files.createDirectories(reportsDir);
        Path md = reportsDir.resolve("wrk.md");
        Files.writeString(md, markdown(rows, serverLines) + beside(open, hf));
        Map<String, Object> json = new LinkedHashMap<>();
        // which machine and Maven session wrote it: the book copies one session's reports only
        json.put("environment", archlab.report.Environment.current());
        json.put("rows", rows);
        json.put("server", serverLines);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(reportsDir.resolve("wrk.json").toFile(), json);
        out.accept(Files.readString(md));
        return new Table(md, open, closed, byWrk, hf);
    }
    /**
     * Where the two open models disagree on the same server. Both count from each request's start on schedule; the
     * lab's runner gives a request up at its deadline, Hyperfoil only once it was sent: a request waiting for one of
     * its connections waits on, and is answered late instead of timed out.
     */
    private static String beside(RunResult open, HyperfoilRun.Figures hf) {
        double openP99 = open.latency().p99Micros() / 1e3;
        double hfP99 = hf.latencyMillis(99);
        long late = hf.answers().responses() - hf.answeredInTime();
        return String.format(Locale.ROOT, "%nOpen loop beside Hyperfoil: p99 %.2f ms against %.2f ms (Hyperfoil's %s the"
                        + " open loop's). Both count from each request's start on schedule; the open loop gave up %d"
                        + " requests at their %d ms deadline, Hyperfoil starts its timeout only when a request is sent: its"
                        + " requests waited %.1f ms on average for one of its connections, and %d of its %d responses came"
                        + " after the deadline (answered late, not timed out). The open loop's own send lag p99 was %.2f ms"
                        + " (its generator's lateness, in its figures).%n", openP99, hfP99,
                openP99 > 0 ? String.format(Locale.ROOT, "%.2f×", hfP99 / openP99) : "beside nothing of",
                open.timedOut(), hf.deadline().toMillis(),
                hf.answers().requests() == 0 ? 0.0 : (double) hf.lost().blockedMillis() / hf.answers().requests(), late,
                hf.answers().responses(), open.sendLag().p99Micros() / 1e3);
    }

    /** Creates {@code n} orders through {@code client}, unmeasured, each with a generous deadline; returns their ids. */
    private static List<String> freshOrders(HttpOrderTarget client, int n) throws IOException {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            try {
                ids.add(client.create(archlab.request.RequestContext.withTimeout(NanoClock.SYSTEM, FRESH_ORDER_DEADLINE)));
            } catch (Exception e) {
                throw new IOException("could not create wrk's orders (" + ids.size() + " of " + n + " made)", e);
            }
        }
        return ids;
    }

    /** The deadline of each order created for wrk before it runs. */
    private static final Duration FRESH_ORDER_DEADLINE = Duration.ofSeconds(5);

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

    private static String markdown(List<Map<String, Object>> rows, List<String> serverLines) {
        StringBuilder b = new StringBuilder("# Open loop beside closed loop (the lab's, wrk) and Hyperfoil, one server\n\n")
                .append("| tool | requests/s | p50 | p99 | max | counts | command |\n|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s ms | %s ms | %s ms | %s | `%s` |%n", r.get("tool"),
                    r.get("requests_per_second"), r.get("p50_ms"), r.get("p99_ms"), r.get("max_ms"), r.get("counts"),
                    r.get("command")));
        }
        b.append("\nThe lab's requests/s count completed requests (within the deadline); the open loop's latency starts at"
                + " each request's planned start, the closed loop's when it sends, after the previous answer on its"
                + " connection. wrk's requests/s count every answer (any status); its latency starts when it sends."
                + " Hyperfoil's requests/s count the responses of its measured phases within the deadline (any status);"
                + " its latency starts on schedule, as the open loop's, and includes any wait for one of its connections"
                + " (blocked_ms, summed).\n");
        b.append("\nThe server's lines count from its start: each one covers the rows above it.\n");
        serverLines.forEach(line -> b.append("\n").append(line).append("\n"));
        return b.toString();
    }
}
