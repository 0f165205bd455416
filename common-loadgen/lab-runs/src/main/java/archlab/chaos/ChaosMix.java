package archlab.chaos;

import archlab.loadgen.LoadSpec;
import archlab.scenario.Scenario;
import archlab.scenario.ScenarioClock.Window;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * A fault mix nobody chose: one {@link Scenario} drawn at random, from a seed, out of the whole space the catalogue's
 * scenarios sample — every latency, every fault rate (lost replies up to 50 %), a heavy payment tail, a payment stall
 * and a notifier outage of random position and length, some of them outlasting the run, some never ending.
 *
 * <p>The trap it avoids: checking a promise only against the worlds the author thought of. The catalogue's three
 * fault worlds were chosen by hand, and the relay that survived them lost every notification of a notifier outage
 * a few seconds longer than the one the catalogue happened to hold. A drawn mix meets the mechanism where nobody
 * looked; a seed makes the draw repeatable, so a mix that breaks a promise is replayed by its seed alone.
 *
 * <p>Contract: {@link #draw} is a pure function of its seed. Windows are measured from the start of the run
 * ({@link #LOAD}'s {@value #RUN_MILLIS} ms); a notifier outage drawn as lasting for ever ends {@link #FOREVER} after it
 * began, long after any check: the notifier is still down when the run's invariants are checked.
 *
 * <p>Thread-safety: stateless.
 */
public final class ChaosMix {

    /** How long a chaos run offers load, ms: short, so that many mixes fit in a minute. */
    public static final long RUN_MILLIS = 400;
    /** The load of every chaos run: the book's rate, mix and timeout, for {@value #RUN_MILLIS} ms, untraced (no segment is read). */
    public static final LoadSpec LOAD = LoadSpec.book().withDuration(Duration.ofMillis(RUN_MILLIS)).withTraceEvery(0);
    /** The end of an outage that never ends, measured from its start: far past any check. */
    public static final Duration FOREVER = Duration.ofDays(1);

    private ChaosMix() {
    }

    /** @return the mix of {@code seed}: the same scenario for the same seed, on every machine */
    public static Scenario draw(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Duration run = LOAD.duration();
        Duration inventory = Duration.ofMillis(1 + r.nextInt(5));
        Duration payment = Duration.ofMillis(2 + r.nextInt(59));
        Duration notify = Duration.ofMillis(1 + r.nextInt(5));
        double tail = sometimes(r, 0.05);
        Duration tailLatency = Duration.ofMillis(300 + r.nextInt(1_701));
        Window stall = r.nextInt(10) < 4 ? window(r, run, Duration.ofMillis(50), run.multipliedBy(3).dividedBy(2), false) : null;
        double inventoryErrors = sometimes(r, 0.30);
        double declines = sometimes(r, 0.30);
        double lostReplies = sometimes(r, 0.50);
        double notifyErrors = sometimes(r, 0.50);
        Window notifierDown = r.nextInt(10) < 6
                ? window(r, run, Duration.ofMillis(100), run.multipliedBy(2), r.nextInt(4) == 0) : null;
        return Scenario.builder("chaos-" + seed, "a fault mix drawn at random from seed " + seed)
                .latencies(inventory, payment, notify)
                .paymentTail(tail, tailLatency)
                .paymentStall(stall)
                .inventoryErrors(inventoryErrors)
                .paymentDeclines(declines)
                .paymentLostReplies(lostReplies)
                .notifyErrors(notifyErrors)
                .notifierDown(notifierDown)
                .seed(seed)
                .build();
    }

    /** @return whether {@code mix}'s notifier outage never ends: the notifier is still down when the run is checked */
    public static boolean notifierDownForEver(Scenario mix) {
        return mix.notifierDown() != null && mix.notifierDown().to().compareTo(FOREVER) >= 0;
    }

    /** Half the mixes have none of a fault; the others a rate uniform in [0, max]. */
    private static double sometimes(SplittableRandom r, double max) {
        return r.nextBoolean() ? 0 : r.nextDouble() * max;
    }

    /** A window opening anywhere in the run, lasting [shortest, longest] (it may outlast the run), or for ever. */
    private static Window window(SplittableRandom r, Duration run, Duration shortest, Duration longest, boolean forEver) {
        Duration from = Duration.ofMillis(r.nextLong(run.toMillis()));
        Duration length = Duration.ofMillis(shortest.toMillis() + r.nextLong(longest.toMillis() - shortest.toMillis() + 1));
        return new Window(from, forEver ? from.plus(FOREVER) : from.plus(length));
    }
}
