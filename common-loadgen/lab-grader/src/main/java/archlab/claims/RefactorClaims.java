package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.claims.OrderPortException.Kind;
import archlab.downstream.ErrorInjection;
import archlab.downstream.FaultModel;
import archlab.downstream.LatencyModel;
import archlab.downstream.StubBehaviour;
import archlab.loadgen.RunResult;
import archlab.timeline.HiccupProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Chapter 12.2's lesson, graded from outside: the lock no longer covers downstream calls, a retried pay never
 * charges twice (the idempotency key), notification leaves the request path and happens exactly once (the outbox),
 * pays over the provider's quota are refused at the door without moving money (the token bucket), and under the
 * book's load nothing times out. Each fails on ch12-1 — that is how the claim shows it can fail.
 */
final class RefactorClaims {

    private RefactorClaims() {
    }

    static List<Claim> claims() {
        return List.of(
                Claim.builder("12.2-reads-not-held", Suite.LESSON_12_2).section("12.2 锁只管状态").points(3).load(false)
                        .statement("get and create answer while a pay sits in a slow charge")
                        .needs("charge 300 ms; get of another order and a create issued 50 ms into the pay: each answered within 100 ms")
                        .judge(checkpoint -> ReadsDuringSlowPay.measure(checkpoint).judgeFree()).build(),
                Claim.builder("12.2-retry-charges-once", Suite.LESSON_12_2).section("12.2 幂等扣款").points(3).load(false)
                        .statement("a pay retried after a lost reply or a timeout never charges the customer twice")
                        .needs("first charge's reply lost / first charge slower than the deadline; the pay retried until it is not a failure: one charge per order")
                        .judge(RefactorClaims::retryChargesOnce).build(),
                Claim.builder("12.2-notify-off-path", Suite.LESSON_12_2).section("12.2 发件箱").points(2).load(false)
                        .statement("notify leaves the request path and each PAID order is notified exactly once")
                        .needs("notify 300 ms: pay answered within 100 ms; within 5 s the order has exactly one notification, and still one 300 ms later")
                        .judge(RefactorClaims::notifyOffPath).build(),
                Claim.builder("12.2-limit-rejects-fast", Suite.LESSON_12_2).section("12.2 令牌桶").points(2).load(false)
                        .statement("pays over the provider's quota are rejected fast and move no money; the quota's worth is paid")
                        .needs("600 pays offered at 600/s for 1 s (the quota: 400/s, burst 100): 250..550 PAID with one charge each, at least 50 answered REJECTED (median within 100 ms, each within 1 s), no rejected order charged")
                        .judge(RefactorClaims::limitRejectsFast).build(),
                Claim.builder("12.2-book-load", Suite.LESSON_12_2).section("12.2 同样的负载").points(3).load(true)
                        .statement("under the book's load nothing times out and pay p99 stays far under the timeout")
                        .needs("book's load: timed out 0, pay p99 <= 100 ms (half the timeout); judged when send-lag p99 and hiccups stay within 50 ms")
                        .judge(RefactorClaims::bookLoad).build());
    }

    static ClaimVerdict retryChargesOnce(Checkpoint checkpoint) throws Exception {
        List<String> lines = new ArrayList<>();
        boolean once = true;
        // the provider charges, then the reply is lost (call 0)
        FaultModel firstReplyLost = callIndex -> callIndex == 0;
        try (Bench bench = Bench.of(checkpoint, StubBehaviour.constant(Duration.ZERO),
                StubBehaviour.constant(Duration.ofMillis(4)), firstReplyLost, StubBehaviour.constant(Duration.ZERO))) {
            once &= retryUntilAnswered(bench, Duration.ofSeconds(1), "lost reply", lines);
        }
        // the provider charges at once but answers after 300 ms (call 0), past a 100 ms deadline
        LatencyModel slowFirst = Bench.firstCall(Duration.ofMillis(300), Duration.ofMillis(4));
        try (Bench bench = Bench.of(checkpoint, StubBehaviour.constant(Duration.ZERO),
                new StubBehaviour(slowFirst, ErrorInjection.NONE), ErrorInjection.NONE, StubBehaviour.constant(Duration.ZERO))) {
            once &= retryUntilAnswered(bench, Duration.ofMillis(100), "reply past the deadline", lines);
        }
        return ClaimVerdict.of(once, String.join("; ", lines));
    }

    /** Pays, then retries (1 s deadlines) while the answer is a failure, up to 3 times; returns whether one charge. */
    private static boolean retryUntilAnswered(Bench bench, Duration firstDeadline, String fault, List<String> lines) throws Exception {
        String id = bench.createBookOrder();
        List<String> answers = new ArrayList<>();
        Duration deadline = firstDeadline;
        for (int attempt = 0; attempt < 4; attempt++) {
            Duration thisDeadline = deadline;
            Bench.Timed<OrderPort.OrderView> t = Bench.timed(() -> bench.port.pay(request(thisDeadline), id));
            answers.add(t.error() == null ? t.value().status() : t.error().kind().name());
            deadline = Duration.ofSeconds(1);
            if (t.error() == null || t.error().kind() == Kind.INVALID_STATE) {
                break;
            }
            Thread.sleep(50);
        }
        Bench.eventually(Duration.ofSeconds(2), () -> bench.port.isPaid(id));
        long charges = bench.chargesFor(id);
        lines.add(String.format(Locale.ROOT, "%s: pays answered %s, %d charge(s), isPaid=%s", fault, answers, charges, bench.port.isPaid(id)));
        return charges == 1;
    }

    static ClaimVerdict notifyOffPath(Checkpoint checkpoint) throws Exception {
        Duration notify = Duration.ofMillis(300);
        try (Bench bench = Bench.latencies(checkpoint, Duration.ZERO, Duration.ZERO, notify);
             HiccupProbe probe = HiccupProbe.start()) {
            String id = bench.createBookOrder();
            Bench.Timed<OrderPort.OrderView> pay = Bench.timed(() -> bench.port.pay(request(Duration.ofSeconds(2)), id));
            boolean fast = pay.millis() <= 100;
            boolean arrived = Bench.eventually(Duration.ofSeconds(5), () -> bench.notifier.notificationsFor(id) >= 1);
            Thread.sleep(notify.toMillis());
            long notifications = bench.notifier.notificationsFor(id);
            String measured = String.format(Locale.ROOT, "%s with notify at %d ms; notifications for the order: %d (%s)",
                    pay.describe("pay"), notify.toMillis(), notifications, probe.describe());
            if (!fast && probe.stalledBeyond(Duration.ofMillis(50))) {
                return ClaimVerdict.notJudged(measured);
            }
            return ClaimVerdict.of(fast && pay.error() == null && arrived && notifications == 1, measured);
        }
    }

    /** The provider's quota the chapter's token bucket guards: 400 charges a second, a burst of 100. */
    static final int QUOTA_PER_SECOND = 400;
    static final int QUOTA_BURST = 100;
    /**
     * The limiter claim offers pays at one and a half times the quota, for {@link #OVER_QUOTA_FOR}: a second of it is
     * a burst's worth over the quota, and a rate the wire can carry on two cores with every admitted pay's calls.
     */
    static final int OVER_QUOTA_RATE = 3 * QUOTA_PER_SECOND / 2;
    static final Duration OVER_QUOTA_FOR = Duration.ofSeconds(1);

    /**
     * Pays offered at one and a half times the provider's quota for a second, on a schedule (each on its own thread,
     * as the open-loop runner sends): about the quota's worth (burst + a second's refill) must be admitted and PAID
     * with one charge each, and the rest rejected fast without a charge. A solution that admits everything (or makes
     * pays wait for a token), or refuses everything, fails. A burst of all pays at one instant would measure the transport, not the bucket: over
     * the wire the pays would reach the service spread over the time it takes to carry them.
     */
    static ClaimVerdict limitRejectsFast(Checkpoint checkpoint) throws Exception {
        int pays = (int) (OVER_QUOTA_RATE * OVER_QUOTA_FOR.toMillis() / 1000);
        long periodNanos = 1_000_000_000L / OVER_QUOTA_RATE;
        try (Bench bench = Bench.book(checkpoint);
             var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < pays; i++) {
                ids.add(bench.createBookOrder());
            }
            List<Future<Bench.Timed<OrderPort.OrderView>>> answers = new ArrayList<>();
            try (HiccupProbe probe = HiccupProbe.start()) {
                long t0 = System.nanoTime() + 1_000_000L;
                long worstSendLagNanos = 0;
                for (int i = 0; i < pays; i++) {
                    long planned = t0 + i * periodNanos;
                    for (long wait; (wait = planned - System.nanoTime()) > 0; ) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    worstSendLagNanos = Math.max(worstSendLagNanos, System.nanoTime() - planned);
                    String id = ids.get(i);
                    answers.add(threads.submit(() -> Bench.timed(() -> bench.port.pay(request(Duration.ofSeconds(5)), id))));
                }
                int rejected = 0;
                List<Long> rejectionNanos = new ArrayList<>();
                long rejectedButCharged = 0;
                for (int i = 0; i < pays; i++) {
                    Bench.Timed<OrderPort.OrderView> t = answers.get(i).get(30, TimeUnit.SECONDS);
                    if (t.error() != null && t.error().kind() == Kind.REJECTED) {
                        rejected++;
                        rejectionNanos.add(t.nanos());
                        rejectedButCharged += bench.chargesFor(ids.get(i));
                    }
                }
                rejectionNanos.sort(null);
                long medianRejectionNanos = rejectionNanos.isEmpty() ? 0 : rejectionNanos.get(rejectionNanos.size() / 2);
                long slowestRejectionNanos = rejectionNanos.isEmpty() ? 0 : rejectionNanos.getLast();
                long paidOnce = ids.stream().filter(id -> bench.port.isPaid(id) && bench.chargesFor(id) == 1).count();
                long quotaWorth = QUOTA_BURST + QUOTA_PER_SECOND * OVER_QUOTA_FOR.toMillis() / 1000;
                String measured = String.format(Locale.ROOT, "%d pays offered at %d/s (the quota %d/s, burst %d; send lag max %.1f ms):"
                                + " %d PAID with one charge, %d rejected (median %.1f ms, slowest %.1f ms), charges for rejected orders %d (%s)",
                        pays, OVER_QUOTA_RATE, QUOTA_PER_SECOND, QUOTA_BURST, worstSendLagNanos / 1e6, paidOnce, rejected,
                        medianRejectionNanos / 1e6, slowestRejectionNanos / 1e6, rejectedButCharged, probe.describe());
                // fast: at the door, far from the 5 s deadline a limiter that waits for a token would use up
                boolean fast = medianRejectionNanos <= 100_000_000L && slowestRejectionNanos <= 1_000_000_000L;
                boolean admittedTheQuota = paidOnce >= quotaWorth / 2 && paidOnce <= quotaWorth + quotaWorth / 10;
                boolean rejectedTheRest = rejected >= (pays - quotaWorth) / 2;
                boolean holds = fast && admittedTheQuota && rejectedTheRest && rejectedButCharged == 0;
                boolean offeredOnTime = worstSendLagNanos <= 50_000_000L;
                if (!holds && (!offeredOnTime || (!fast && probe.stalledBeyond(Duration.ofMillis(25))))) {
                    return ClaimVerdict.notJudged(measured);
                }
                return ClaimVerdict.of(holds, measured);
            }
        }
    }

    static ClaimVerdict bookLoad(Checkpoint checkpoint) throws Exception {
        BookLoad load = BookLoad.run(checkpoint);
        RunResult run = load.run();
        long payP99Micros = run.operations().get("pay").latency().p99Micros();
        boolean holds = run.timedOut() == 0 && payP99Micros <= 100_000;
        String measured = String.format(Locale.ROOT, "offered %d, completed %d, timed out %d, rejected %d, pay p99 %.1f ms (%s)",
                run.offered(), run.completed(), run.timedOut(), run.rejected(), payP99Micros / 1e3, load.describeSchedule());
        if (!holds && !load.judgeable(Duration.ofMillis(50))) {
            return ClaimVerdict.notJudged(measured);
        }
        return ClaimVerdict.of(holds, measured);
    }
}
