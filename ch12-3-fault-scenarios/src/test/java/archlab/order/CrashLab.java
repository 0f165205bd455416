package archlab.order;

import archlab.clock.NanoClock;
import archlab.db.LabDatabase;
import archlab.downstream.DownstreamCounts;
import archlab.downstream.LatencyModel;
import archlab.downstream.remote.RemoteDownstream;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.Workload;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.run.LabFixture;
import archlab.serve.CrashSeries;
import java.net.URI;
import java.util.List;

/**
 * This checkpoint as the crash test serves it ({@link CrashServe}, a child process the test kills): the chapter's service
 * with its relay and reconciler started, its downstream the runner's stubs over loopback
 * ({@link CrashSeries#DOWNSTREAM_PROPERTY}), its orders in PostgreSQL when {@value #SCHEMA_PROPERTY} names the schema
 * the runner migrated, in its own heap otherwise. On start the reconciler adopts what a killed predecessor left PAYING,
 * and the relay delivers what it left in the outbox. One order is pre-created (a served checkpoint needs a pool).
 *
 * <p>The books — charges, notifications, reservations — are the runner's: {@link #money()} is not this fixture's to
 * measure.
 */
final class CrashLab implements LabFixture {

    /** The JDBC URL of the runner's PostgreSQL server. */
    static final String JDBC_URL_PROPERTY = "archlab.crash.jdbc.url";
    /** The schema the runner created and migrated; absent: orders in memory. */
    static final String SCHEMA_PROPERTY = "archlab.crash.schema";
    /** The child's pool: HikariCP's default. */
    static final int POOL_SIZE = LabDatabase.DEFAULT_POOL_SIZE;

    private final LabDatabase database;
    private final OrderService service;
    private final BookWorkload workload;

    CrashLab() {
        RemoteDownstream remote = RemoteDownstream.connect(URI.create(required(CrashSeries.DOWNSTREAM_PROPERTY)));
        String schema = System.getProperty(SCHEMA_PROPERTY);
        this.database = schema == null ? null : LabDatabase.attach(required(JDBC_URL_PROPERTY), schema, POOL_SIZE);
        OrderTable table = database == null ? new InMemoryOrderTable(LatencyModel.ZERO, NanoClock.SYSTEM)
                : new PostgresOrderTable(database.dataSource(), NanoClock.SYSTEM);
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(remote.inventory(), remote.payments(), remote.notifier(),
                OrderServiceSettings.DEFAULT, table);
        this.service = parts.service();
        parts.relay().start();
        parts.reconciler().start();
        try {
            this.workload = BookWorkload.prepare(new OrderServiceTarget(service), 1);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("could not pre-create the served pool's order", e);
        }
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("-D" + property + " is required: the crash test's child is started by CrashTest");
        }
        return v;
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public DownstreamCounts downstreamCounts() {
        return DownstreamCounts.builder().build(); // the stubs, and their counters, are the runner's
    }

    @Override
    public MoneyEvidence money() {
        throw new UnsupportedOperationException("the crash test's books are the runner's (CrashSeries)");
    }

    @Override
    public List<ReportLine> extra() {
        return List.of(new ReportLine("downstream_latency", "the runner's stubs at "
                + System.getProperty(CrashSeries.DOWNSTREAM_PROPERTY)), new ReportLine("scenario",
                "crash: store=" + (database == null ? "memory" : "postgres schema=" + database.schema())));
    }

    /** What SIGTERM does: the relay and the reconciler stop after their passes in progress. */
    @Override
    public void afterRun() {
        service.close();
    }

    @Override
    public void close() {
        service.close();
        if (database != null) {
            database.close();
        }
    }
}
