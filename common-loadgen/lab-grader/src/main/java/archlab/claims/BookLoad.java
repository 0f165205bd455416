package archlab.claims;

import archlab.downstream.Downstream;
import archlab.downstream.DownstreamSettings;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.OrderTarget;
import archlab.request.RequestContext;
import archlab.loadgen.RunResult;
import archlab.report.MoneyEvidence;
import java.time.Duration;
import java.util.List;

/**
 * The book's load (1,500 req/s for 3 s, 40 / 35 / 25 create / get / pay over 4,000 pre-created orders) against a
 * solution through its {@link OrderPort}, on the book's stubs (2 / 4 / 2 ms): the same open-loop runner and workload
 * the checkpoints' own load runs use, with the attempt's {@link ClaimInputs}: its customer and line (one unit of its
 * sku at its price) instead of the book's, and a timeout of {@value #MIN_TIMEOUT_MS}..{@value #MAX_TIMEOUT_MS} ms
 * instead of the book's 200. After the run it lets the solution's background work settle (up to {@link #SETTLE})
 * before it counts the money, so a reconciler is judged on what it does, not on how fast.
 *
 * <p>The machine's own stalls during the run are the runner's: every run's {@link RunResult#hiccups()} comes from the
 * shared {@link archlab.timeline.HiccupProbe}.
 *
 * @param run      the runner's result, with its hiccups
 * @param money    charges, PAID orders and charged-but-not-PAID after settling
 * @param timeout  the run's timeout (every request's deadline)
 * @param paidOnce of the orders a pay was offered for (each once: the workload pays each pool order at most once),
 *                 those PAID with exactly one charge after settling
 */
record BookLoad(RunResult run, MoneyEvidence money, Duration timeout, long paidOnce) {

    /** How long the money may take to settle after the run (a relay, a reconciler). */
    static final Duration SETTLE = Duration.ofSeconds(3);
    static final long MIN_TIMEOUT_MS = 180;
    static final long MAX_TIMEOUT_MS = 240;

    static BookLoad run(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        Duration timeout = in.millis("timeout", MIN_TIMEOUT_MS, MAX_TIMEOUT_MS);
        Downstream downstream = Downstream.create(DownstreamSettings.BOOK);
        try (OrderPort port = checkpoint.open(downstream.inventory(), downstream.payments(), downstream.notifier())) {
            BookWorkload workload = BookWorkload.prepare(target(port, in), BookWorkload.DEFAULT_POOL);
            RunResult run = new OpenLoopRunner().run(LoadSpec.book().withTimeout(timeout), workload);
            Bench.eventually(SETTLE, () -> downstream.ledger().chargedButNot(port::isPaid) == 0);
            MoneyEvidence money = MoneyEvidence.measure(downstream, workload.pool(), port::isPaid, id -> 1);
            long paidOnce = workload.pool().subList(0, workload.paysTaken()).stream()
                    .filter(id -> port.isPaid(id) && downstream.ledger().chargesFor(id).size() == 1).count();
            return new BookLoad(run, money, timeout, paidOnce);
        }
    }

    private static OrderTarget target(OrderPort port, ClaimInputs in) {
        List<OrderPort.Line> line = in.bookLines();
        String customer = in.customer();
        // the runner classifies the solution's own exceptions (a rejection, a timeout), so they cross unwrapped
        return new OrderTarget() {
            @Override
            public String create(RequestContext ctx) throws Exception {
                try {
                    return port.create(ctx, customer, line).id();
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
        return run.sendLagWithin(slack.toNanos()) && run.hiccups().maxMicros() * 1_000L <= slack.toNanos();
    }

    String describeSchedule() {
        return String.format(java.util.Locale.ROOT, "send-lag p99 %.1f ms, machine hiccup p99 %.1f ms max %.1f ms",
                run.sendLag().p99Micros() / 1e3, run.hiccups().p99Micros() / 1e3, run.hiccups().maxMicros() / 1e3);
    }
}
