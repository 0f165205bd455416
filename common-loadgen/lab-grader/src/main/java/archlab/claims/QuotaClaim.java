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

/**
 * Chapter 12.2's token bucket, graded from outside: many pays at once, more than the payment provider's quota lets
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
    /** How many of the pays must be PAID: half the burst. */
    static final int PAID_AT_LEAST = QUOTA_BURST / 2;
    /** How long a refusal may take. */
    static final Duration REJECTION_BOUND = Duration.ofMillis(50);

    private QuotaClaim() {
    }

    static Claim claim() {
        return Claim.builder("12.2-limit-rejects-fast", Suite.LESSON_12_2).section("12.2 令牌桶").points(2).load(false)
                .statement("pays over the provider's quota are rejected fast and move no money, while the quota's worth is paid")
                .needs("the chapter's quota: bursts of " + QUOTA_BURST + ", " + QUOTA_PER_SECOND + " charges/s; 360..440 pays at once (nominally 400)"
                        + " on the book's stubs: at least " + PAID_AT_LEAST + " (half the burst) answered PAID, each charged once; every other pay"
                        + " answered REJECTED, some of them, each within " + REJECTION_BOUND.toMillis() + " ms, and no rejected order charged")
                .judge(QuotaClaim::limitRejectsFast).build();
    }

    static ClaimVerdict limitRejectsFast(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        int pays = (int) in.between("pays", 360, 440);
        Duration deadline = in.millis("deadline", 4_000, 6_000);
        try (Bench bench = Bench.book(checkpoint, in);
             var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < pays; i++) {
                ids.add(bench.createBookOrder());
            }
            List<Future<Bench.Timed<OrderPort.OrderView>>> answers = new ArrayList<>();
            try (HiccupProbe probe = HiccupProbe.start()) {
                ids.forEach(id -> answers.add(threads.submit(() -> Bench.timed(() -> bench.port.pay(request(deadline), id)))));
                int rejected = 0;
                int paid = 0;
                int paidOnce = 0;
                List<String> other = new ArrayList<>();
                long slowestRejectionNanos = 0;
                long rejectedButCharged = 0;
                for (int i = 0; i < pays; i++) {
                    Bench.Timed<OrderPort.OrderView> t = answers.get(i).get(30, TimeUnit.SECONDS);
                    if (t.error() != null && t.error().kind() == Kind.REJECTED) {
                        rejected++;
                        slowestRejectionNanos = Math.max(slowestRejectionNanos, t.nanos());
                        rejectedButCharged += bench.chargesFor(ids.get(i));
                    } else if ("PAID".equals(Bench.answer(t))) {
                        paid++;
                        paidOnce += bench.paidOnce(ids.get(i)) ? 1 : 0;
                    } else if (other.size() < 3) {
                        other.add(Bench.answer(t));
                    }
                }
                int neither = pays - rejected - paid;
                String measured = String.format(Locale.ROOT, "%d pays at once: %d PAID (%d charged once), %d rejected, %d neither%s; slowest rejection"
                                + " %.1f ms, charges for rejected orders %d (%s)",
                        pays, paid, paidOnce, rejected, neither, other.isEmpty() ? "" : " " + other, slowestRejectionNanos / 1e6,
                        rejectedButCharged, probe.describe());
                boolean fast = slowestRejectionNanos <= REJECTION_BOUND.toNanos();
                boolean work = paidOnce >= PAID_AT_LEAST && paidOnce == paid && neither == 0 && rejected > 0 && rejectedButCharged == 0;
                if (work && !fast && probe.stalledBeyond(REJECTION_BOUND.dividedBy(2))) {
                    return ClaimVerdict.notJudged(measured);
                }
                return ClaimVerdict.of(work && fast, measured);
            }
        }
    }
}
