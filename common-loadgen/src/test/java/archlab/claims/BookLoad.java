package archlab.claims;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.OrderTarget;
import archlab.loadgen.RequestContext;
import archlab.loadgen.RunResult;
import archlab.report.MoneyEvidence;
import java.time.Duration;
import java.util.List;

/**
 * The book's load (1,500 req/s for 3 s, 200 ms timeout, 40 / 35 / 25 create / get / pay over 4,000 pre-created
 * orders) against a solution through its {@link OrderPort}, on the book's stubs (2 / 4 / 2 ms): the same open-loop
 * runner and workload the checkpoints' own load runs use. After the run it lets the solution's background work
 * settle (up to {@link #SETTLE}) before it counts the money, so a reconciler is judged on what it does, not on how
 * fast.
 *
 * @param run   the runner's result
 * @param money charges, PAID orders and charged-but-not-PAID after settling
 * @param probe the machine's worst hiccup during the run, ns
 */
record BookLoad(RunResult run, MoneyEvidence money, long probeWorstNanos) {

    /** How long the money may take to settle after the run (a relay, a reconciler). */
    static final Duration SETTLE = Duration.ofSeconds(3);

    static BookLoad run(Checkpoint checkpoint) throws Exception {
        Downstream downstream = Downstream.create(DownstreamSettings.BOOK);
        try (OrderPort port = checkpoint.open(downstream.inventory(), downstream.payments(), downstream.notifier());
             StallProbe probe = StallProbe.start()) {
            BookWorkload workload = BookWorkload.prepare(target(port), BookWorkload.DEFAULT_POOL);
            RunResult run = new OpenLoopRunner().run(LoadSpec.book(), workload);
            long worst = probe.worstNanos();
            Bench.eventually(SETTLE, () -> downstream.ledger().chargedButNot(port::isPaid) == 0);
            MoneyEvidence money = MoneyEvidence.measure(downstream, workload.pool(), port::isPaid, id -> BookWorkload.QUANTITY);
            return new BookLoad(run, money, worst);
        }
    }

    private static OrderTarget target(OrderPort port) {
        List<OrderPort.Line> line = List.of(new OrderPort.Line(BookWorkload.SKU, BookWorkload.QUANTITY, BookWorkload.UNIT_PRICE_CENTS));
        // the runner classifies the solution's own exceptions (a rejection, a timeout), so they cross unwrapped
        return new OrderTarget() {
            @Override
            public String create(RequestContext ctx) throws Exception {
                try {
                    return port.create(ctx, BookWorkload.CUSTOMER, line).id();
                } catch (OrderPortException e) {
                    throw unwrapped(e);
                }
            }

            @Override
            public void get(RequestContext ctx, String orderId) throws Exception {
                try {
                    port.get(ctx, orderId);
                } catch (OrderPortException e) {
                    throw unwrapped(e);
                }
            }

            @Override
            public void pay(RequestContext ctx, String orderId) throws Exception {
                try {
                    port.pay(ctx, orderId);
                } catch (OrderPortException e) {
                    throw unwrapped(e);
                }
            }
        };
    }

    private static Exception unwrapped(OrderPortException e) {
        return e.getCause() instanceof Exception cause ? cause : e;
    }

    /** @return whether the generator kept its schedule within {@code slack} (send-lag p99) and the machine did not stall longer */
    boolean judgeable(Duration slack) {
        return run.sendLagWithin(slack.toNanos()) && probeWorstNanos <= slack.toNanos();
    }

    String describeSchedule() {
        return String.format(java.util.Locale.ROOT, "send-lag p99 %.1f ms, machine hiccup max %.1f ms",
                run.sendLag().p99Micros() / 1e3, probeWorstNanos / 1e6);
    }
}
