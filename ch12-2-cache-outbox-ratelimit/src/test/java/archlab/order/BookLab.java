package archlab.order;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamCounts;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.LatencyModel;
import archlab.downstream.NotifierStub;
import archlab.db.LabDatabase;
import archlab.loadgen.BookWorkload;
import archlab.run.testing.StoreUnderTest;
import archlab.run.testing.CacheUnderTest;
import archlab.redis.LabRedis;
import archlab.run.LabCache;
import archlab.run.LabStore;
import archlab.loadgen.LatencySummary;
import archlab.clock.NanoClock;
import archlab.loadgen.Workload;
import archlab.run.LabFixture;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * This checkpoint wired for the book's load: downstream stubs (the book's 2 / 4 / 2 ms, or one of 12.3's
 * scenarios), the service with its
 * cache, pay limit and outbox relay (started), and the book's workload with its pre-created orders. A
 * new instance for every run, each ending with a full GC, so that the collection of the set-up's garbage does
 * not land in the measured run (the JIT warm-up before a JVM's first run is the harness's, the same for every
 * checkpoint: {@link archlab.run.JitWarmUp}). After the run it lets the outbox drain, then reports money,
 * delivery and cache figures.
 */
final class BookLab implements LabFixture {

    static final String MODULE = "ch12-2-cache-outbox-ratelimit";
    /** The label of this fixture's schemas with {@code -Dlab.store=postgres}. */
    static final String LABEL = "ch12_2";
    /** How long {@link #afterRun()} waits for the outbox to drain. */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    final Duration inventoryLatency;
    final Duration paymentLatency;
    final Duration notifyLatency;
    final OrderServiceSettings serviceSettings;
    final Downstream downstream;
    final OrderServiceAssembly parts;
    final OrderService service;
    final BookWorkload workload;
    private final ScenarioClock timeline;
    private final ReportLine downstreamLine;
    private boolean drained;
    /** The fixture's database with {@code -Dlab.store=postgres} (a fresh schema, dropped by {@link #close()}); null in memory. */
    final LabDatabase database;
    private final ReportLine storeLine;
    /** The cache's second level with {@code -Dlab.cache=redis} (keys under a prefix of its own, deleted by {@link #close()}); null without. */
    final LabRedis redis;
    final RedisCachedOrderTable secondLevel;

    /** The book's downstream, 2 / 4 / 2 ms, and the chapter's service. */
    BookLab() {
        this(DownstreamSettings.BOOK, OrderServiceSettings.DEFAULT, BookWorkload.DEFAULT_POOL);
    }

    /** The book's downstream and a service put together as {@code serviceSettings} say (the ablations). */
    BookLab(OrderServiceSettings serviceSettings) {
        this(DownstreamSettings.BOOK, serviceSettings, BookWorkload.DEFAULT_POOL);
    }

    BookLab(DownstreamSettings settings, OrderServiceSettings serviceSettings, int poolSize) {
        this(Downstream.create(settings), null, settings.inventoryLatency(), settings.paymentLatency(),
                settings.notifyLatency(), new ReportLine("downstream_latency", String.format("inventory=%dms payment=%dms notify=%dms",
                        settings.inventoryLatency().toMillis(), settings.paymentLatency().toMillis(),
                        settings.notifyLatency().toMillis())), serviceSettings, poolSize);
    }

    /** One of chapter 12.3's scenarios and the chapter's service; its time windows open relative to the start of the run. */
    BookLab(Scenario scenario) {
        this(scenario, new ScenarioClock(NanoClock.SYSTEM));
    }

    private BookLab(Scenario scenario, ScenarioClock timeline) {
        this(scenario.newDownstream(timeline), timeline, scenario.inventoryLatency(), scenario.paymentLatency(),
                scenario.notifyLatency(), new ReportLine("scenario", scenario.name() + ": " + String.join("; ", scenario.parameters())),
                OrderServiceSettings.DEFAULT, BookWorkload.DEFAULT_POOL);
    }

    private BookLab(Downstream downstream, ScenarioClock timeline, Duration inventoryLatency, Duration paymentLatency,
                    Duration notifyLatency, ReportLine downstreamLine, OrderServiceSettings serviceSettings, int poolSize) {
        this.downstream = downstream;
        this.timeline = timeline;
        this.inventoryLatency = inventoryLatency;
        this.paymentLatency = paymentLatency;
        this.notifyLatency = notifyLatency;
        this.downstreamLine = downstreamLine;
        this.serviceSettings = serviceSettings;
        LabStore store = StoreUnderTest.chosenAndUsable();
        this.database = store.postgres() ? store.openDatabase(LABEL) : null;
        this.storeLine = database == null ? null : store.reportLine(database);
        LabCache cache = CacheUnderTest.chosenAndUsable();
        this.redis = cache.redis() ? cache.openRedis(LABEL) : null;
        OrderTable table = database == null
                ? new InMemoryOrderTable(serviceSettings.tableReadLatency(), serviceSettings.clock())
                : new PostgresOrderTable(database.dataSource(), serviceSettings.clock());
        this.secondLevel = redis == null ? null
                : new RedisCachedOrderTable(table, redis.generationalCache(), RedisCachedOrderTable.Settings.DEFAULT);
        this.parts = OrderServiceAssembly.assemble(downstream.inventory(), downstream.payments(), downstream.notifier(), serviceSettings,
                secondLevel == null ? table : secondLevel);
        this.service = parts.service();
        try {
            this.workload = BookWorkload.prepare(new OrderServiceTarget(service), poolSize);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("could not pre-create the pay pool", e);
        }
        parts.relay().start();
        System.gc(); // start the run on a clean heap: the pool and the warm-up's garbage are not the run's to collect
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
    public Workload workload() {
        return workload;
    }

    /** Lets the relay deliver what the run left in the outbox, then stops it. */
    @Override
    public void afterRun() {
        if (database != null) {
            database.endRun();
        }
        drained = parts.relay().awaitDrained(DRAIN_LIMIT);
        service.close();
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
        List<ReportLine> lines = new ArrayList<>();
        lines.add(downstreamLine);
        if (database != null) {
            lines.add(storeLine);
            lines.addAll(database.reportLines());
        }
        lines.add(new ReportLine("table_read_latency", describe(serviceSettings.tableReadLatency())));
        OrderCache.Settings c = serviceSettings.cache();
        lines.add(new ReportLine("cache", c == null ? "off" : String.format(Locale.ROOT,
                "max=%d ttl=%dms±%.0f%% negative_ttl=%dms", c.maximumSize(), c.ttl().toMillis(), c.jitter() * 100,
                c.negativeTtl().toMillis())));
        parts.cache().ifPresent(cache -> {
            lines.add(new ReportLine("cache_hit_ratio", cache.hitRatio()));
            lines.add(new ReportLine("cache_hits", cache.stats().hitCount()));
            lines.add(new ReportLine("cache_misses", cache.stats().missCount()));
        });
        lines.add(new ReportLine("table_reads", parts.tableReads()));
        RateLimiter.Settings l = serviceSettings.payLimit();
        lines.add(new ReportLine("pay_limit", l == null ? "off" : l.ratePerSecond() + "/s burst " + l.burst()));
        lines.add(new ReportLine("limiter_rejected", parts.payLimiter().map(RateLimiter::rejected).orElse(0L)));

        Outbox outbox = parts.outbox();
        NotifierStub notifier = downstream.notifier();
        lines.add(new ReportLine("outbox_drained", drained));
        lines.add(new ReportLine("outbox_appended", outbox.appended()));
        lines.add(new ReportLine("outbox_delivered", outbox.delivered()));
        lines.add(new ReportLine("outbox_depth", outbox.depth()));
        lines.add(new ReportLine("outbox_parked", (long) outbox.parked().size()));
        lines.add(new ReportLine("outbox_redelivered", notifier.redeliveries()));
        LatencySummary ttn = outbox.timeToNotify();
        lines.add(new ReportLine("time_to_notify_p50_ms", ttn.p50Micros() / 1e3));
        lines.add(new ReportLine("time_to_notify_p99_ms", ttn.p99Micros() / 1e3));
        lines.add(new ReportLine("time_to_notify_max_ms", ttn.maxMicros() / 1e3));

        long paidNotifiedOnce = 0;
        long paidNotNotified = 0;
        long paidNotified = 0;
        for (String id : workload.pool()) {
            if (service.isPaid(id)) {
                long n = notifier.notificationsFor(id);
                paidNotifiedOnce += n == 1 ? 1 : 0;
                paidNotNotified += n == 0 ? 1 : 0;
                paidNotified += n > 0 ? 1 : 0;
            }
        }
        lines.add(new ReportLine("paid_notified_once", paidNotifiedOnce));
        lines.add(new ReportLine("paid_not_notified", paidNotNotified));
        lines.add(new ReportLine("notified_not_paid", notifier.ordersNotified() - paidNotified));
        lines.add(new ReportLine("duplicate_notifications", notifier.duplicateNotifications()));
        // last, so that the chapters' quotes of the lines above by position stay where they are
        lines.add(new ReportLine("outbox_retry_horizon", serviceSettings.relay().retryHorizon().toString()));
        lines.add(new ReportLine("outbox_redriven", outbox.redrives()));
        lines.add(new ReportLine("parked_entries", listed(outbox.parked().stream()
                .map(e -> e.messageId() + " (" + e.lastError() + ")").toList())));
        lines.add(new ReportLine("redriven_entries", listed(outbox.redrivenIds())));
        if (secondLevel != null) { // last, so that the lines above keep their positions
            RedisCachedOrderTable.Settings l2 = secondLevel.settings();
            RedisCachedOrderTable.Stats st = secondLevel.stats();
            lines.add(new ReportLine(LabCache.REPORT_LINE, String.format(Locale.ROOT, "redis ttl=%dms±%.0f%% negative_ttl=%dms"
                    + " timeout=%dms url=%s", l2.ttl().toMillis(), l2.jitter() * 100, l2.negativeTtl().toMillis(),
                    redis.timeout().toMillis(), redis.url())));
            lines.add(new ReportLine("cache_l2_hit_ratio", st.hitRatio()));
            lines.add(new ReportLine("cache_l2_hits", st.hits()));
            lines.add(new ReportLine("cache_l2_misses", st.misses()));
            lines.add(new ReportLine("cache_l2_errors", st.errors()));
            lines.add(new ReportLine("cache_l2_fills_refused", st.fillsRefused()));
            lines.add(new ReportLine("cache_l2_get_p50_ms", st.getLatency().p50Micros() / 1e3));
            lines.add(new ReportLine("cache_l2_get_p99_ms", st.getLatency().p99Micros() / 1e3));
        }
        return lines;
    }

    /** @return the first {@value #LISTED} items, and how many more; "none" for none */
    static String listed(List<String> items) {
        if (items.isEmpty()) {
            return "none";
        }
        String shown = String.join(", ", items.subList(0, Math.min(LISTED, items.size())));
        return items.size() <= LISTED ? shown : shown + " … (" + (items.size() - LISTED) + " more)";
    }

    /** How many parked or redriven entries a report names. */
    static final int LISTED = 10;

    /** @return the synchronous floor of one pay: inventory + payment (notify left the request path), in nanoseconds */
    long payFloorNanos() {
        return inventoryLatency.plus(paymentLatency).toNanos();
    }

    private static String describe(LatencyModel model) {
        return model instanceof LatencyModel.Constant c ? c.latency().toMillis() + "ms" : model.toString();
    }

    /** Stops the relay if {@link #afterRun()} did not, and drops the fixture's schema. */
    @Override
    public void close() {
        service.close();
        if (database != null) {
            database.close();
        }
        if (redis != null) {
            redis.close();
        }
    }
}
