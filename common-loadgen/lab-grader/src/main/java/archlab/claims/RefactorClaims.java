package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.claims.OrderPortException.Kind;
import archlab.timeline.HiccupProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Chapter 12.2's lesson, graded from outside: the lock no longer covers downstream calls, a retried pay never
 * charges twice (the idempotency key), notification leaves the request path and happens exactly once even when the
 * notifier failed at first (the outbox), pays over the provider's quota are refused at the door without moving money
 * while the quota is paid (the token bucket, {@link QuotaClaim}), and under the book's load nothing times out and the
 * pays are paid. Each fails on ch12-1 — that is how the claim shows it can fail — and each needs the work done: a
 * service that refuses its pays holds no reader, charges nobody twice, notifies nobody late and times nothing out,
 * and passes none of them.
 */
final class RefactorClaims {

    /** How much of the book load's pays must end PAID with exactly one charge (ch12-2 and ch12-3 pay all of them). */
    static final double BOOK_LOAD_PAID_SHARE = 0.95;

    private RefactorClaims() {
    }

    static List<Claim> claims() {
        return List.of(
                Claim.builder("12.2-reads-not-held", Suite.LESSON_12_2).section("12.2 锁只管状态").points(3).load(false)
                        .statement("get and create answer while a pay sits in a slow charge")
                        .needs("charge 280..360 ms (nominally 300; the provider slow on each order's first 2 charges, so a service with a per-call budget pays on a"
                                + " later attempt); a get of another order and a create issued 40..60 ms (50) into the pay: each answered within a third"
                                + " of the charge (100 ms nominally), and the slow pay answered PAID, charged once")
                        .judge((checkpoint, in) -> ReadsDuringSlowPay.measure(checkpoint, in).judgeFree()).build(),
                Claim.builder("12.2-retry-charges-once", Suite.LESSON_12_2).section("12.2 幂等扣款").points(3).load(false)
                        .statement("a pay retried after a lost reply or a timeout never charges the customer twice, nor takes an unknown outcome as charged")
                        .needs("faults on each order's first charge (counted per order): its reply lost / its reply after 280..360 ms, slower than the first pay's 130..160 ms deadline / its request lost"
                                + " on its way (never charged, a timeout at the deadline; first deadline 200..260 ms); the pay retried (deadlines 0.8..1.2 s) while the order is not PAID, for up to 3 s:"
                                + " in all three cases the order ends PAID (answered PAID, or isPaid within 2 s) with exactly one charge")
                        .judge(RefactorClaims::retryChargesOnce).build(),
                Claim.builder("12.2-notify-off-path", Suite.LESSON_12_2).section("12.2 发件箱").points(2).load(false)
                        .statement("notify leaves the request path and each PAID order is notified exactly once, even when the notifier failed at first")
                        .needs("notify 280..360 ms (nominally 300) and each order's first 1..2 notifications refused: pay answered PAID within 100 ms, charged once;"
                                + " within 5 s the order has exactly one notification (a failed notification is retried), and still one a notify later")
                        .judge(RefactorClaims::notifyOffPath).build(),
                QuotaClaim.claim(),
                Claim.builder("12.2-book-load", Suite.LESSON_12_2).section("12.2 同样的负载").points(3).load(true)
                        .statement("under the book's load nothing times out, pay p99 stays far under the timeout, and the pays are paid")
                        .needs(String.format(Locale.ROOT, "book's mix at 1,000 req/s (BookLoad.GRADED_RATE: two thirds of the book's rate, the wire takes the rest; timeout 180..240 ms, nominally 200; seeded customer, sku and price): timed out 0,"
                                + " pay p99 <= half the timeout, pays offered > 0, and at least %.0f%% of the pays offered answered OK and their orders"
                                + " PAID (isPaid) with exactly one charge each after 3 s to settle; a run that does not hold is run once more and judged"
                                + " on the second; judged when send-lag p99 and hiccups stay within 50 ms",
                                BOOK_LOAD_PAID_SHARE * 100))
                        .judge(RefactorClaims::bookLoad).build());
    }

    /** How long the retrying client keeps at it before it gives up. */
    static final Duration RETRY_FOR = Duration.ofSeconds(3);

    static ClaimVerdict retryChargesOnce(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        List<String> lines = new ArrayList<>();
        boolean once = true;
        // every fault on the claim's order's first charge (counted per order: a solution cannot use it up elsewhere)
        // the provider charges, then the reply is lost
        try (Bench bench = Bench.withOrderFaults(checkpoint, in, Duration.ZERO, in.millis("charge", 3, 5), Duration.ZERO,
                OrderFaults.lostReplies(1))) {
            once &= retryUntilAnswered(bench, in.millis("retry deadline", 800, 1_200), "lost reply", lines);
        }
        // the provider charges at once but answers after the slow charge, past the first pay's deadline
        try (Bench bench = Bench.withOrderFaults(checkpoint, in, Duration.ZERO, in.millis("charge", 3, 5), Duration.ZERO,
                OrderFaults.slowCharges(1, in.millis("slow charge", 280, 360)))) {
            // the first pay's deadline is shorter than the late reply but leaves room for a second attempt inside it (a
            // service with an 80 ms call budget and its key pays there): the case judges double charging, not a reconciler
            once &= retryUntilAnswered(bench, in.millis("first deadline", 130, 160), "reply past the deadline", lines);
        }
        // the first charge never reaches the provider: nothing was charged, and the service hears only a timeout. The
        // first pay's deadline leaves room for a second attempt inside it (a service that retries with its key pays
        // there), so the case judges what the service makes of an unknown outcome, not whether it has a reconciler
        try (Bench bench = Bench.withOrderFaults(checkpoint, in, Duration.ZERO, in.millis("charge", 3, 5), Duration.ZERO,
                OrderFaults.lostRequests(1))) {
            once &= retryUntilAnswered(bench, in.millis("lost-request deadline", 200, 260), "request lost on its way", lines);
        }
        return ClaimVerdict.of(once, String.join("; ", lines));
    }

    /**
     * Pays, then retries while the order is not PAID — a failure, or an invalid state while the service still settles
     * the first pay (a reconciler that asks the provider, then releases the order) — every 50..100 ms for up to
     * {@link #RETRY_FOR}; returns whether the order ended PAID with one charge.
     */
    private static boolean retryUntilAnswered(Bench bench, Duration firstDeadline, String fault, List<String> lines) throws Exception {
        String id = bench.createBookOrder();
        List<String> answers = new ArrayList<>();
        Duration deadline = firstDeadline;
        boolean answeredPaid = false;
        long end = System.nanoTime() + RETRY_FOR.toNanos();
        for (int attempt = 0; attempt < 20 && System.nanoTime() < end; attempt++) {
            Duration thisDeadline = deadline;
            Bench.Timed<OrderPort.OrderView> t = Bench.timed(() -> bench.port.pay(request(thisDeadline), id));
            String answer = Bench.answer(t);
            if (answers.isEmpty() || !answers.getLast().equals(answer) || !answer.equals(Kind.INVALID_STATE.name())) {
                answers.add(answer);
            }
            answeredPaid = "PAID".equals(answer);
            deadline = bench.inputs.millis("retry deadline", 800, 1_200);
            if (t.error() == null || bench.port.isPaid(id)) {
                break;
            }
            Thread.sleep(attempt == 0 ? 50 : 100);
        }
        boolean paid = answeredPaid || Bench.eventually(Duration.ofSeconds(2), () -> bench.port.isPaid(id));
        long charges = bench.chargesFor(id);
        lines.add(String.format(Locale.ROOT, "%s: pays answered %s, %d charge(s), isPaid=%s", fault, answers, charges, bench.port.isPaid(id)));
        return paid && charges == 1;
    }

    static ClaimVerdict notifyOffPath(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        Duration notify = in.millis("notify", 280, 360);
        int failing = (int) in.between("notify calls failing", 1, 2);
        // the order's first notifications refused (per order: a solution cannot use the failures up elsewhere)
        try (Bench bench = Bench.withOrderFaults(checkpoint, in, Duration.ZERO, Duration.ZERO, notify,
                OrderFaults.failingNotifications(failing));
             HiccupProbe probe = HiccupProbe.start()) {
            String id = bench.createBookOrder();
            Bench.Timed<OrderPort.OrderView> pay = Bench.timed(() -> bench.port.pay(request(in.millis("pay deadline", 1_600, 2_400)), id));
            boolean fast = pay.millis() <= 100;
            boolean paid = "PAID".equals(Bench.answer(pay)) && bench.paidOnce(id);
            boolean arrived = Bench.eventually(Duration.ofSeconds(5), () -> bench.notifier.notificationsFor(id) >= 1);
            Thread.sleep(notify.toMillis());
            long notifications = bench.notifier.notificationsFor(id);
            String measured = String.format(Locale.ROOT, "pay answered %s in %.1f ms (%s) with notify at %d ms and the order's first %d notification(s) refused;"
                            + " calls that reached the notifier %d, notifications for the order: %d (%s)",
                    Bench.answer(pay), pay.millis(), paid ? "PAID with one charge" : "not PAID with exactly one charge", notify.toMillis(),
                    failing, bench.notifier.counters().calls(), notifications, probe.describe());
            if (!fast && paid && probe.stalledBeyond(Duration.ofMillis(50))) {
                return ClaimVerdict.notJudged(measured);
            }
            return ClaimVerdict.of(fast && paid && arrived && notifications == 1, measured);
        }
    }

    /**
     * The book's load, judged on one run; a run that does not hold is run once more (a fresh service in the same,
     * warmer process), and the claim is judged on that second run: one bad run on two shared cores — the solution's
     * process, the grader's load and its stubs, the wire between them — does not decide the grade. A solution that
     * cannot carry the load fails both.
     */
    static ClaimVerdict bookLoad(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        BookLoadJudgement first = BookLoadJudgement.of(BookLoad.run(checkpoint, in));
        if (first.holds()) {
            return first.verdict("");
        }
        BookLoadJudgement second = BookLoadJudgement.of(BookLoad.run(checkpoint, in));
        return second.verdict("second run, after a first that did not hold (" + first.shortly() + "); ");
    }

    /** One run of the book's load against its bounds. */
    private record BookLoadJudgement(BookLoad load, long payP99Micros, long boundMicros, long needed, boolean paid) {

        static BookLoadJudgement of(BookLoad load) {
            var pay = load.run().operations().get("pay");
            long paysOffered = pay == null ? 0 : pay.offered();
            long paysOk = pay == null ? 0 : pay.completed();
            long needed = (long) Math.ceil(paysOffered * BOOK_LOAD_PAID_SHARE);
            boolean paid = paysOffered > 0 && paysOk >= needed && load.paidOnce() >= needed;
            return new BookLoadJudgement(load, pay == null ? 0 : pay.latency().p99Micros(), load.timeout().toNanos() / 2_000,
                    needed, paid);
        }

        boolean holds() {
            return load.run().timedOut() == 0 && payP99Micros <= boundMicros && paid;
        }

        /** @return the run in a few words: timed out, pay p99, pays done */
        String shortly() {
            return String.format(Locale.ROOT, "timed out %d, pay p99 %.1f ms, PAID with one charge %d of %d needed",
                    load.run().timedOut(), payP99Micros / 1e3, load.paidOnce(), needed);
        }

        ClaimVerdict verdict(String prefix) {
            var run = load.run();
            var pay = run.operations().get("pay");
            String measured = prefix + String.format(Locale.ROOT, "timeout %d ms: offered %d, completed %d, timed out %d, rejected %d,"
                            + " pay p99 %.1f ms (bound %.1f); pays offered %d, answered OK %d, orders PAID with one charge %d (needs %d) (%s)",
                    load.timeout().toMillis(), run.offered(), run.completed(), run.timedOut(), run.rejected(), payP99Micros / 1e3,
                    boundMicros / 1e3, pay == null ? 0 : pay.offered(), pay == null ? 0 : pay.completed(), load.paidOnce(), needed,
                    load.describeSchedule());
            // a run the machine disturbed is not judged here, whatever its answers were: under a stall a service with
            // per-call budgets fails or refuses pays that it pays on a quiet machine. Whether the stall was the
            // grading's own (the solution burning the machine included), the attempt's meter decides (Judgement)
            if (!holds() && !load.judgeable(Duration.ofMillis(50))) {
                return ClaimVerdict.notJudged(measured);
            }
            return ClaimVerdict.of(holds(), measured);
        }
    }
}
