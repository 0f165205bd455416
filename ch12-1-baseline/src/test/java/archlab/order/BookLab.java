package archlab.order;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamCounts;
import archlab.downstream.DownstreamSettings;
import archlab.loadgen.BookWorkload;
import archlab.clock.NanoClock;
import archlab.db.LabDatabase;
import archlab.loadgen.Workload;
import archlab.run.testing.StoreUnderTest;
import archlab.run.LabFixture;
import archlab.run.LabStore;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioClock;
import java.util.ArrayList;
import java.util.List;

/**
 * This checkpoint wired for the book's load: downstream stubs (the book's 2 / 4 / 2 ms, or one of
 * 12.3's scenarios), the service, and the book's workload with its 4,000 pre-created orders. A new
 * instance for every run.
 *
 * <p>The orders live where {@code -Dlab.store} says ({@link LabStore}): in memory (the default, the book's), or in
 * PostgreSQL — a fresh schema and a measured pool for this fixture alone ({@link LabDatabase}), the table
 * {@link PostgresOrderTable}; the report then carries the pool's lines ({@code db_pool}, {@code db_pool_timeline}), and
 * {@link #close()} drops the schema. Without a server the calling test is skipped, saying how to start one.
 */
final class BookLab implements LabFixture {

    final Downstream downstream;
    final OrderService service;
    final BookWorkload workload;
    /** The fixture's database with {@code -Dlab.store=postgres}; null in memory. */
    final LabDatabase database;
    private final ScenarioClock timeline;
    private final long payFloorNanos;
    private final List<ReportLine> extra;

    /** The book's downstream, 2 / 4 / 2 ms. */
    BookLab() {
        this(DownstreamSettings.BOOK);
    }

    BookLab(DownstreamSettings settings) {
        this(Downstream.create(settings), null,
                settings.inventoryLatency().plus(settings.paymentLatency()).plus(settings.notifyLatency()).toNanos(),
                List.of(new ReportLine("downstream_latency", String.format("inventory=%dms payment=%dms notify=%dms",
                        settings.inventoryLatency().toMillis(), settings.paymentLatency().toMillis(),
                        settings.notifyLatency().toMillis()))));
    }

    /** One of chapter 12.3's scenarios; its time windows open relative to the start of the run. */
    BookLab(Scenario scenario) {
        this(scenario, new ScenarioClock(NanoClock.SYSTEM));
    }

    private BookLab(Scenario scenario, ScenarioClock timeline) {
        this(scenario.newDownstream(timeline), timeline,
                scenario.inventoryLatency().plus(scenario.paymentLatency()).plus(scenario.notifyLatency()).toNanos(),
                List.of(new ReportLine("scenario", scenario.name() + ": " + String.join("; ", scenario.parameters()))));
    }

    private BookLab(Downstream downstream, ScenarioClock timeline, long payFloorNanos, List<ReportLine> extra) {
        this.downstream = downstream;
        this.timeline = timeline;
        this.payFloorNanos = payFloorNanos;
        LabStore store = StoreUnderTest.chosenAndUsable();
        this.database = store.postgres() ? store.openDatabase("ch12_1") : null;
        this.extra = database == null ? extra : withStore(extra, store.reportLine(database));
        this.service = new OrderService(downstream.inventory(), downstream.payments(), downstream.notifier(),
                database == null ? new InMemoryOrderTable() : new PostgresOrderTable(database.dataSource()));
        try {
            this.workload = BookWorkload.prepare(new OrderServiceTarget(service), BookWorkload.DEFAULT_POOL);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("could not pre-create the pay pool", e);
        }
    }

    private static List<ReportLine> withStore(List<ReportLine> extra, ReportLine storeLine) {
        List<ReportLine> lines = new ArrayList<>(extra);
        lines.add(storeLine);
        return lines;
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public void beforeRun() {
        if (timeline != null) {
            timeline.start();
        }
        if (database != null) {
            database.startRun();
        }
    }

    @Override
    public void afterRun() {
        if (database != null) {
            database.endRun();
        }
    }

    @Override
    public DownstreamCounts downstreamCounts() {
        return downstream.counts();
    }

    @Override
    public MoneyEvidence money() {
        // the book's orders have one item of BookWorkload.QUANTITY units
        return MoneyEvidence.measure(downstream, workload.pool(), service::isPaid, id -> BookWorkload.QUANTITY);
    }

    @Override
    public List<ReportLine> extra() {
        if (database == null) {
            return extra;
        }
        List<ReportLine> lines = new ArrayList<>(extra);
        lines.addAll(database.reportLines());
        return lines;
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
    }

    /** @return the synchronous floor of one pay: Σ downstream latencies, in nanoseconds */
    long payFloorNanos() {
        return payFloorNanos;
    }
}
