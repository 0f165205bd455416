package archlab.run;

import archlab.downstream.DownstreamCounts;
import archlab.http.HttpOrderTarget;
import archlab.http.OrderHttpServer;
import archlab.http.ServerThreads;
import archlab.clock.NanoClock;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.ClosedLoopRunner;
import archlab.loadgen.ThreadKind;
import archlab.loadgen.Workload;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How a run's requests reach the service ({@code -Dlab.transport}, {@code -Dlab.server.threads}), applied where every
 * checkpoint's fixture passes, in {@link LabRun}: no checkpoint chooses it.
 *
 * <ul>
 *   <li>{@link Kind#INPROCESS} (the default): the runner calls the port as a Java method.</li>
 *   <li>{@link Kind#HTTP}: each fresh fixture's port is served by its own {@link OrderHttpServer} (embedded Tomcat on
 *       127.0.0.1, started when the fixture is built, stopped after its run) and the workload calls it through
 *       {@link HttpOrderTarget}. The pay pool is still pre-created in process (not measured either way). Needs the
 *       book's workload ({@link BookWorkload}); anything else is refused with a message.</li>
 * </ul>
 * Every report says which: a {@code transport} line ({@code transport=http server=tomcat threads=platform max=200
 * accept_queue=100}) and, over HTTP, a {@code server} line (busy threads at most, the queue wait of socket events) and a
 * {@code server_timeline} line (per interval from the run's start: the longest queue wait, the most threads busy).
 *
 * @param kind    in process or over HTTP
 * @param threads the server's threads (over HTTP only)
 */
public record Transport(Kind kind, ServerThreads threads) {

    /** The two transports. */
    public enum Kind {
        INPROCESS,
        HTTP
    }

    /** The report line of the server's per-interval view over HTTP ({@link archlab.http.ServerSeries#line()}). */
    public static final String SERVER_TIMELINE_LINE = "server_timeline";

    /**
     * Over HTTP, before each run: requests on {@link #WARM_UP_CONNECTIONS} connections, closed loop, to a path the
     * server answers itself (404) without calling the service, so that the run meets Tomcat's threads started and the
     * client's connections open, as a server in service would, instead of timing their start; and the service's own
     * figures (table reads, cache, limiter, money) count the run's requests only.
     */
    public static final Duration WARM_UP = Duration.ofMillis(500);
    /** What the warm-up asks for: an order path the server's routing refuses (404) before the service is called. */
    static final String WARM_UP_ORDER_PATH = "warm-up/not-an-order";
    /** The warm-up's connections: as many as Tomcat's platform threads. */
    public static final int WARM_UP_CONNECTIONS = ServerThreads.TOMCAT_MAX_THREADS;

    /** The default: a Java call. */
    public static final Transport IN_PROCESS = new Transport(Kind.INPROCESS, ServerThreads.PLATFORM);

    public Transport {
        java.util.Objects.requireNonNull(kind, "kind");
        java.util.Objects.requireNonNull(threads, "threads");
    }

    /** @return this transport with {@code -Dlab.transport} and {@code -Dlab.server.threads} of {@code lab} applied */
    public Transport withOverrides(LabProperties lab) {
        return new Transport(lab.get(LabProperties.TRANSPORT).orElse(kind), lab.get(LabProperties.SERVER_THREADS).orElse(threads));
    }

    /**
     * @return the report name of a run called {@code name} over this transport: {@code name} itself in process;
     *         over HTTP {@code name-http}, or {@code name-http-virtual-threads} on the server's virtual threads, so that
     *         the same run in process and over the wire (and on either kind of server thread) keeps one report each,
     *         to be laid side by side
     */
    public String reportName(String name) {
        if (kind == Kind.INPROCESS) {
            return name;
        }
        return name + HTTP_SUFFIX + (threads == ServerThreads.VIRTUAL ? VIRTUAL_THREADS_SUFFIX : "");
    }

    /** What {@link #reportName} appends over HTTP. */
    public static final String HTTP_SUFFIX = "-http";
    /** What {@link #reportName} appends after {@link #HTTP_SUFFIX} for a run on the server's virtual threads. */
    public static final String VIRTUAL_THREADS_SUFFIX = "-virtual-threads";

    /** @return {@code fixture} as this transport reaches it: itself in process, over a fresh server over HTTP */
    public LabFixture wrap(LabFixture fixture) {
        if (kind == Kind.INPROCESS) {
            return new OverTheWire(fixture, null, null, fixture.workload(),
                    "inprocess (the runner calls the service as a Java method)");
        }
        if (!(fixture.workload() instanceof BookWorkload book)) {
            throw new IllegalArgumentException("lab.transport=http needs the book's workload (BookWorkload), this fixture's is "
                    + fixture.workload().getClass().getName());
        }
        OrderHttpServer server = OrderHttpServer.start(book.target(), threads);
        HttpOrderTarget client = new HttpOrderTarget(server.baseUri());
        return new OverTheWire(fixture, server, client, book.via(client), server.describe() + String.format(
                " warmed=%dms of requests the server answers without the service, on %d connections (unmeasured, before the run)", WARM_UP.toMillis(), WARM_UP_CONNECTIONS));
    }

    /** Requests the server answers itself, closed loop, for {@link #WARM_UP}; their figures are dropped. */
    private static void warmUp(HttpOrderTarget client) {
        Workload refusedByTheServer = new Workload() {
            @Override
            public String operationOf(long sequence) {
                return BookWorkload.GET;
            }

            @Override
            public void execute(long sequence, String operation, archlab.request.RequestContext ctx) throws Exception {
                client.get(ctx, WARM_UP_ORDER_PATH);
            }
        };
        try {
            new ClosedLoopRunner(NanoClock.SYSTEM).run(refusedByTheServer, WARM_UP_CONNECTIONS, WARM_UP, Duration.ofSeconds(2), 0,
                    ThreadKind.VIRTUAL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A fixture reached through a transport; the server (if any) stops after the run, its figures stay. */
    private static final class OverTheWire implements LabFixture {
        private final LabFixture inner;
        private final OrderHttpServer server;
        private final HttpOrderTarget client;
        private final Workload workload;
        private final String described;
        private boolean stopped;

        OverTheWire(LabFixture inner, OrderHttpServer server, HttpOrderTarget client, Workload workload, String described) {
            this.inner = inner;
            this.server = server;
            this.client = client;
            this.workload = workload;
            this.described = described;
        }

        @Override
        public Workload workload() {
            return workload;
        }

        @Override
        public void beforeRun() {
            if (server != null) {
                warmUp(client);
                server.executor().series().start();
            }
            inner.beforeRun();
        }

        @Override
        public void afterRun() {
            try {
                stopServer();
            } finally {
                inner.afterRun();
            }
        }

        /** Stops the client and the server, once: after the run, or at close when the run never ended (it failed). */
        private void stopServer() {
            if (client != null && !stopped) {
                stopped = true;
                try {
                    client.close();
                } finally {
                    server.close();
                }
            }
        }

        @Override
        public DownstreamCounts downstreamCounts() {
            return inner.downstreamCounts();
        }

        @Override
        public MoneyEvidence money() {
            return inner.money();
        }

        @Override
        public void close() {
            try {
                stopServer(); // a fixture made and never run (a long run's, when the short run failed) stops its server too
            } finally {
                inner.close();
            }
        }

        @Override
        public List<ReportLine> extra() {
            List<ReportLine> lines = new ArrayList<>();
            lines.add(new ReportLine(archlab.report.RunReport.TRANSPORT_LINE, described));
            if (server != null) {
                lines.add(new ReportLine("server", server.serverLine()));
                lines.add(new ReportLine(SERVER_TIMELINE_LINE, server.executor().series().line()));
            }
            lines.addAll(inner.extra());
            return lines;
        }
    }
}
