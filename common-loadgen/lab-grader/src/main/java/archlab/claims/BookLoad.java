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
 * The book's mix (at {@link #GRADED_RATE} req/s for 3 s, 40 / 35 / 25 create / get / pay over 4,000 pre-created orders) against a
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

    /**
     * The rate the claims offer the book's mix at: two thirds of the book's 1,500 req/s. A grade carries every request
     * over loopback HTTP both ways — into the solution's process and out of it to the grader's stubs — and on two cores
     * the grader's side of that wire (its HTTP client and the stubs' server) takes the larger part of the machine; at
     * the full rate the wire's own queueing, not the solution, decides whether a service with 20 ms call budgets keeps
     * its deadlines. The baseline still drowns at this rate (its one lock serialises every pay's calls).
     */
    static final int GRADED_RATE = 1_000;

    /** How long the book's load runs on a scratch service first, so the measured run meets compiled code. */
    static final Duration WARM_UP = Duration.ofSeconds(6);

    static BookLoad run(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        Duration timeout = in.millis("timeout", MIN_TIMEOUT_MS, MAX_TIMEOUT_MS);
        warmUp(checkpoint, in, timeout);
        Downstream downstream = Downstream.create(DownstreamSettings.BOOK);
        try (OrderPort port = checkpoint.open(downstream.inventory(), downstream.payments(), downstream.notifier())) {
            BookWorkload workload = BookWorkload.prepare(target(port, in), BookWorkload.DEFAULT_POOL);
            RunResult run = new OpenLoopRunner().run(LoadSpec.book().withTimeout(timeout).withRate(GRADED_RATE), workload);
            Bench.eventually(SETTLE, () -> downstream.ledger().chargedButNot(port::isPaid) == 0);
            java.util.List<String> pool = workload.pool(); // one read: the orders paid and the count agree
            MoneyEvidence money = MoneyEvidence.measure(downstream, pool, port::isPaid, id -> 1);
            long paidOnce = pool.subList(0, Math.min(pool.size(), workload.paysTaken())).stream()
                    .filter(id -> port.isPaid(id) && downstream.ledger().chargesFor(id).size() == 1).count();
            return new BookLoad(run, money, timeout, paidOnce);
        }
    }

    /**
     * The book's load for {@link #WARM_UP} on a scratch service over scratch stubs, in the solution's process (or
     * loader) the measured run will use, then closed: the lab's own runs warm the JIT the same way before they measure
     * (the lab's own runs: "warmup=jit 3s … on a scratch fixture"). Nothing of it is judged.
     */
    private static void warmUp(Checkpoint checkpoint, ClaimInputs in, Duration timeout) throws Exception {
        Downstream scratch = Downstream.create(DownstreamSettings.BOOK);
        try (OrderPort port = checkpoint.open(scratch.inventory(), scratch.payments(), scratch.notifier())) {
            BookWorkload workload = BookWorkload.prepare(target(port, in), BookWorkload.DEFAULT_POOL);
            new OpenLoopRunner().run(LoadSpec.book().withTimeout(timeout).withRate(GRADED_RATE).withDuration(WARM_UP), workload);
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
