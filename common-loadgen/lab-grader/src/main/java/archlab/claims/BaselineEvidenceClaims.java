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

    /** A charge slow enough that a lock held across it is unmistakable. */
    static final Duration SLOW_CHARGE = Duration.ofMillis(100);
    static final int CONCURRENT_PAYS = 4;

    private BaselineEvidenceClaims() {
    }

    static List<Claim> claims() {
        return List.of(
                Claim.builder("12.1-pays-serialised", Suite.EVIDENCE_12_1).section("12.1 锁竞争").points(2).load(false)
                        .statement("pays of different orders are serialised: four concurrent pays never have two charges in flight")
                        .needs("4 concurrent pays, charge 100 ms: the provider never sees two charges in flight at once")
                        .judge(BaselineEvidenceClaims::paysSerialised).build(),
                Claim.builder("12.1-get-held", Suite.EVIDENCE_12_1).section("12.1 锁竞争").points(2).load(false)
                        .statement("a get waits behind a pay for as long as the pay's charge takes")
                        .needs("charge 300 ms, get of another order issued 50 ms into the pay: answered no sooner than 150 ms")
                        .judge(BaselineEvidenceClaims::getHeld).build(),
                Claim.builder("12.1-charged-not-paid", Suite.EVIDENCE_12_1).section("12.1 钱对不上").points(2).load(true)
                        .statement("under the book's load some customers are charged while their order never becomes PAID")
                        .needs("book's load (1,500 req/s, 3 s, 200 ms timeout), then 3 s to settle: charged-but-not-PAID > 0")
                        .judge(BaselineEvidenceClaims::chargedNotPaid).build());
    }

    static ClaimVerdict paysSerialised(Checkpoint checkpoint) throws Exception {
        try (Bench bench = Bench.latencies(checkpoint, Duration.ZERO, SLOW_CHARGE, Duration.ZERO);
             var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < CONCURRENT_PAYS; i++) {
                ids.add(bench.createBookOrder());
            }
            long start = System.nanoTime();
            List<Future<?>> pays = new ArrayList<>();
            // a pay may fail (a solution with its own per-call budget gives up on a slow charge): what counts is
            // how many charges the provider saw at once
            ids.forEach(id -> pays.add(threads.submit(() -> Bench.timed(() -> bench.port.pay(request(Duration.ofSeconds(5)), id)))));
            for (Future<?> f : pays) {
                f.get(10, TimeUnit.SECONDS);
            }
            double wallMillis = (System.nanoTime() - start) / 1e6;
            int most = bench.charges.most();
            return ClaimVerdict.of(most == 1, String.format(Locale.ROOT,
                    "%d concurrent pays with a %d ms charge: at most %d charge(s) in flight at once, %.1f ms in all",
                    CONCURRENT_PAYS, SLOW_CHARGE.toMillis(), most, wallMillis));
        }
    }

    static ClaimVerdict getHeld(Checkpoint checkpoint) throws Exception {
        return ReadsDuringSlowPay.measure(checkpoint).judgeHeld();
    }

    static ClaimVerdict chargedNotPaid(Checkpoint checkpoint) throws Exception {
        BookLoad load = BookLoad.run(checkpoint);
        long stranded = load.money().chargedButNotPaid();
        return ClaimVerdict.of(stranded > 0, String.format(Locale.ROOT,
                "charges %d, PAID orders %d, charged but not PAID %d (timed out %d of %d; %s)",
                load.money().charges(), load.money().paidOrders(), stranded, load.run().timedOut(), load.run().offered(),
                load.describeSchedule()));
    }
}
