package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.timeline.HiccupProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Chapter 12.1's evidence: the baseline's flaw, measured from outside. One global lock held across every downstream
 * call serialises pays, holds a get behind a pay for as long as the pay's charge takes, and, under the book's load,
 * leaves customers charged while their orders never become PAID. True of ch12-1 only: these claims failing on ch12-2
 * is how the grader sees the flaw gone.
 */
final class BaselineEvidenceClaims {

    private BaselineEvidenceClaims() {
    }

    static List<Claim> claims() {
        return List.of(
                Claim.builder("12.1-pays-serialised", Suite.EVIDENCE_12_1).section("12.1 锁竞争").points(2).load(false)
                        .statement("pays of different orders are serialised: four concurrent pays never have two charges in flight")
                        .needs("3..5 concurrent pays (nominally 4), charge 80..130 ms (100): the provider never sees two charges in flight at once, and it does"
                                + " see one: every pay answered PAID, charged once")
                        .judge(BaselineEvidenceClaims::paysSerialised).build(),
                Claim.builder("12.1-get-held", Suite.EVIDENCE_12_1).section("12.1 锁竞争").points(2).load(false)
                        .statement("a get waits behind a pay for as long as the pay's charge takes")
                        .needs("charge 280..360 ms (nominally 300), get of another order issued 40..60 ms (50) into the pay: answered no sooner than"
                                + " 60% of the charge left (150 ms nominally); the pay answered PAID, charged once")
                        .judge(BaselineEvidenceClaims::getHeld).build(),
                Claim.builder("12.1-charged-not-paid", Suite.EVIDENCE_12_1).section("12.1 钱对不上").points(2).load(true)
                        .statement("under the book's load one charged customer in ten or more is charged while their order never becomes PAID")
                        .needs("book's mix at 1,000 req/s (BookLoad.GRADED_RATE: two thirds of the book's rate, the wire takes the rest), 3 s, timeout 180..240 ms, nominally 200; seeded customer, sku and price), then 3 s to settle:"
                                + " charged-but-not-PAID at least a tenth of the orders charged (STRANDED_SHARE), and at least one")
                        .judge(BaselineEvidenceClaims::chargedNotPaid).build());
    }

    static ClaimVerdict paysSerialised(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        // a charge slow enough that a lock held across it is unmistakable
        Duration slowCharge = in.millis("charge", 80, 130);
        int concurrentPays = (int) in.between("pays", 3, 5);
        try (Bench bench = Bench.latencies(checkpoint, in, Duration.ZERO, slowCharge, Duration.ZERO);
             var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < concurrentPays; i++) {
                ids.add(bench.createBookOrder());
            }
            long start = System.nanoTime();
            List<Future<Bench.Timed<OrderPort.OrderView>>> pays = new ArrayList<>();
            // what counts is how many charges the provider saw at once; a baseline that serialises its pays still pays them
            Duration deadline = in.millis("deadline", 4_000, 6_000);
            ids.forEach(id -> pays.add(threads.submit(() -> Bench.timed(() -> bench.port.pay(request(deadline), id)))));
            List<String> answers = new ArrayList<>();
            for (Future<Bench.Timed<OrderPort.OrderView>> f : pays) {
                answers.add(Bench.answer(f.get(10, TimeUnit.SECONDS)));
            }
            double wallMillis = (System.nanoTime() - start) / 1e6;
            int most = bench.charges.most();
            long paidOnce = ids.stream().filter(bench::paidOnce).count();
            return ClaimVerdict.of(most == 1 && answers.stream().allMatch("PAID"::equals) && paidOnce == concurrentPays, String.format(Locale.ROOT,
                    "%d concurrent pays with a %d ms charge: at most %d charge(s) in flight at once, %.1f ms in all; answered %s, %d PAID with one charge",
                    concurrentPays, slowCharge.toMillis(), most, wallMillis, answers, paidOnce));
        }
    }

    static ClaimVerdict getHeld(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        return ReadsDuringSlowPay.measure(checkpoint, in).judgeHeld();
    }

    static ClaimVerdict chargedNotPaid(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        BookLoad load = BookLoad.run(checkpoint, in);
        long stranded = load.money().chargedButNotPaid();
        long charged = load.money().distinctOrdersCharged();
        String measured = String.format(Locale.ROOT,
                "orders charged %d, PAID orders %d, charged but not PAID %d, needed %d (a tenth of the orders charged; timed out %d of %d; %s)",
                charged, load.money().paidOrders(), stranded, strandedNeeded(charged), load.run().timedOut(), load.run().offered(),
                load.describeSchedule());
        // a stall strands pays by itself in any checkpoint without a reconciler: enough stranded orders only show the
        // global lock's harm on a run that kept its schedule (too few is a fail either way: a stall only adds to them)
        if (enoughStranded(stranded, charged) && !load.judgeable(STRANDING_SLACK)) {
            return ClaimVerdict.notJudged(measured + "; the generator or the machine stalled beyond " + STRANDING_SLACK.toMillis()
                    + " ms, and a stall strands pays by itself");
        }
        return ClaimVerdict.of(enoughStranded(stranded, charged), measured);
    }

    /** @return whether {@code stranded} orders of {@code charged} show the lock's harm: at least one, and a tenth of them */
    static boolean enoughStranded(long stranded, long charged) {
        return stranded > 0 && stranded >= strandedNeeded(charged);
    }

    /** @return the stranded orders a tenth of {@code charged} asks for (at least 1) */
    static long strandedNeeded(long charged) {
        return Math.max(1, (long) Math.ceil(STRANDED_SHARE * charged));
    }

    /**
     * The share of the orders charged left not PAID that shows the global lock's harm. Under the lock a pay waits behind every
     * other pay's downstream calls and its deadline passes mid-charge, so tens of percent of the charges strand; a
     * checkpoint without the lock but also without a reconciler (ch12-2) strands a pay only when one charge's reply
     * crosses its deadline — CI saw 1 in 753 on a run that kept its schedule — so "more than none" cannot tell them apart.
     */
    static final double STRANDED_SHARE = 0.10;

    /** The send lag (p99) and machine stall (max) beyond which a stranded order in 12.1-charged-not-paid is not judged. */
    static final Duration STRANDING_SLACK = Duration.ofMillis(10);
}
