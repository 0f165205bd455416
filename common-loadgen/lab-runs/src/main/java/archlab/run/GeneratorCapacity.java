package archlab.run;

import archlab.clock.NanoClock;
import archlab.http.HttpOrderTarget;
import archlab.http.OrderHttpServer;
import archlab.http.ServerThreads;
import archlab.http.Wrk;
import archlab.http.wire.WireOpenLoop;
import archlab.http.wire.WireRequest;
import archlab.http.wire.WireRun;
import archlab.http.wire.WireWorkload;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.OrderTarget;
import archlab.loadgen.RunResult;
import archlab.loadgen.Workload;
import archlab.request.RequestContext;
import archlab.timeline.TimelineSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The generator against the peer: how many requests per second the lab's open-loop generators can offer over HTTP on
 * this machine before they stop being on time, beside the most wrk gets through, all against the same server's
 * {@code GET /noop} (Tomcat answers 204, no service is called), in one run.
 *
 * <p>The trap it exposes: a load generator has a ceiling of its own. Above it an open-loop generator starts requests
 * late (its send lag grows) and what it reports is partly its own queue. Two generators are probed, wrong beside right:
 * <ul>
 *   <li><b>thread per request</b> — the {@link OpenLoopRunner} with the JDK's {@code HttpClient} ({@link HttpOrderTarget}),
 *       a virtual thread and a request builder per request: the client of the checkpoints' {@code -Dlab.transport=http}
 *       runs;</li>
 *   <li><b>event loops</b> — {@link WireOpenLoop}: Netty event loops ({@value #LANES}, as many as wrk's threads),
 *       requests encoded before the run, keep-alive connections: the generator the {@code ratio} is about.</li>
 * </ul>
 * A generator's capacity is the highest probed rate at which every request started ({@code started = offered}), the
 * send lag's p99 stayed under {@link #SEND_LAG_BOUND} and every request was answered within {@link #TIMEOUT}. The probes
 * double from {@link #FIRST_RATE} until one fails, then halve the gap {@link #BISECTIONS} times; a rate that fails is
 * probed up to {@link #TRIES} times before it counts as failed (one stall of a shared machine is not the generator).
 * Each probe says the JVM's GC pauses inside it (the server, the generators and their collector share this JVM). How busy
 * the machine already was before the probes ({@link #IDLE_SAMPLE}) is printed first: other work on the cores lowers every
 * figure, and past {@link #BUSY_BEFORE_PERCENT} the ratio is not judged. wrk is closed loop ({@code -t2 -c64},
 * {@link #WRK_DURATION}): it never falls behind a schedule, it sends the next request when an answer came, so its figure
 * is what the server and the shared cores let through. All share the 2 cores with the server: each phase's CPU use is
 * printed ({@code /proc/stat}, Linux only) with this JVM's own; the event loops' own CPU and allocation per request are
 * measured on their threads.
 *
 * <p>Not thread-safe; one run at a time (it is a load run).
 */
public final class GeneratorCapacity {

    /** The bar for "on time": the send lag's p99. */
    public static final Duration SEND_LAG_BOUND = Duration.ofMillis(1);
    /** Every probe's request deadline. */
    public static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** One probe's measured length. */
    public static final Duration PROBE = Duration.ofSeconds(1);
    /** The first probed rate, requests per second. */
    public static final int FIRST_RATE = 250;
    /** The highest rate probed: past it the answer is "at least". */
    public static final int LAST_RATE = 128_000;
    /** The event-loop generator's loops: as many as wrk's threads. */
    public static final int LANES = 2;
    /** Halvings of the gap between the last rate that held and the first that did not. */
    public static final int BISECTIONS = 3;
    /** How often a failing rate is probed before it counts as failed. */
    public static final int TRIES = 3;
    /**
     * The rate of the event loops' unmeasured load before their probes: high enough that the JIT compiles the paths a
     * fast probe takes (at 1,000 req/s the compiler was still at work during the fastest probes).
     */
    public static final int WARM_UP_RATE = 8_000;
    /** Unmeasured load before the event loops' probes, so that the JIT does not decide the first ones. */
    public static final Duration WARM_UP = Duration.ofSeconds(3);
    /**
     * The thread-per-request generator's warm-up rate: one it keeps up with (at {@link #WARM_UP_RATE} it falls behind,
     * and its late requests open a connection each until the process runs out of file descriptors).
     */
    public static final int THREAD_PER_REQUEST_WARM_UP_RATE = 1_000;
    /** How long the JIT compiler must have compiled nothing before the probes start. */
    public static final Duration COMPILER_QUIET = Duration.ofMillis(500);
    /** The longest wait for the compiler to go quiet. */
    public static final Duration COMPILER_SETTLE_MAX = Duration.ofSeconds(5);
    /** How long the machine's own load is sampled before anything runs. */
    public static final Duration IDLE_SAMPLE = Duration.ofMillis(500);
    /** Other processes' CPU use before the probes above which the figures are their work as much as the tools'. */
    public static final double BUSY_BEFORE_PERCENT = 50;
    /** wrk's run. */
    public static final Duration WRK_DURATION = Duration.ofSeconds(3);
    /** wrk's connections and threads. */
    public static final int WRK_CONNECTIONS = 64;
    public static final int WRK_THREADS = 2;
    /** The event-loop generator's series name. */
    public static final String EVENT_LOOPS = "event loops";
    /** The thread-per-request generator's series name. */
    public static final String THREAD_PER_REQUEST = "thread per request";

    /**
     * How one probe's requests went.
     *
     * @param offered   requests planned
     * @param started   requests started
     * @param completed answered 2xx within the deadline
     */
    public record Requests(long offered, long started, long completed) {
    }

    /**
     * One probe of a generator.
     *
     * @param ratePerSecond offered rate
     * @param requests      what was planned, started and answered
     * @param p99           the send lag's and the latency's p99
     * @param spent         what the machine, the JVM and the generator spent
     * @param why           what failed first, or {@value #ON_TIME}
     */
    public record Probe(int ratePerSecond, Requests requests, P99 p99, Spent spent, String why) {
        /** @return whether every request started on time and was answered */
        @com.fasterxml.jackson.annotation.JsonProperty("holds")
        public boolean holds() {
            return ON_TIME.equals(why);
        }
    }

    /**
     * @param sendLagMicros the generator's lateness, p99
     * @param latencyMicros from planned start to answer, p99
     */
    public record P99(long sendLagMicros, long latencyMicros) {
    }

    /**
     * @param cpu           the machine's and this JVM's CPU use during the probe
     * @param gcPauseMillis the JVM's stop-the-world collection time during the probe (server and generator: one JVM)
     * @param generator     what the event loops spent; null for the thread-per-request generator (its cost is spread
     *                      over a thread per request and the JDK client's own threads)
     */
    public record Spent(MachineCpu.Use cpu, long gcPauseMillis, Generator generator) {
    }

    /**
     * What the event loops spent in one probe (the server's threads are in the same JVM and not in it).
     *
     * @param cpuPercentOfOneCore      their CPU time over the probe's wall time
     * @param cpuMicrosPerRequest      their CPU per request
     * @param allocatedBytesPerRequest what their threads allocated per request
     * @param connectionsOpened        connections opened during the probe
     * @param connectionsOpen          connections open at its end
     * @param waitedForConnection      requests that found every connection busy when due (their wait is send lag)
     */
    public record Generator(double cpuPercentOfOneCore, double cpuMicrosPerRequest, long allocatedBytesPerRequest,
                            long connectionsOpened, int connectionsOpen, long waitedForConnection) {
        String text() {
            return String.format(Locale.ROOT, "event loops %.0f%% of a core, %.1f us and %d B per request, %d connections (%d opened,"
                            + " %d requests waited for one)", cpuPercentOfOneCore, cpuMicrosPerRequest, allocatedBytesPerRequest,
                    connectionsOpen, connectionsOpened, waitedForConnection);
        }
    }

    /** A probe's {@code why} when it held. */
    public static final String ON_TIME = "on time";

    /**
     * One generator's probes.
     *
     * @param name     {@value #EVENT_LOOPS} or {@value #THREAD_PER_REQUEST}
     * @param client   how it sends, e.g. {@code netty epoll, 2 event loops}
     * @param probes   every probe, in the order run
     * @param capacity the highest rate that held (0 when even {@link #FIRST_RATE} failed)
     */
    public record Series(String name, String client, List<Probe> probes, int capacity) {
        public Series {
            probes = List.copyOf(probes);
        }
    }

    /**
     * What one run measured.
     *
     * @param before           CPU use before anything ran ({@link #IDLE_SAMPLE}): the machine's other work
     * @param eventLoops       the event-loop generator's probes
     * @param threadPerRequest the thread-per-request generator's probes
     * @param wrk              wrk's result, empty when not installed
     * @param wrkCpu           CPU use during wrk's run
     * @param markdown         the written {@code generator-vs-wrk.md}
     */
    public record CapacityResult(MachineCpu.Use before, Series eventLoops, Series threadPerRequest, Optional<Wrk.WrkResult> wrk,
                                 MachineCpu.Use wrkCpu, Path markdown) {
        /** @return the event-loop generator's capacity over wrk's requests per second, when both exist */
        public Optional<Double> ratio() {
            return wrk.filter(w -> w.requestsPerSecond() > 0 && eventLoops.capacity() > 0)
                    .map(w -> eventLoops.capacity() / w.requestsPerSecond());
        }

        /** @return whether other processes kept the cores busy before the run: its figures are then not judged */
        public boolean busyBefore() {
            return before.othersPercent() > BUSY_BEFORE_PERCENT;
        }
    }

    private GeneratorCapacity() {
    }

    /** Probes both generators, then runs wrk (when installed), and writes {@code generator-vs-wrk.md} and {@code .json}. */
    public static CapacityResult run(Path reportsDir, Consumer<String> out) throws IOException, InterruptedException {
        MachineCpu idleFrom = MachineCpu.now();
        Thread.sleep(IDLE_SAMPLE);
        MachineCpu.Use before = idleFrom.until(MachineCpu.now());
        out.accept("[generator] before the probes: " + before.text());
        try (OrderHttpServer server = OrderHttpServer.start(NO_SERVICE, ServerThreads.PLATFORM)) {
            Series eventLoops;
            try (WireOpenLoop wire = new WireOpenLoop(server.baseUri(), LANES)) {
                WireWorkload noop = WireWorkload.of(WireRequest.get("noop", server.baseUri().getAuthority(),
                        OrderHttpServer.NOOP_PATH));
                String client = "netty " + wire.transport() + ", " + wire.lanes() + " event loops";
                wire.run(spec(WARM_UP_RATE, WARM_UP), noop);
                awaitCompilerQuiet(out);
                eventLoops = series(EVENT_LOOPS, client, rate -> probe(wire, noop, rate), out);
            }
            Series threadPerRequest;
            try (HttpOrderTarget client = new HttpOrderTarget(server.baseUri())) {
                Workload noop = new Workload() {
                    @Override
                    public String operationOf(long sequence) {
                        return "noop";
                    }

                    @Override
                    public void execute(long sequence, String operation, RequestContext ctx) throws Exception {
                        client.noop(ctx);
                    }
                };
                OpenLoopRunner runner = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.DEFAULT);
                runner.run(spec(THREAD_PER_REQUEST_WARM_UP_RATE, WARM_UP), noop);
                awaitCompilerQuiet(out);
                threadPerRequest = series(THREAD_PER_REQUEST, "the JDK's HttpClient, a virtual thread per request",
                        rate -> probe(runner, noop, rate), out);
            }
            Optional<Wrk.WrkResult> byWrk = Optional.empty();
            MachineCpu.Use wrkCpu = MachineCpu.Use.UNKNOWN;
            Optional<Path> wrk = Wrk.find();
            if (wrk.isPresent()) {
                MachineCpu wrkFrom = MachineCpu.now();
                byWrk = Optional.of(Wrk.runNoop(wrk.get(), server.baseUri(), WRK_DURATION, WRK_CONNECTIONS, WRK_THREADS));
                wrkCpu = wrkFrom.until(MachineCpu.now());
            } else {
                out.accept("wrk: not installed, no wrk row; install it with " + Wrk.INSTALL);
            }
            CapacityResult result = new CapacityResult(before, eventLoops, threadPerRequest, byWrk, wrkCpu,
                    reportsDir.resolve("generator-vs-wrk.md"));
            GeneratorCapacityReport.write(result, reportsDir);
            out.accept(Files.readString(result.markdown()));
            return result;
        }
    }

    /**
     * Waits until the JIT compiler has been idle for {@link #COMPILER_QUIET} (at most {@link #COMPILER_SETTLE_MAX}): a
     * warm-up leaves compilations queued, and on two cores the compiler's threads take the CPU the first probes need.
     */
    private static void awaitCompilerQuiet(Consumer<String> out) throws InterruptedException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long start = System.nanoTime();
        long last = jit.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < COMPILER_QUIET.toNanos() && System.nanoTime() - start < COMPILER_SETTLE_MAX.toNanos()) {
            Thread.sleep(50);
            long now = jit.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            }
        }
        out.accept(String.format(Locale.ROOT, "[generator] the JIT compiler settled for %.1f s after the warm-up%s",
                (System.nanoTime() - start) / 1e9, System.nanoTime() - quietSince < COMPILER_QUIET.toNanos()
                        ? " (still compiling: the first probes share the cores with it)" : ""));
    }

    /** Doubles the rate from {@link #FIRST_RATE} until a probe fails, then bisects; returns the series. */
    private static Series series(String name, String client, IntFunction<Probe> prober, Consumer<String> out) {
        out.accept("[generator] " + name + ": " + client);
        List<Probe> probes = new ArrayList<>();
        int held = 0;
        int failed = 0;
        for (int rate = FIRST_RATE; rate <= LAST_RATE; rate *= 2) {
            if (!probeUntilItHolds(name, prober, rate, probes, out).holds()) {
                failed = rate;
                break;
            }
            held = rate;
        }
        for (int i = 0; i < BISECTIONS && failed > 0 && held > 0; i++) {
            int mid = (held + failed) / 2 / 100 * 100;
            if (mid <= held) {
                break;
            }
            if (probeUntilItHolds(name, prober, mid, probes, out).holds()) {
                held = mid;
            } else {
                failed = mid;
            }
        }
        return new Series(name, client, probes, held);
    }

    /** Probes {@code rate} until it holds, at most {@link #TRIES} times; every probe goes to {@code probes}; returns the last. */
    private static Probe probeUntilItHolds(String name, IntFunction<Probe> prober, int rate, List<Probe> probes,
                                           Consumer<String> out) {
        Probe p = null;
        for (int i = 0; i < TRIES && (p == null || !p.holds()); i++) {
            p = prober.apply(rate);
            probes.add(p);
            Spent spent = p.spent();
            out.accept(String.format(Locale.ROOT, "[generator] %s, %d req/s: %s; %s; GC pauses %d ms%s", name, rate, p.why(),
                    spent.cpu().text(), spent.gcPauseMillis(), spent.generator() == null ? "" : "; " + spent.generator().text()));
        }
        return p;
    }

    private static Probe probe(WireOpenLoop wire, WireWorkload noop, int rate) {
        MachineCpu before = MachineCpu.now();
        long gcBefore = MachineCpu.gcPauseMillis();
        WireRun r = wire.run(spec(rate, Duration.ZERO), noop);
        MachineCpu.Use cpu = before.until(MachineCpu.now());
        WireRun.Requests q = r.requests();
        Generator g = new Generator(Math.round(r.cost().cpuPercentOfOneCore() * 10) / 10.0,
                Math.round(r.cpuMicrosPerRequest() * 100) / 100.0, Math.round(r.allocatedBytesPerRequest()),
                r.connections().opened(), r.connections().open(), r.connections().waitedForOne());
        return verdict(rate, new Requests(q.offered(), q.started(), q.completed()), r.sendLag().p99Micros(),
                r.latency().p99Micros(), cpu, MachineCpu.gcPauseMillis() - gcBefore, g);
    }

    private static Probe probe(OpenLoopRunner runner, Workload noop, int rate) {
        MachineCpu before = MachineCpu.now();
        long gcBefore = MachineCpu.gcPauseMillis();
        RunResult r = runner.run(spec(rate, Duration.ZERO), noop);
        MachineCpu.Use cpu = before.until(MachineCpu.now());
        return verdict(rate, new Requests(r.offered(), r.started(), r.completed()), r.sendLag().p99Micros(),
                r.latency().p99Micros(), cpu, MachineCpu.gcPauseMillis() - gcBefore, null);
    }

    private static Probe verdict(int rate, Requests q, long lagP99, long latencyP99, MachineCpu.Use cpu, long gcMillis,
                                 Generator g) {
        String why;
        if (q.started() < q.offered()) {
            why = (q.offered() - q.started()) + " of " + q.offered() + " never started (the generator fell behind)";
        } else if (lagP99 >= SEND_LAG_BOUND.toNanos() / 1_000) {
            why = String.format(Locale.ROOT, "send lag p99 %.2f ms >= %d ms (the generator started requests late)",
                    lagP99 / 1e3, SEND_LAG_BOUND.toMillis());
        } else if (q.completed() < q.offered()) {
            why = (q.offered() - q.completed()) + " of " + q.offered() + " not answered 2xx within "
                    + TIMEOUT.toMillis() + " ms (the server or the client's connections fell behind)";
        } else {
            why = ON_TIME;
        }
        return new Probe(rate, q, new P99(lagP99, latencyP99), new Spent(cpu, gcMillis, g), why);
    }

    private static LoadSpec spec(int rate, Duration warmUp) {
        return LoadSpec.book().withRate(rate).withDuration(warmUp.isZero() ? PROBE : warmUp).withTimeout(TIMEOUT)
                .withTraceEvery(0).withWarmup(Duration.ZERO);
    }

    /** A server with no service behind it: only {@code /noop} answers; every order call is refused. */
    private static final OrderTarget NO_SERVICE = new OrderTarget() {
        @Override
        public String create(RequestContext ctx) {
            throw new UnsupportedOperationException("no service behind this server: GET /noop only");
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
            throw new UnsupportedOperationException("no service behind this server: GET /noop only");
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
            throw new UnsupportedOperationException("no service behind this server: GET /noop only");
        }
    };
}
