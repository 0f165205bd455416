package archlab.claims;

import static archlab.claims.Bench.request;

import archlab.timeline.HiccupProbe;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One measurement, two claims: while a pay sits in a 300 ms charge, how long do a get of another order and a create
 * take? Chapter 12.1's evidence says the get waits for the charge (a lock held across the downstream call); chapter
 * 12.2's lesson says both answer at once. The same numbers judge both, each against its own bound, with a gap
 * between the bounds so that no solution can pass both.
 *
 * @param getNanos    the get's latency
 * @param createNanos the create's latency
 * @param probe       the machine's worst hiccup while they ran
 */
record ReadsDuringSlowPay(long getNanos, long createNanos, long probeWorstNanos) {

    static final Duration CHARGE = Duration.ofMillis(300);
    /** When the get is issued, after the pay started. */
    static final Duration INTO_THE_PAY = Duration.ofMillis(50);
    /** 12.1: held behind the pay means at least this long (half of what is left of the charge). */
    static final Duration HELD_AT_LEAST = Duration.ofMillis(150);
    /** 12.2: not held means at most this long, a third of the charge. */
    static final Duration FREE_AT_MOST = Duration.ofMillis(100);

    static ReadsDuringSlowPay measure(Checkpoint checkpoint) throws Exception {
        try (Bench bench = Bench.latencies(checkpoint, Duration.ZERO, CHARGE, Duration.ZERO);
             var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            String paying = bench.createBookOrder();
            String other = bench.createBookOrder();
            try (HiccupProbe probe = HiccupProbe.start()) {
                // the pay's own answer is not judged here (a solution with a per-call budget may give up on the charge)
                Future<?> pay = threads.submit(() -> Bench.timed(() -> bench.port.pay(request(Duration.ofSeconds(5)), paying)));
                Thread.sleep(INTO_THE_PAY.toMillis());
                Future<Bench.Timed<OrderPort.OrderView>> get = threads.submit(() -> Bench.timed(() -> bench.port.get(request(Duration.ofSeconds(5)), other)));
                Future<Bench.Timed<OrderPort.OrderView>> create = threads.submit(() -> Bench.timed(() ->
                        bench.port.create(request(Duration.ofSeconds(5)), "cust", Bench.BOOK_LINES)));
                long getNanos = get.get(10, TimeUnit.SECONDS).nanos();
                long createNanos = create.get(10, TimeUnit.SECONDS).nanos();
                pay.get(10, TimeUnit.SECONDS);
                return new ReadsDuringSlowPay(getNanos, createNanos, probe.worstNanos());
            }
        }
    }

    private String describe() {
        return String.format(Locale.ROOT, "issued %d ms into a pay's %d ms charge: get answered in %.1f ms, create in %.1f ms (machine hiccup max %.1f ms)",
                INTO_THE_PAY.toMillis(), CHARGE.toMillis(), getNanos / 1e6, createNanos / 1e6, probeWorstNanos / 1e6);
    }

    /** 12.1's evidence: the get was held; a stall cannot fake a hold longer than itself. */
    ClaimVerdict judgeHeld() {
        boolean held = getNanos >= HELD_AT_LEAST.toNanos();
        if (held && probeWorstNanos >= HELD_AT_LEAST.toNanos()) {
            return ClaimVerdict.notJudged(describe());
        }
        return ClaimVerdict.of(held, describe());
    }

    /** 12.2's lesson: neither was held; a slow answer while the machine stalled is not judged. */
    ClaimVerdict judgeFree() {
        boolean free = getNanos <= FREE_AT_MOST.toNanos() && createNanos <= FREE_AT_MOST.toNanos();
        if (!free && probeWorstNanos > FREE_AT_MOST.toNanos() / 2) {
            return ClaimVerdict.notJudged(describe());
        }
        return ClaimVerdict.of(free, describe());
    }
}
