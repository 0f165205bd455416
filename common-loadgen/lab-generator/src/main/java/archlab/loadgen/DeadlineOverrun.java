package archlab.loadgen;

import java.time.Duration;
import java.util.Locale;

/**
 * How far past its deadline a run's latest caller was answered, judged against a bound as a time claim on a shared
 * machine. The trap it guards: on two busy cores an answer a fraction of a millisecond past a 5 ms bound may be the
 * machine's, not the service's — the timer that ends a downstream call at the deadline, the thread that answers and
 * the runner that records the answer each wait for a core like any other thread — and a test that fails on it fails
 * on the machine.
 *
 * <p>The rule: an overrun within the bound is {@link Verdict#KEPT}. Past it, the run's longest stall of the machine,
 * {@code stall = max(the generator's worst send lag, the hiccup probe's longest hiccup)}, decides: an overrun no
 * longer than the bound plus that stall could be the stall's, and so could any overrun of a run whose stall alone
 * exceeded the bound — {@link Verdict#NOT_JUDGED}, neither passed nor failed. An overrun past the bound plus the
 * longest stall is the service's own: {@link Verdict#BROKEN}. A service that waits out a downstream past its
 * deadline, or retries past it, overruns by a downstream call (tens of ms in the book's scenarios), far past both.
 *
 * <p>Immutable; figures in ns.
 *
 * @param overrunNanos    the largest time a caller was answered past its deadline ({@link RunResult#maxOverrunNanos()})
 * @param sendLagMaxNanos the generator's worst lateness against its plan: how far the runner itself fell behind
 * @param hiccupMaxNanos  the hiccup probe's longest stall (0 when no probe ran)
 * @param boundNanos      how far past its deadline a caller may be answered: the checkpoint's stated bound
 */
public record DeadlineOverrun(long overrunNanos, long sendLagMaxNanos, long hiccupMaxNanos, long boundNanos) {

    /** What the overrun says about the service. */
    public enum Verdict {
        /** every caller answered within the bound of its deadline */
        KEPT,
        /** past the bound, but no further than the machine's own stalls could have made it */
        NOT_JUDGED,
        /** past the bound by more than the machine's longest stall: the service held a caller */
        BROKEN
    }

    public DeadlineOverrun {
        if (overrunNanos < 0 || sendLagMaxNanos < 0 || hiccupMaxNanos < 0 || boundNanos <= 0) {
            throw new IllegalArgumentException("overrun, send lag and hiccup must be ≥ 0 and the bound > 0 (ns): "
                    + overrunNanos + ", " + sendLagMaxNanos + ", " + hiccupMaxNanos + ", " + boundNanos);
        }
    }

    /**
     * @param run   a finished run
     * @param bound how far past its deadline a caller may be answered
     * @return the run's overrun, stalls and the bound
     */
    public static DeadlineOverrun of(RunResult run, Duration bound) {
        return of(run.maxOverrunNanos(), run.sendLag().maxMicros(), run.hiccups().maxMicros(), bound);
    }

    /**
     * @param overrunNanos      the largest time a caller was answered past its deadline, ns
     * @param sendLagMaxMicros  the generator's worst send lag, µs (as {@code LatencySummary} keeps it)
     * @param hiccupMaxMicros   the probe's longest hiccup, µs (as {@code HiccupSummary} keeps it)
     * @param bound             how far past its deadline a caller may be answered
     * @return the figures in ns
     */
    public static DeadlineOverrun of(long overrunNanos, double sendLagMaxMicros, long hiccupMaxMicros, Duration bound) {
        return new DeadlineOverrun(overrunNanos, Math.round(sendLagMaxMicros * 1_000), hiccupMaxMicros * 1_000L, bound.toNanos());
    }

    /** @return the machine's longest stall during the run: the worse of the generator's send lag and the probe's hiccup, ns */
    public long stallNanos() {
        return Math.max(sendLagMaxNanos, hiccupMaxNanos);
    }

    /** @return kept, not judged or broken, by the rule of the class comment */
    public Verdict verdict() {
        if (overrunNanos <= boundNanos) {
            return Verdict.KEPT;
        }
        if (stallNanos() > boundNanos || overrunNanos <= boundNanos + stallNanos()) {
            return Verdict.NOT_JUDGED;
        }
        return Verdict.BROKEN;
    }

    /** @return e.g. {@code "answered 5.4 ms past a deadline (bound 5 ms; the machine's longest stall 2.0 ms: send lag 1.0, hiccup 2.0)"} */
    public String describe() {
        return String.format(Locale.ROOT, "answered %.1f ms past a deadline (bound %s ms; the machine's longest stall %.1f ms:"
                        + " send lag %.1f, hiccup %.1f)", overrunNanos / 1e6, millis(boundNanos), stallNanos() / 1e6,
                sendLagMaxNanos / 1e6, hiccupMaxNanos / 1e6);
    }

    private static String millis(long nanos) {
        return nanos % 1_000_000 == 0 ? Long.toString(nanos / 1_000_000) : String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
