package archlab.run;

import archlab.clock.NanoClock;
import archlab.http.HttpOrderTarget;
import archlab.http.OrderHttpServer;
import archlab.http.ServerThreads;
import archlab.http.Wrk;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.OrderTarget;
import archlab.loadgen.RunResult;
import archlab.loadgen.Workload;
import archlab.request.RequestContext;
import archlab.timeline.TimelineSettings;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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

/**
 * The generator against the peer: how many requests per second the lab's open-loop runner can offer over HTTP on this
 * machine before it stops being on time, beside the most wrk gets through, both against the same server's
 * {@code GET /noop} (Tomcat answers 204, no service is called), in one run.
 *
 * <p>The trap it exposes: a load generator has a ceiling of its own. Above it an open-loop runner starts requests late
 * (its send lag grows) and what it reports is partly its own queue. The lab's capacity is the highest probed rate at
 * which every request started ({@code started = offered}), the send lag's p99 stayed under {@link #SEND_LAG_BOUND}
 * and every request was answered within {@link #TIMEOUT}. The probes double from {@link #FIRST_RATE} until one fails,
 * then halve the gap {@link #BISECTIONS} times; a rate that fails is probed up to {@link #TRIES} times before it counts
 * as failed (a capacity is what the generator can do, and one stall of a shared machine is not the generator). How busy the machine
 * already was before the probes ({@link #IDLE_SAMPLE}) is printed first: other work on the cores lowers both figures. wrk is closed loop ({@code -t2 -c64}, {@link #WRK_DURATION}): it never
 * falls behind a schedule, it just sends the next request when an answer came, so its figure is what the server and
 * the shared cores let through. Both figures are on the same 2 cores as the server: the machine's CPU use of each
 * phase is printed beside them ({@code /proc/stat}, Linux only; {@code n/a} elsewhere) with this JVM's own (runner,
 * client and server together; wrk is the rest).
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
    public static final int LAST_RATE = 64_000;
    /** Halvings of the gap between the last rate that held and the first that did not. */
    public static final int BISECTIONS = 3;
    /** How often a failing rate is probed before it counts as failed. */
    public static final int TRIES = 3;
    /** The rate of the unmeasured load before the probes. */
    public static final int WARM_UP_RATE = 1_000;
    /** Unmeasured load before the probes, so that the JIT does not decide the first ones. */
    public static final Duration WARM_UP = Duration.ofSeconds(2);
    /** How long the machine's own load is sampled before anything runs. */
    public static final Duration IDLE_SAMPLE = Duration.ofMillis(500);
    /** Other processes' CPU use before the probes above which the figures are their work as much as the tools'. */
    public static final double BUSY_BEFORE_PERCENT = 50;
    /** wrk's run. */
    public static final Duration WRK_DURATION = Duration.ofSeconds(3);
    /** wrk's connections and threads. */
    public static final int WRK_CONNECTIONS = 64;
    public static final int WRK_THREADS = 2;

    /**
     * How one probe's requests went.
     *
     * @param offered   requests planned
     * @param started   requests started
     * @param completed answered 204 within the deadline
     */
    public record Requests(long offered, long started, long completed) {
    }

    /**
     * One probe of the runner.
     *
     * @param ratePerSecond    offered rate
     * @param requests         what was planned, started and answered
     * @param sendLagP99Micros the runner's lateness, p99
     * @param latencyP99Micros from planned start to answer, p99
     * @param cpu              the machine's and this JVM's CPU use during the probe
     * @param why              what failed first, or {@value #ON_TIME}
     */
    public record Probe(int ratePerSecond, Requests requests, long sendLagP99Micros, long latencyP99Micros, CpuUse cpu,
                        String why) {
        /** @return whether every request started on time and was answered */
        @com.fasterxml.jackson.annotation.JsonProperty("holds")
        public boolean holds() {
            return ON_TIME.equals(why);
        }
    }

    /** A probe's {@code why} when it held. */
    public static final String ON_TIME = "on time";

    /**
     * CPU use over one phase: percent of all the machine's cores busy, and this JVM's CPU time as percent of the same.
     * {@code -1} when not measurable here.
     */
    public record CpuUse(double machineBusyPercent, double jvmPercent) {
        /** @return what processes other than this JVM used, percent of all cores ({@code -1}: not measurable) */
        public double othersPercent() {
            return machineBusyPercent < 0 || jvmPercent < 0 ? -1 : Math.max(0, machineBusyPercent - jvmPercent);
        }

        String text() {
            return machineBusyPercent < 0 ? "n/a" : String.format(Locale.ROOT, "machine %.0f%%, this JVM %.0f%%",
                    machineBusyPercent, jvmPercent);
        }
    }

    /**
     * What one run measured.
     *
     * @param before          CPU use before anything ran ({@link #IDLE_SAMPLE}): the machine's other work
     * @param probes          every probe, in the order run
     * @param capacity        the highest rate that held (0 when even {@link #FIRST_RATE} failed)
     * @param wrk             wrk's result, empty when not installed
     * @param wrkCpu          CPU use during wrk's run
     * @param markdown        the written {@code generator-vs-wrk.md}
     */
    public record CapacityResult(CpuUse before, List<Probe> probes, int capacity, Optional<Wrk.WrkResult> wrk, CpuUse wrkCpu, Path markdown) {
        /** @return the runner's capacity over wrk's requests per second, when both exist */
        public Optional<Double> ratio() {
            return wrk.filter(w -> w.requestsPerSecond() > 0 && capacity > 0).map(w -> capacity / w.requestsPerSecond());
        }
    }

    private GeneratorCapacity() {
    }

    /** Probes the runner, then runs wrk (when installed), and writes {@code generator-vs-wrk.md} and {@code .json}. */
    public static CapacityResult run(Path reportsDir, Consumer<String> out) throws IOException, InterruptedException {
        Cpu idleFrom = Cpu.now();
        Thread.sleep(IDLE_SAMPLE);
        CpuUse before = idleFrom.until(Cpu.now());
        out.accept("[generator] before the probes: " + before.text());
        List<Probe> probes = new ArrayList<>();
        Optional<Wrk.WrkResult> byWrk = Optional.empty();
        CpuUse wrkCpu = new CpuUse(-1, -1);
        try (OrderHttpServer server = OrderHttpServer.start(NO_SERVICE, ServerThreads.PLATFORM);
             HttpOrderTarget client = new HttpOrderTarget(server.baseUri())) {
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
            runner.run(spec(WARM_UP_RATE, WARM_UP), noop);
            int held = 0;
            int failed = 0;
            for (int rate = FIRST_RATE; rate <= LAST_RATE; rate *= 2) {
                Probe p = probeUntilItHolds(runner, noop, rate, probes, out);
                if (!p.holds()) {
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
                Probe p = probeUntilItHolds(runner, noop, mid, probes, out);
                if (p.holds()) {
                    held = mid;
                } else {
                    failed = mid;
                }
            }
            Optional<Path> wrk = Wrk.find();
            if (wrk.isPresent()) {
                Cpu wrkFrom = Cpu.now();
                byWrk = Optional.of(Wrk.runNoop(wrk.get(), server.baseUri(), WRK_DURATION, WRK_CONNECTIONS, WRK_THREADS));
                wrkCpu = wrkFrom.until(Cpu.now());
            } else {
                out.accept("wrk: not installed, no wrk row; install it with " + Wrk.INSTALL);
            }
            int capacity = held;
            CapacityResult result = new CapacityResult(before, List.copyOf(probes), capacity, byWrk, wrkCpu, reportsDir.resolve("generator-vs-wrk.md"));
            write(result, reportsDir);
            out.accept(Files.readString(result.markdown()));
            return result;
        }
    }

    /** Probes {@code rate} until it holds, at most {@link #TRIES} times; every probe goes to {@code probes}; returns the last. */
    private static Probe probeUntilItHolds(OpenLoopRunner runner, Workload noop, int rate, List<Probe> probes, Consumer<String> out) {
        Probe p = probe(runner, noop, rate, out);
        probes.add(p);
        for (int i = 1; i < TRIES && !p.holds(); i++) {
            p = probe(runner, noop, rate, out);
            probes.add(p);
        }
        return p;
    }

    private static Probe probe(OpenLoopRunner runner, Workload noop, int rate, Consumer<String> out) {
        Cpu before = Cpu.now();
        RunResult r = runner.run(spec(rate, Duration.ZERO), noop);
        CpuUse cpu = before.until(Cpu.now());
        long lagP99 = r.sendLag().p99Micros();
        String why;
        if (r.started() < r.offered()) {
            why = (r.offered() - r.started()) + " of " + r.offered() + " never started (the generator fell behind)";
        } else if (lagP99 >= SEND_LAG_BOUND.toNanos() / 1_000) {
            why = String.format(Locale.ROOT, "send lag p99 %.2f ms >= %d ms (the generator started requests late)",
                    lagP99 / 1e3, SEND_LAG_BOUND.toMillis());
        } else if (r.completed() < r.offered()) {
            why = (r.offered() - r.completed()) + " of " + r.offered() + " not answered 204 within "
                    + TIMEOUT.toMillis() + " ms (the server or the client's connections fell behind)";
        } else {
            why = ON_TIME;
        }
        Probe p = new Probe(rate, new Requests(r.offered(), r.started(), r.completed()), lagP99, r.latency().p99Micros(),
                cpu, why);
        out.accept(String.format(Locale.ROOT, "[generator] %d req/s: %s; %s", rate, why, cpu.text()));
        return p;
    }

    private static LoadSpec spec(int rate, Duration warmUp) {
        return LoadSpec.book().withRate(rate).withDuration(warmUp.isZero() ? PROBE : warmUp).withTimeout(TIMEOUT)
                .withTraceEvery(0).withWarmup(Duration.ZERO);
    }

    private static void write(CapacityResult result, Path reportsDir) throws IOException {
        Files.createDirectories(reportsDir);
        StringBuilder b = new StringBuilder("# The generator against the peer: GET /noop on one server (Tomcat, 204, no service)\n\n")
                .append("CPU before the probes (").append(IDLE_SAMPLE.toMillis()).append(" ms, nothing of this run going on): ")
                .append(result.before().text()).append(result.before().othersPercent() > BUSY_BEFORE_PERCENT
                        ? String.format(Locale.ROOT, " — other processes kept over %.0f %% of the cores busy before this run"
                        + " began, so both figures below are this moment's, not the machine's (not judged; run it again on a"
                        + " quiet machine)", BUSY_BEFORE_PERCENT) : "").append("\n\n")
                .append("| rate (req/s) | offered | started | answered | send lag p99 | latency p99 | CPU | verdict |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (Probe p : result.probes()) {
            b.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %.2f ms | %.2f ms | %s | %s |%n", p.ratePerSecond(),
                    p.requests().offered(), p.requests().started(), p.requests().completed(), p.sendLagP99Micros() / 1e3, p.latencyP99Micros() / 1e3,
                    p.cpu().text(), p.why()));
        }
        b.append(String.format(Locale.ROOT, "%ngenerator_capacity=%d req/s (open loop, %s probes, the highest rate at which"
                + " every request started, send lag p99 < %d ms and every answer came within %d ms%s)%n", result.capacity(),
                PROBE.toMillis() + " ms", SEND_LAG_BOUND.toMillis(), TIMEOUT.toMillis(),
                result.capacity() >= LAST_RATE ? "; the last rate probed held: at least this" : ""));
        result.wrk().ifPresentOrElse(w -> b.append(String.format(Locale.ROOT,
                "wrk_max=%.0f req/s (closed loop, -t%d -c%d, %d answers, %d non-2xx, %d socket errors; p99 %.2f ms; CPU %s) `%s`%n",
                w.requestsPerSecond(), WRK_THREADS, WRK_CONNECTIONS, w.counts().requests(), w.counts().non2xx(),
                w.counts().socketErrors(), w.latency().p99Millis(), result.wrkCpu().text(), w.commandLine())),
                () -> b.append("wrk_max=n/a (wrk not installed: ").append(Wrk.INSTALL).append(")\n"));
        result.ratio().ifPresent(r -> b.append(String.format(Locale.ROOT, "ratio generator/wrk=%.2f%n", r)));
        b.append("\nWhat limits each: the open loop is held to a schedule, so it fails at the first rate where it cannot"
                + " start a request on time (its own threads, the JDK's HTTP client and the server share the cores); wrk"
                + " keeps 64 requests outstanding and sends the next when an answer comes, so it cannot fall behind, and"
                + " its figure is what the server and the cores let through. The CPU column says whether the cores were"
                + " full: a phase near 100 % is limited by the machine, not by the tool.\n");
        Files.writeString(result.markdown(), b.toString());
        Map<String, Object> json = new LinkedHashMap<>();
        // which machine and Maven session wrote it: the book copies one session's reports only
        json.put("environment", archlab.report.Environment.current());
        json.put("cpuBefore", result.before());
        json.put("probes", result.probes());
        json.put("generatorCapacityPerSecond", result.capacity());
        json.put("wrkRequestsPerSecond", result.wrk().map(w -> Math.round(w.requestsPerSecond())).orElse(null));
        json.put("wrkCommand", result.wrk().map(Wrk.WrkResult::commandLine).orElse(null));
        json.put("wrkCpu", result.wrkCpu());
        json.put("ratio", result.ratio().map(r -> Math.round(r * 100) / 100.0).orElse(null));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(reportsDir.resolve("generator-vs-wrk.json").toFile(), json);
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

    /** The machine's jiffies (busy, all) from {@code /proc/stat} and this JVM's CPU nanoseconds, at one moment. */
    private record Cpu(long busy, long total, long jvmNanos, long wallNanos) {
        static Cpu now() {
            long jvm = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os.getProcessCpuTime() : -1;
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < f.length && i <= 8; i++) {
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                return new Cpu(total - idle, total, jvm, System.nanoTime());
            } catch (IOException | RuntimeException e) {
                return new Cpu(-1, -1, jvm, System.nanoTime());
            }
        }

        CpuUse until(Cpu later) {
            if (total < 0 || later.total <= total) {
                return new CpuUse(-1, -1);
            }
            double busyPercent = 100.0 * (later.busy - busy) / (later.total - total);
            int cores = Runtime.getRuntime().availableProcessors();
            double jvmPercent = jvmNanos < 0 ? -1 : 100.0 * (later.jvmNanos - jvmNanos) / ((later.wallNanos - wallNanos) * (double) cores);
            return new CpuUse(Math.round(busyPercent * 10) / 10.0, Math.round(jvmPercent * 10) / 10.0);
        }
    }
}
