package archlab.order;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamCounts;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.PaymentLedger;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.Workload;
import archlab.report.LabFixture;
import archlab.report.MoneyEvidence;
import archlab.report.ReportLine;
import java.util.List;

/**
 * This checkpoint wired for the book's load: the 2 / 4 / 2 ms downstream stubs, the service, and the
 * book's workload with its 4,000 pre-created orders. A new instance for every run.
 */
final class BookLab implements LabFixture {

    final DownstreamSettings settings;
    final Downstream downstream;
    final OrderService service;
    final BookWorkload workload;

    BookLab() {
        this(DownstreamSettings.BOOK);
    }

    BookLab(DownstreamSettings settings) {
        this.settings = settings;
        this.downstream = Downstream.create(settings);
        this.service = new OrderService(downstream.inventory(), downstream.payments(), downstream.notifier());
        try {
            this.workload = BookWorkload.prepare(new OrderServiceTarget(service), BookWorkload.DEFAULT_POOL);
        } catch (Exception e) {
            throw new IllegalStateException("could not pre-create the pay pool", e);
        }
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public DownstreamCounts downstreamCounts() {
        return downstream.counts();
    }

    @Override
    public MoneyEvidence money() {
        PaymentLedger ledger = downstream.ledger();
        long paid = workload.pool().stream().filter(service::isPaid).count();
        return new MoneyEvidence(ledger.charges(), ledger.distinctOrdersCharged(), ledger.doubleCharges(), paid,
                ledger.chargedButNot(service::isPaid));
    }

    @Override
    public List<ReportLine> extra() {
        return List.of(new ReportLine("downstream_latency", String.format("inventory=%dms payment=%dms notify=%dms",
                settings.inventoryLatency().toMillis(), settings.paymentLatency().toMillis(),
                settings.notifyLatency().toMillis())));
    }

    /** @return the synchronous floor of one pay: Σ downstream latencies, in nanoseconds */
    long payFloorNanos() {
        return settings.inventoryLatency().plus(settings.paymentLatency()).plus(settings.notifyLatency()).toNanos();
    }
}
