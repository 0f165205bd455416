package archlab.ladder;

import archlab.db.LabDatabase;
import archlab.db.ladder.LadderDataSet;
import archlab.db.ladder.LadderDatabase;
import archlab.db.ladder.PlanSummary;
import archlab.db.ladder.SlowStatements;
import archlab.http.HttpErrors;
import archlab.http.ServerExecutor;
import archlab.http.ServerThreads;
import archlab.http.wire.WireOpenLoop;
import archlab.http.wire.WireRequest;
import archlab.http.wire.WireRun;
import archlab.http.wire.WireWorkload;
import archlab.ladder.compute.ComputeSegments;
import archlab.ladder.compute.OrdersPage;
import archlab.ladder.gc.GcFigures;
import archlab.ladder.monitor.TraceSegments;
import archlab.ladder.monitor.Tracing;
import archlab.loadgen.LoadSpec;
import archlab.loopback.LoopbackTomcat;
import archlab.profile.FlameGraphs;
import archlab.profile.JfrRecorder;
import archlab.profile.ProfileSettings;
import archlab.report.ReportWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * Runs the ladder: for each rung, the orders index as the rung defines it, a Tomcat serving {@link RecentOrdersServlet}
 * with the rung's network settings, a pool of {@value #POOL_SIZE} connections to {@value LadderDataSet#SCHEMA}, and the
 * same open-loop load ({@link WireOpenLoop}, the lab's event-loop generator): a warm-up, then the measured phase. Every
 * rung's figures come from its own run, under the same requests in the same order ({@link #requests}).
 *
 * <p>The load: half the requests ask for one of the {@value LadderDataSet#BUSY_CUSTOMERS} busy customers' months
 * (hundreds of orders each on the full data set, and their rows contended by the stamp), half for an ordinary
 * customer's; months drawn evenly. A fixed seed, so every rung and every run asks the same.
 *
 * <p>Thread-safety: one run at a time (it is a load run).
 */
public final class LadderRun {

    /** The pool's size: HikariCP's default. */
    public static final int POOL_SIZE = LabDatabase.DEFAULT_POOL_SIZE;
    /** Distinct requests, cycled. */
    public static final int DISTINCT_REQUESTS = 4096;
    /** A request's timeout: past it, it counts as timed out. */
    public static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** The busy customer whose month each rung EXPLAINs. */
    public static final long EXPLAINED_CUSTOMER = 1;
    /** The month each rung EXPLAINs. */
    public static final YearMonth EXPLAINED_MONTH = LadderDataSet.month(5);

    /**
     * One rung's figures.
     *
     * @param rung     the rung
     * @param load     what the client measured
     * @param segments the mean request's time, split
     * @param database what the database side measured
     * @param server   what Tomcat's executor saw
     * @param business what the business code's stages cost per request
     */
    public record RungResult(Rung rung, WireRun load, LadderSegments segments, Database database, Server server,
                             Business business) {
    }

    /**
     * @param split        the business code's stages per answered request of the measured phase (time, bytes allocated)
     * @param logBytes     what the request log's file grew by in the measured phase, bytes (written by the time the
     *                     rung's log was closed)
     * @param logFile      the request log's file (deleted after the rung unless its flame graphs are drawn)
     * @param profile      where the measured phase's CPU samples fell (its JFR recording)
     * @param flameGraphs  the recording's flame graphs, drawn for the rungs {@link #drawsFlameGraphs} names; else empty
     * @param monitoring   what the rung's tracing wrote and what its traces say
     *
     * <p>Immutable.
     */
    public record Business(ComputeSegments.Split split, long logBytes, Path logFile, BusinessProfile profile,
                           List<Path> flameGraphs, Monitoring monitoring) {
        public Business {
            flameGraphs = List.copyOf(flameGraphs);
        }

        /** @return the log's bytes per answered request (0 with none) */
        public double logBytesPerRequest() {
            return split.requests() == 0 ? 0 : logBytes / (double) split.requests();
        }

        /** @return the trace file's bytes per answered request (0 with none) */
        public double traceBytesPerRequest() {
            return split.requests() == 0 ? 0 : monitoring.traceBytes() / (double) split.requests();
        }
    }

    /**
     * What a rung's tracing did in the measured phase.
     *
     * @param tracing    how the requests were traced
     * @param traceBytes what the trace file grew by in the measured phase, bytes (the warm-up's spans flushed before it,
     *                   the phase's by the time the tracer was closed)
     * @param traceFile  the trace file (deleted after the rung unless its flame graphs are drawn)
     * @param traced     what the traces kept say, per span name ({@link TraceSegments}): the request's span
     *                   ({@value #REQUEST_SPAN}), the database's read and each stage
     */
    public record Monitoring(Tracing tracing, long traceBytes, Path traceFile, Map<String, TraceSegments.Estimate> traced) {
        public Monitoring {
            traced = Map.copyOf(traced);
        }

        /** @return the requests whose traces were kept */
        public long tracedRequests() {
            TraceSegments.Estimate e = traced.get(REQUEST_SPAN);
            return e == null ? 0 : e.spans();
        }
    }

    /** The request's own span's name (its children: "database" and the business stages). */
    public static final String REQUEST_SPAN = "GET /users/{id}/orders";

    /**
     * What each rung's measured phase records: CPU samples every millisecond (the business code is a few percent of a
     * rung's CPU: at JFR's usual 10 ms its stages got a handful of samples), allocation samples, lock waits over 10 ms.
     * Every rung records with the same settings; what a sample costs grows with the threads running and their stacks'
     * depth, so the recording weighs a little more on the slow rungs.
     */
    static final ProfileSettings PROFILE = new ProfileSettings(Duration.ofMillis(1),
            ProfileSettings.DEFAULT_ALLOCATION_SAMPLES_PER_SECOND, Duration.ofMillis(10));

    /**
     * @return whether {@code rung}'s recording is drawn as flame graphs: the last rung whose business code is all slow
     *         (the storage and network layers fast, so the business code stands out), and the rung where everything is
     *         fast
     */
    public static boolean drawsFlameGraphs(Rung rung) {
        boolean allSlow = rung.compute().equals(archlab.ladder.compute.Compute.SLOW) && rung.network().tcpNoDelay()
                && rung.network().keepAlive();
        boolean allFast = rung.compute().equals(archlab.ladder.compute.Compute.FAST) && rung.tracing() == Tracing.SAMPLED;
        return Rung.LADDER.contains(rung) && (allSlow || allFast);
    }

    /** Where each rung's request log is written: {@code target/ladder-logs/<rung>.log}, beside the reports. */
    public static Path logDir() {
        return ReportWriter.reportsDir().toAbsolutePath().resolveSibling("ladder-logs");
    }

    /**
     * @param threadsBusyMax          the most executor threads busy at once, over the rung's warm-up and measured phase
     * @param socketEventsPerRequest  socket events the executor ran per answered request in the measured phase
     * @param answered                requests the servlet answered 200 in the measured phase (the split's requests)
     * @param kernel                  what the kernel's TCP counters gained in the measured phase; empty off Linux
     * @param gc                      what the garbage collector did in the measured phase, and what it allocated
     */
    public record Server(int threadsBusyMax, double socketEventsPerRequest, long answered, Optional<KernelTcpCounters> kernel,
                         GcFigures gc) {
    }

    /** How long a phase waits for the requests of the one before to leave the servlet: the pool's own timeout. */
    public static final Duration DRAIN = Duration.ofSeconds(30);

    /**
     * @param plan                    EXPLAIN ANALYZE of the busy customer's month, after the phase
     * @param statements              the 10 ms rule's reading of the phase
     * @param connectionWaitP99Micros the pool's wait, p99, µs
     * @param databaseP99Micros       the servlet's database time, p99, µs
     * @param commitProbe             the disk's pace during the phase (the probe's line); empty when none
     */
    public record Database(PlanSummary plan, Statements statements, double connectionWaitP99Micros,
                           double databaseP99Micros, String commitProbe) {

        /** @return the statements, slowest first (empty when they could not be read) */
        public List<SlowStatements.Slow> slowest() {
            return statements.slowest();
        }
    }

    /**
     * @param slowest     the ladder's statements over the phase, slowest first (empty when unavailable)
     * @param missing     why they could not be read; empty when they were
     * @param autoExplain the server's auto_explain threshold; empty when auto_explain is off
     * @param logged      what auto_explain wrote to the server's log in the phase; empty when the log was not found
     */
    public record Statements(List<SlowStatements.Slow> slowest, Optional<String> missing, Optional<String> autoExplain,
                             Optional<AutoExplainLog.Entries> logged) {
        public Statements {
            slowest = List.copyOf(slowest);
        }

        /** @return the customer's stamp among them; empty when not listed */
        public Optional<SlowStatements.Slow> stamp() {
            return slowest.stream().filter(s -> archlab.db.ladder.LadderQuery.isStamp(s.query())).findFirst();
        }
    }

    private LadderRun() {
    }

    /**
     * @param log the server's log, where auto_explain writes ({@link AutoExplainLog#find}); empty when not found
     * @return the rung results, in the settings' order
     */
    public static List<RungResult> run(String jdbcUrl, LadderSettings settings, Optional<AutoExplainLog> log) {
        List<RungResult> results = new ArrayList<>();
        for (Rung rung : settings.rungs()) {
            results.add(runRung(jdbcUrl, settings, rung, log));
        }
        return results;
    }

    /**
     * Runs one rung as the ladder does, with no auto_explain log read: a rung run in a JVM of its own
     * ({@code archlab.ladder.gc.CollectorRuns}).
     */
    public static RungResult runOne(String jdbcUrl, LadderSettings settings, Rung rung) {
        return runRung(jdbcUrl, settings, rung, Optional.empty());
    }

    /**
     * The aside beside the ladder: the ladder's last rung (every fast choice) with keep-alive off again, so that what a
     * connection per request costs shows alone — on the ladder itself, turning keep-alive on also uncovers Nagle's stall.
     *
     * @param last the ladder's last rung
     */
    public static RungResult keepAliveAside(String jdbcUrl, LadderSettings settings, Rung last, Optional<AutoExplainLog> log) {
        Rung aside = new Rung("aside-no-keep-alive", "keep-alive off (TCP_NODELAY stays on)",
                last.query(), new Rung.Network(false, last.network().tcpNoDelay()), last.compute(), last.tracing());
        return runRung(jdbcUrl, settings, aside, log);
    }

    /** @return the requests of every rung, for a server at {@code host}: the same customers and months in the same order */
    public static WireRequest[] requests(String host, long customers) {
        SplittableRandom random = new SplittableRandom(12);
        WireRequest[] requests = new WireRequest[DISTINCT_REQUESTS];
        for (int i = 0; i < requests.length; i++) {
            long customer = i % 2 == 0 ? 1 + random.nextInt(LadderDataSet.BUSY_CUSTOMERS)
                    : LadderDataSet.BUSY_CUSTOMERS + 1 + random.nextLong(customers - LadderDataSet.BUSY_CUSTOMERS);
            requests[i] = WireRequest.get("recent-orders", host,
                    RecentOrdersServlet.path(customer, LadderDataSet.month(random.nextInt(12))));
        }
        return requests;
    }

    private static RungResult runRung(String jdbcUrl, LadderSettings settings, Rung rung, Optional<AutoExplainLog> log) {
        try {
            return measure(jdbcUrl, settings, rung, log);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("rung " + rung.name() + ": " + e.getMessage(), e);
        }
    }

    private static RungResult measure(String jdbcUrl, LadderSettings settings, Rung rung, Optional<AutoExplainLog> log)
            throws java.io.IOException {
        LadderDataSet.defineIndex(jdbcUrl, rung.query());
        ServerSegments segments = new ServerSegments();
        ServerExecutor executor = new ServerExecutor(ServerThreads.PLATFORM);
        try (LadderDatabase db = LadderDatabase.attach(jdbcUrl, POOL_SIZE);
             OrdersPage page = new OrdersPage(rung.compute(), rung.tracing(), rung.name(), logDir());
             LoopbackTomcat tomcat = server(rung, new RecentOrdersServlet(db.orders(rung.query()), segments, page), executor);
             WireOpenLoop generator = new WireOpenLoop(tomcat.baseUri(), 1)) {
            WireRequest[] requests = requests("127.0.0.1:" + tomcat.port(), LadderDataSet.customersFor(settings.orders()));
            WireWorkload workload = sequence -> requests[(int) ((sequence - 1) % requests.length)];
            LoadSpec spec = LoadSpec.builder().ratePerSecond(settings.rate()).duration(settings.measure())
                    .timeout(TIMEOUT).build();
            generator.run(spec.withDuration(Duration.ofSeconds(LadderSettings.WARMUP_SECONDS)), workload);
            // a request the client gave up on may still be in the servlet: the measured phase starts with none there
            drain(segments, rung, "warm-up");
            Optional<String> missing = db.statementsUnavailable();
            db.startRun();
            segments.reset();
            page.segments().reset();
            page.tracer().flush(); // the warm-up's spans written before the file is measured
            page.tracer().segments().reset();
            long logBefore = page.log().fileBytes();
            long traceBefore = page.tracer().fileBytes();
            Histogram queueBefore = executor.queueWait();
            long eventsBefore = executor.events();
            if (missing.isEmpty()) {
                db.resetStatements();
            }
            Optional<Long> logMark = log.map(AutoExplainLog::mark);
            Optional<KernelTcpCounters> kernelBefore = KernelTcpCounters.read();
            WireRun load;
            Optional<KernelTcpCounters> kernel;
            Path jfr;
            java.time.Instant phaseFrom;
            java.time.Instant phaseTo;
            GcFigures.Allocation allocated;
            try (JfrRecorder recorder = JfrRecorder.start(PROFILE)) { // closed (discarded) when the phase fails
                long allocatedBefore = GcFigures.allocatedSoFar();
                long phaseStart = System.nanoTime();
                phaseFrom = java.time.Instant.now();
                load = generator.run(spec, workload);
                phaseTo = java.time.Instant.now();
                allocated = new GcFigures.Allocation(GcFigures.allocatedSoFar() - allocatedBefore, System.nanoTime() - phaseStart);
                kernel = KernelTcpCounters.read().flatMap(after -> kernelBefore.map(after::minus));
                drain(segments, rung, "measured phase");
                jfr = recorder.stopAndDump(ReportWriter.reportsDir().resolve("ladder-" + rung.name() + ".jfr"));
            }
            ComputeSegments.Split perStage = page.segments().split();
            // what the asynchronous appender and the batch processor still hold is written before the files are measured
            page.close();
            Monitoring monitoring = new Monitoring(rung.tracing(), page.tracer().fileBytes() - traceBefore,
                    page.tracer().file(), page.tracer().segments().estimates(perStage.requests()));
            Business business = new Business(perStage, page.log().fileBytes() - logBefore, page.log().file(),
                    BusinessProfile.read(jfr), drawsFlameGraphs(rung) ? FlameGraphs.render(jfr, ReportWriter.reportsDir(),
                    "ladder-" + rung.name(), "lab-ladder / rung " + rung.name()) : List.of(), monitoring);
            if (!drawsFlameGraphs(rung)) {
                // measured; kept only for the rungs whose flame graphs are drawn (a synchronous whole-answer log or
                // trace grows by megabytes a second)
                java.nio.file.Files.deleteIfExists(page.log().file());
                java.nio.file.Files.deleteIfExists(page.tracer().file());
            }
            db.endRun();
            Histogram queue = executor.queueWait();
            queue.subtract(queueBefore);
            List<SlowStatements.Slow> slowest = missing.isEmpty() ? db.slowest() : List.of();
            double queuePerRequest = segments.requests() == 0 ? 0
                    : queue.getMean() * queue.getTotalCount() / 1_000.0 / segments.requests();
            LadderSegments split = LadderSegments.of(load.latency().meanMicros(), queuePerRequest, segments);
            Optional<AutoExplainLog.Entries> logged = log.map(l -> l.since(logMark.orElseThrow()));
            Statements statements = new Statements(slowest, missing, db.autoExplainThreshold(), logged);
            Database database = new Database(db.explain(rung.query(), EXPLAINED_CUSTOMER, EXPLAINED_MONTH), statements,
                    db.connectionWaitP99Micros(), segments.databaseP99Micros(), db.commitProbeLine());
            double events = segments.requests() == 0 ? 0 : (executor.events() - eventsBefore) / (double) segments.requests();
            Server server = new Server(executor.busyMax(), events, segments.requests(), kernel, GcFigures.read(jfr, phaseFrom, phaseTo, allocated));
            return new RungResult(rung, load, split, database, server, business);
        } finally {
            executor.shutdown();
        }
    }

    static void drain(ServerSegments segments, Rung rung, String phase) {
        if (!segments.awaitIdle(DRAIN)) {
            throw new IllegalStateException("rung " + rung.name() + ": requests of the " + phase + " were still in the servlet "
                    + DRAIN.toSeconds() + " s after it ended");
        }
    }

    static LoopbackTomcat server(Rung rung, RecentOrdersServlet servlet, ServerExecutor executor) {
        LoopbackTomcat.Builder b = LoopbackTomcat.serving(servlet, HttpErrors::body).executor(executor);
        b = rung.network().keepAlive() ? b.unlimitedKeepAliveRequests() : b.oneRequestPerConnection();
        return rung.network().tcpNoDelay() ? b.start() : b.nagle().start();
    }
}
