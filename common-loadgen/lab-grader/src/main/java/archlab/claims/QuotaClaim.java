package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.claims.OrderPortException.Kind;
import archlab.timeline.HiccupProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Chapter 12.2's token bucket, graded from outside: pays offered faster than the payment provider's quota lets
 * through; the quota's worth is admitted and paid, the rest refused at the door, fast and without moving money. The
 * quota is the one the chapter promises ({@link #QUOTA_BURST} at once, {@link #QUOTA_PER_SECOND} a second), stated
 * here, never read from a checkpoint.
 *
 * <p>Both halves count. Refusing every pay is fast and moves no money, and proves no limiter: at least half the burst
 * must be answered PAID, each charged once. Admitting every pay (no limiter, or one that waits for a token) refuses
 * nothing: some must be answered REJECTED. ch12-1 has no limiter and fails; ch12-2 and ch12-3 admit the burst.
 */
final class QuotaClaim {

    /** The provider's quota the chapter states: bursts of 100 charges. */
    static final int QUOTA_BURST = 100;
    /** ... refilled at 400 charges a second. */
    static final int QUOTA_PER_SECOND = 400;
    /**
     * The claim offers pays at a quarter over the quota for {@link #OFFERED_FOR}: the burst and two seconds' refill
     * are the quota's worth, the rest is over it. A rate the wire carries on two cores with every admitted pay's calls,
     * and under which ch12-3's per-call budgets are not the machine's queueing.
     */
    static final int OFFERED_PER_SECOND = 5 * QUOTA_PER_SECOND / 4;
    static final Duration OFFERED_FOR = Duration.ofSeconds(2);
    /** The median refusal's bound, and the slowest's: at the door, far from the deadline a waiting limiter uses up. */
    static final Duration MEDIAN_REJECTION_BOUND = Duration.ofMillis(100);
    static final Duration SLOWEST_REJECTION_BOUND = Duration.ofSeconds(1);

    private QuotaClaim() {
    }

    static Claim claim() {
        long worth = QUOTA_BURST + QUOTA_PER_SECOND * OFFERED_FOR.toSeconds();
        long offered = OFFERED_PER_SECOND * OFFERED_FOR.toSeconds();
        return Claim.builder("12.2-limit-rejects-fast", Suite.LESSON_12_2).section("12.2 令牌桶").points(2).load(true)
                .statement("pays over the provider's quota are rejected fast and move no money, while the quota's worth is paid")
                .needs("the chapter's quota: bursts of " + QUOTA_BURST + ", " + QUOTA_PER_SECOND + " charges/s; " + offered
                        + " pays offered on a schedule at " + OFFERED_PER_SECOND + "/s for " + OFFERED_FOR.toSeconds()
                        + " s (the quota's worth: " + worth + ") on the book's stubs: " + worth / 2 + ".." + (worth + worth / 10)
                        + " answered PAID, each charged once; every other pay answered REJECTED, at least " + (offered - worth) / 2
                        + " of them, the median within " + MEDIAN_REJECTION_BOUND.toMillis() + " ms and each within "
                        + SLOWEST_REJECTION_BOUND.toSeconds() + " s; no rejected order charged; a run that does not hold is run once more"
                        + " on the same service and judged on the second")
                .judge(QuotaClaim::limitRejectsFast).build();
    }

    /** How a pay that ran out of a downstream call's own budget reads over the wire: the cause's class first. */
    static final String DOWNSTREAM_TIMEOUT = "archlab.downstream.DownstreamTimeoutException";

    /** How many pays, at what rate, warm the solution's process (and the wire) before the judged ones. */
    static final int WARM_UP_PAYS = 300;
    static final int WARM_UP_PER_SECOND = 300;

    /**
     * {@link #WARM_UP_PAYS} pays at {@link #WARM_UP_PER_SECOND}/s (within the quota) on the claim's own service, before
     * the judged ones: the code that carries a pay — the service's, its clients', the wire's — is compiled and its
     * connections open before the judged seconds, as the book's load is warmed before it is measured; then a pause for
     * the bucket to fill. Nothing of it is judged.
     */
    private static void warmUp(Bench bench, Duration deadline) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < WARM_UP_PAYS; i++) {
            ids.add(bench.createBookOrder());
        }
        for (Future<Bench.Timed<OrderPort.OrderView>> f : offer(bench, ids, WARM_UP_PER_SECOND, deadline).answers()) {
            f.get(30, TimeUnit.SECONDS);
        }
        Thread.sleep(1_000L * QUOTA_BURST / QUOTA_PER_SECOND); // the bucket full again before the judged pays
    }

    /** Offers a pay of each order, on a schedule of {@code perSecond}, each on its own thread; returns their answers and the worst send lag. */
    private static Offered offer(Bench bench, List<String> ids, int perSecond, Duration deadline) {
        long periodNanos = 1_000_000_000L / perSecond;
        List<Future<Bench.Timed<OrderPort.OrderView>>> answers = new ArrayList<>();
        long worstSendLagNanos = 0;
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            long t0 = System.nanoTime() + 1_000_000L;
            for (int i = 0; i < ids.size(); i++) {
                long planned = t0 + i * periodNanos;
                for (long wait; (wait = planned - System.nanoTime()) > 0; ) {
                    LockSupport.parkNanos(wait);
                }
                worstSendLagNanos = Math.max(worstSendLagNanos, System.nanoTime() - planned);
                String id = ids.get(i);
                answers.add(threads.submit(() -> Bench.timed(() -> bench.port.pay(request(deadline), id))));
            }
        }
        return new Offered(answers, worstSendLagNanos);
    }

    /** The answers of offered pays, in order, and how late the latest was sent. */
    private record Offered(List<Future<Bench.Timed<OrderPort.OrderView>>> answers, long worstSendLagNanos) {
    }

    /**
     * Pays on a schedule, each on its own thread as the open-loop runner sends them, not all at one instant: a burst
     * sent at once would measure the transport rather than the bucket — over the wire the pays reach the service
     * spread over the time it takes to carry them, and a spread burst is within the quota.
     */
    static ClaimVerdict limitRejectsFast(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        Duration deadline = in.millis("deadline", 4_000, 6_000);
        try (Bench bench = Bench.book(checkpoint, in)) {
            warmUp(bench, deadline);
            ClaimVerdict first = offerAndJudge(bench, deadline);
            if (first.outcome() == ClaimVerdict.Outcome.PASSED) {
                return first;
            }
            // once more on the same, warmer service (the bucket full again): one bad run on two shared cores does not
            // decide the grade; a solution without the bucket, or one that refuses, fails both
            Thread.sleep(1_000L * QUOTA_BURST / QUOTA_PER_SECOND);
            ClaimVerdict second = offerAndJudge(bench, deadline);
            return new ClaimVerdict(second.outcome(), "second run, after a first that did not hold (" + first.measured() + "); "
                    + second.measured());
        }
    }

    private static ClaimVerdict offerAndJudge(Bench bench, Duration deadline) throws Exception {
        int pays = (int) (OFFERED_PER_SECOND * OFFERED_FOR.toSeconds());
        long worth = QUOTA_BURST + QUOTA_PER_SECOND * OFFERED_FOR.toSeconds();
        {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < pays; i++) {
                ids.add(bench.createBookOrder());
            }
            try (HiccupProbe probe = HiccupProbe.start()) {
                Offered offered = offer(bench, ids, OFFERED_PER_SECOND, deadline);
                List<Future<Bench.Timed<OrderPort.OrderView>>> answers = offered.answers();
                long worstSendLagNanos = offered.worstSendLagNanos();
                int paid = 0;
                int paidOnce = 0;
                List<Long> rejections = new ArrayList<>();
                List<String> other = new ArrayList<>();
                int budgetTimeouts = 0;
                long rejectedButCharged = 0;
                for (int i = 0; i < pays; i++) {
                    Bench.Timed<OrderPort.OrderView> t = answers.get(i).get(30, TimeUnit.SECONDS);
                    if (t.error() != null && t.error().kind() == Kind.REJECTED) {
                        rejections.add(t.nanos());
                        rejectedButCharged += bench.chargesFor(ids.get(i));
                    } else if ("PAID".equals(Bench.answer(t))) {
                        paid++;
                        paidOnce += bench.paidOnce(ids.get(i)) ? 1 : 0;
                    } else {
                        String cause = t.error() == null || t.error().getCause() == null ? "" : String.valueOf(t.error().getCause().getMessage());
                        budgetTimeouts += t.error() != null && (t.error().getCause() instanceof archlab.downstream.DownstreamTimeoutException
                                || cause.startsWith(DOWNSTREAM_TIMEOUT)) ? 1 : 0;
                        if (other.size() < 2) {
                            String why = cause.isEmpty() ? "" : " (" + cause + ")";
                            other.add(Bench.answer(t) + (why.length() > 160 ? why.substring(0, 160) + "…)" : why));
                        }
                    }
                }
                rejections.sort(null);
                int rejected = rejections.size();
                long medianNanos = rejections.isEmpty() ? 0 : rejections.get(rejected / 2);
                long slowestNanos = rejections.isEmpty() ? 0 : rejections.getLast();
                int neither = pays - rejected - paid;
                String measured = String.format(Locale.ROOT, "%d pays offered at %d/s (send lag max %.1f ms): %d PAID (%d charged once),"
                                + " %d rejected (median %.1f ms, slowest %.1f ms), %d neither%s; charges for rejected orders %d (%s)",
                        pays, OFFERED_PER_SECOND, worstSendLagNanos / 1e6, paid, paidOnce, rejected, medianNanos / 1e6,
                        slowestNanos / 1e6, neither, other.isEmpty() ? "" : " " + other, rejectedButCharged, probe.describe());
                boolean fast = medianNanos <= MEDIAN_REJECTION_BOUND.toNanos() && slowestNanos <= SLOWEST_REJECTION_BOUND.toNanos();
                boolean work = paidOnce >= worth / 2 && paid <= worth + worth / 10 && paidOnce == paid && neither == 0
                        && rejected >= (pays - worth) / 2 && rejectedButCharged == 0;
                boolean offeredOnTime = worstSendLagNanos <= 50_000_000L;
                // not judged when the machine stalled: under a stall a service with per-call budgets fails pays it pays on
                // a quiet machine; whether the stall was the grading's own, the attempt's meter decides (Judgement)
                if (!(work && fast) && (!offeredOnTime || probe.stalledBeyond(MEDIAN_REJECTION_BOUND.dividedBy(2)))) {
                    return ClaimVerdict.notJudged(measured);
                }
                // nor when all that went wrong is a few pays past a downstream call's own budget (ch12-3's 20 ms reserve
                // attempts, over the wire from another process whose pauses this probe cannot see): the limiter did its
                // part; judged again on a fresh attempt, and never a pass
                boolean workButTheBudgetTimeouts = paidOnce >= worth / 2 && paid <= worth + worth / 10 && paidOnce == paid
                        && neither == budgetTimeouts && neither <= pays / 100 && rejected >= (pays - worth) / 2 && rejectedButCharged == 0;
                if (!work && fast && neither > 0 && workButTheBudgetTimeouts) {
                    return ClaimVerdict.notJudged(measured + "; every pay neither PAID nor rejected timed out on a downstream call's own"
                            + " budget, not at the limiter");
                }
                return ClaimVerdict.of(work && fast, measured);
            }
        }
    }
}
