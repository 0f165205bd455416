package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.timeline.HiccupProbe;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One measurement, two claims: while a pay sits in a slow charge (nominally 300 ms), how long do a get of another
 * order and a create take? Chapter 12.1's evidence says the get waits for the charge (a lock held across the
 * downstream call); chapter 12.2's lesson says both answer at once. The same numbers judge both, each against its own
 * bound, with a gap between the bounds so that no solution can pass both. Either way the slow pay itself must be
 * answered PAID and charged once: a service that refuses the pay holds nobody, and has shown nothing.
 *
 * <p>The provider is slow on each order's first {@value #SLOW_CALLS} charges and fast after them (counted per order,
 * {@link OrderFaults}). A service without a per-call
 * budget makes one call and sits in it for the whole charge; one with a budget shorter than the charge (ch12-3: 80 ms,
 * 3 attempts) gives up on the first two attempts after its budget, and its third attempt, with the same key, is
 * answered at once with the charge the first made. So it still pays, and the pay is still in the provider for about
 * twice its budget, long after the get was issued.
 *
 * <p>The get and the create are issued {@code intoThePay} after the pay's charge reached the provider (the stub's own
 * record), not after the pay was sent: a service that slows its own pay down (an attack burned CPU to do it) would
 * otherwise have the reads arrive before its charge, and look free.
 *
 * @param charge          the charge's latency this attempt
 * @param intoThePay      when the get and the create were issued, after the pay's charge reached the provider
 * @param getNanos        the get's latency
 * @param createNanos     the create's latency
 * @param pay             what the slow pay answered, and whether its order ended PAID with exactly one charge
 * @param probeWorstNanos the machine's worst hiccup while they ran
 */
record ReadsDuringSlowPay(Duration charge, Duration intoThePay, long getNanos, long createNanos, SlowPay pay, long probeWorstNanos) {

    /** What the slow pay answered ({@code answered}, e.g. "the pay answered PAID in 301.2 ms") and whether it paid once. */
    record SlowPay(String answered, boolean paidOnce) {
    }

    /** How many of the provider's calls are slow: a budgeted service's first attempts. */
    static final int SLOW_CALLS = 2;
    /** The provider's answer after the slow calls (a retry's replay of the first charge). */
    static final Duration FAST = Duration.ofMillis(2);

    static ReadsDuringSlowPay measure(Checkpoint checkpoint, ClaimInputs in) throws Exception {
        Duration charge = in.millis("charge", 280, 360);
        Duration into = in.millis("into the pay", 40, 60);
        Duration deadline = in.millis("pay deadline", 4_000, 6_000);
        // slow for each order's first charges, not the provider's first calls: a solution cannot use the slowness up
        try (Bench bench = Bench.withOrderFaults(checkpoint, in, Duration.ZERO, FAST, Duration.ZERO,
                OrderFaults.slowCharges(SLOW_CALLS, charge));
             var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            String paying = bench.createBookOrder();
            String other = bench.createBookOrder();
            try (HiccupProbe probe = HiccupProbe.start()) {
                Future<Bench.Timed<OrderPort.OrderView>> pay = threads.submit(() -> Bench.timed(() -> bench.port.pay(request(deadline), paying)));
                // a pay that ends without a charge (refused, failed) held nothing: the reads go then, and the pay is judged
                long until = System.nanoTime() + deadline.toNanos();
                while (!bench.charges.awaitFirstCharge(paying, Duration.ofMillis(10)) && !pay.isDone() && System.nanoTime() < until) {
                    // the charge has not reached the provider yet
                }
                Thread.sleep(into.toMillis());
                Future<Bench.Timed<OrderPort.OrderView>> get = threads.submit(() -> Bench.timed(() -> bench.port.get(request(deadline), other)));
                Future<Bench.Timed<OrderPort.OrderView>> create = threads.submit(() -> Bench.timed(() ->
                        bench.port.create(request(deadline), in.customer(), in.bookLines())));
                long getNanos = get.get(10, TimeUnit.SECONDS).nanos();
                long createNanos = create.get(10, TimeUnit.SECONDS).nanos();
                Bench.Timed<OrderPort.OrderView> paid = pay.get(10, TimeUnit.SECONDS);
                SlowPay slow = new SlowPay(String.format(Locale.ROOT, "the pay answered %s in %.1f ms", Bench.answer(paid), paid.millis()),
                        Bench.answer(paid).equals("PAID") && bench.paidOnce(paying));
                return new ReadsDuringSlowPay(charge, into, getNanos, createNanos, slow, probe.worstNanos());
            }
        }
    }

    /** 12.1: held behind the pay means at least 60% of what is left of the charge when the get is issued (150 ms of 250). */
    long heldAtLeastNanos() {
        return (charge.toNanos() - intoThePay.toNanos()) * 6 / 10;
    }

    /** 12.2: not held means at most a third of the charge (100 ms of 300). */
    long freeAtMostNanos() {
        return charge.toNanos() / 3;
    }

    private String describe() {
        return String.format(Locale.ROOT, "issued %d ms into a pay's %d ms charge: get answered in %.1f ms, create in %.1f ms"
                        + " (held: at least %.1f ms, free: at most %.1f ms); %s, %s (machine hiccup max %.1f ms)",
                intoThePay.toMillis(), charge.toMillis(), getNanos / 1e6, createNanos / 1e6, heldAtLeastNanos() / 1e6,
                freeAtMostNanos() / 1e6, pay.answered(), pay.paidOnce() ? "PAID with one charge" : "not PAID with exactly one charge", probeWorstNanos / 1e6);
    }

    /** 12.1's evidence: the get was held, and the pay paid; a stall cannot fake a hold longer than itself. */
    ClaimVerdict judgeHeld() {
        boolean held = getNanos >= heldAtLeastNanos();
        if (held && pay.paidOnce() && probeWorstNanos >= heldAtLeastNanos()) {
            return ClaimVerdict.notJudged(describe());
        }
        return ClaimVerdict.of(held && pay.paidOnce(), describe());
    }

    /** 12.2's lesson: neither was held, and the pay paid; a slow answer while the machine stalled is not judged. */
    ClaimVerdict judgeFree() {
        boolean free = getNanos <= freeAtMostNanos() && createNanos <= freeAtMostNanos();
        if (!free && pay.paidOnce() && probeWorstNanos > freeAtMostNanos() / 2) {
            return ClaimVerdict.notJudged(describe());
        }
        return ClaimVerdict.of(free && pay.paidOnce(), describe());
    }
}
