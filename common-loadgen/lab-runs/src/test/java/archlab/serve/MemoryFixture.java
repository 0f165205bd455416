package archlab.serve;

import archlab.downstream.DownstreamCounts;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.loadgen.Workload;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import archlab.request.RequestContext;
import archlab.run.LabFixture;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixture whose service is a map of orders (id → paid): the book's workload over it, {@value #POOL} orders
 * pre-created, every call counted as an inventory call. Enough to serve over HTTP without a checkpoint. Thread-safe.
 */
final class MemoryFixture implements LabFixture {

    static final int POOL = 5;

    /** Orders by id: paid or not. */
    final Map<String, Boolean> orders = new ConcurrentHashMap<>();
    final AtomicLong calls = new AtomicLong();
    final AtomicInteger afterRuns = new AtomicInteger();
    private final BookWorkload workload;

    MemoryFixture() {
        AtomicInteger ids = new AtomicInteger();
        OrderTarget target = new OrderTarget() {
            @Override
            public String create(RequestContext ctx) {
                calls.incrementAndGet();
                String id = "m-" + ids.incrementAndGet();
                orders.put(id, false);
                return id;
            }

            @Override
            public void get(RequestContext ctx, String orderId) {
                calls.incrementAndGet();
                if (!orders.containsKey(orderId)) {
                    throw new IllegalArgumentException("no order " + orderId);
                }
            }

            @Override
            public void pay(RequestContext ctx, String orderId) {
                calls.incrementAndGet();
                if (orders.replace(orderId, true) == null) {
                    throw new IllegalArgumentException("no order " + orderId);
                }
            }
        };
        try {
            workload = BookWorkload.prepare(target, POOL);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public void afterRun() {
        afterRuns.incrementAndGet();
    }

    @Override
    public DownstreamCounts downstreamCounts() {
        return DownstreamCounts.builder().inventoryCalls(calls.get()).build();
    }

    @Override
    public MoneyEvidence money() {
        return new MoneyEvidence(0, 0, 0, 0, 0);
    }

    @Override
    public List<ReportLine> extra() {
        return List.of(new ReportLine("downstream_latency", "none (a map)"), new ReportLine("orders", (long) orders.size()));
    }
}
