package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.LatencyModel;
import archlab.loadgen.BookWorkload;
import archlab.request.Deadline;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LatencySummary;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.loadgen.RunResult;
import archlab.run.LabRun;
import archlab.report.ReportWriter;
import archlab.trace.Trace;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the read cache buys, measured, never asserted as a timing: get latency with and without the cache
 * at a table read latency of 0 ms (the book's in-memory table) and 1 ms (a table behind a network hop).
 * Two workloads:
 * <ol>
 *   <li>the book's load, open loop (reports {@code cache-read-<0|1>ms-<on|off>}): its gets spread over 4,000
 *       orders and rarely repeat within 3 s, so most of them miss anyway;</li>
 *   <li>a hot set, closed loop on one thread: {@value #HOT_GETS} gets over {@value #HOT_SET} orders, where
 *       reads repeat.</li>
 * </ol>
 * Prints a table and writes {@code target/reports/cache-latency.txt} (+ .json). Asserted only: the
 * cache's table reads (one per distinct hot order) against none saved without it.
 */
@EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "3 s load runs: mvn test -Dbaseline")
@Order(4)
class CacheLatencyRunsTest {

    private static final int HOT_SET = 100;
    private static final int HOT_GETS = 2_000;

    record Row(String workload, int readLatencyMillis, boolean cache, long gets, long tableReads, double hitRatio,
               double p50Micros, double p99Micros, double meanMicros) {
    }

    @Test
    @DisplayName("prints get latency (p50 / p99 / mean) with and without the cache at 0 and 1 ms table read latency, for the book's load and a hot set")
    void getLatencyWithAndWithoutTheCache() throws Exception {
        archlab.run.testing.StoreUnderTest.inMemoryOnly("cache-latency", "it injects the in-memory table's read latency"
                + " (0 and 1 ms) behind the local cache alone");
        List<Row> rows = new ArrayList<>();
        for (int readMillis : new int[] {0, 1}) {
            for (boolean cache : new boolean[] {true, false}) {
                OrderServiceSettings settings = settings(readMillis, cache);
                String name = "cache-read-" + readMillis + "ms-" + (cache ? "on" : "off");
                LabRun.Reports o = LabRun.named(BookLab.MODULE, name).withOverrides().profiled(false)
                        .run(() -> new BookLab(settings));
                RunResult r = o.run();
                assertThat(r.offered()).isEqualTo(r.spec().plannedRequests());
                LatencySummary get = r.operations().get(BookWorkload.GET).latency();
                Map<String, Object> x = o.report().extraByName();
                rows.add(new Row("book load (open loop)", readMillis, cache, get.count(), (Long) x.get("table_reads"),
                        cache ? (Double) x.get("cache_hit_ratio") : 0.0,
                        get.p50Micros(), get.p99Micros(), get.meanMicros()));
            }
        }
        for (int readMillis : new int[] {0, 1}) {
            for (boolean cache : new boolean[] {true, false}) {
                Row row = hotSet(readMillis, cache);
                assertThat(row.tableReads()).as("table reads, " + row)
                        .isEqualTo(cache ? HOT_SET : HOT_GETS);
                rows.add(row);
            }
        }

        StringBuilder text = new StringBuilder("get latency with and without the read cache (table read latency 0 / 1 ms)\n");
        text.append("(µs: HdrHistogram at 1 µs resolution, so a sub-microsecond hit shows as 0; the mean is exact)\n");
        text.append(String.format(Locale.ROOT, "%-22s %8s %6s %6s %11s %9s %9s %9s %9s%n", "workload", "read_ms", "cache",
                "gets", "table_reads", "hit_ratio", "p50_us", "p99_us", "mean_us"));
        for (Row r : rows) {
            text.append(String.format(Locale.ROOT, "%-22s %8d %6s %6d %11d %9.3f %9.0f %9.0f %9.1f%n", r.workload(),
                    r.readLatencyMillis(), r.cache() ? "on" : "off", r.gets(), r.tableReads(), r.hitRatio(), r.p50Micros(),
                    r.p99Micros(), r.meanMicros()));
        }
        System.out.print(text);
        Path dir = ReportWriter.reportsDir();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("cache-latency.txt"), text);
        ReportWriter.writeJson(dir.resolve("cache-latency.json"), Map.of("rows", rows));
    }

    /**
     * One thread, {@value #HOT_GETS} gets drawn (seeded) from {@value #HOT_SET} orders; each get timed on its own. Its
     * hit ratio counts these gets only, not the JIT warm-up's before them.
     */
    private static Row hotSet(int readMillis, boolean cache) {
        Downstream ds = Downstream.create(DownstreamSettings.INSTANT);
        OrderServiceAssembly parts = OrderServiceAssembly.assemble(ds.inventory(), ds.payments(), ds.notifier(), settings(readMillis, cache));
        OrderService service = parts.service();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < HOT_SET; i++) {
            ids.add(service.create(RequestContext.background(), "cust", List.of(new Item("sku-a", 1, 1999))).id());
        }
        SplittableRandom random = new SplittableRandom(12);
        int warmUp = readMillis == 0 ? 20_000 : 0; // warm the JIT where a get is short enough for it to matter
        for (int i = 0; i < warmUp; i++) {
            service.get(RequestContext.background(), ids.get(random.nextInt(HOT_SET)));
        }
        long readsBefore = parts.tableReads();
        // the hit ratio of this measurement's gets only: Caffeine's counters also hold the warm-up's
        CacheStats statsBefore = parts.cache().map(OrderCache::stats).orElse(CacheStats.empty());
        ids.forEach(id -> parts.cache().ifPresent(c -> c.invalidate(id))); // measured from cold entries
        LatencyHistogram latency = new LatencyHistogram();
        NanoClock clock = NanoClock.SYSTEM;
        for (int i = 0; i < HOT_GETS; i++) {
            String id = ids.get(random.nextInt(HOT_SET));
            long start = clock.nanoTime();
            service.get(new RequestContext(i + 1, start, Deadline.NONE, clock, Trace.OFF), id);
            latency.record(clock.nanoTime() - start);
        }
        LatencySummary s = latency.summary();
        long reads = parts.tableReads() - readsBefore;
        return new Row("hot set (closed loop)", readMillis, cache, s.count(), reads,
                parts.cache().map(c -> c.stats().minus(statsBefore).hitRate()).orElse(0.0), s.p50Micros(),
                s.p99Micros(), s.meanMicros());
    }

    private static OrderServiceSettings settings(int readMillis, boolean cache) {
        OrderServiceSettings s = OrderServiceSettings.DEFAULT
                .withTableReadLatency(LatencyModel.constant(Duration.ofMillis(readMillis)));
        return cache ? s : s.withCache(null);
    }
}
