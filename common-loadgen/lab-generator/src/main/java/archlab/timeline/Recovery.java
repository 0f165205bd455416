package archlab.timeline;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Whether a run came back after its trigger, judged from its timeline: the one question a retry storm asks.
 *
 * <p>The trap it answers: a run's totals cannot tell "slow for the half second of the trigger" from "down from the
 * trigger to the end": both lose requests. Interval by interval they differ. The rule: before the trigger the run must
 * have been healthy (completed ≥ {@value #SHARE_PERCENT} % of offered over the intervals before it, else there is
 * nothing to recover to); after it, the run has recovered at the first interval from which <em>every</em> window of
 * {@value #WINDOW} whole intervals to the end of the run completes at least {@value #SHARE_PERCENT} % of what it
 * offered; the verdict is {@link Recovered#YES} if that is within the bound of the trigger's end. Windows, not single
 * intervals: completions are counted when they end and offers when planned, so at the book's 150 requests per 100 ms
 * a healthy interval's share wobbles by a few percent around 100 %, and one interval alone would call a healthy run
 * "down" by chance; three together do not. A {@link Recovered#NO} while the machine itself
 * stalled (a hiccup of a fifth of an interval or more after the trigger) is {@link Recovered#NOT_JUDGED}: the probe, not
 * the service, may have lost the intervals.
 *
 * <p>Intervals count completions by when they ended and offers by planned start ({@link Interval}); "whole" intervals
 * are those of the measured run that offered requests and lasted at least 90 % of the interval length.
 *
 * @param verdict yes, no, not healthy before the trigger, or not judged
 * @param trigger when the trigger ended and how soon after it the run must be back
 * @param shares  what the timeline showed before and after the trigger
 * @param reason  one line saying why
 */
public record Recovery(Recovered verdict, Trigger trigger, Shares shares, String reason) {

    /**
     * The trigger a run must recover from.
     *
     * @param endMillis   when the trigger ended, ms since the run began
     * @param boundMillis how soon after it the run must be back, ms
     */
    public record Trigger(double endMillis, double boundMillis) {
    }

    /**
     * What the timeline showed around the trigger; each NaN when the timeline could not say.
     *
     * @param recoveredAtMillis  the start of the first interval from which every window kept up, ms since the run
     *                           began; NaN for none
     * @param goodputShareBefore completed / offered over the intervals before the trigger
     * @param worstShareAfter    the lowest completed / offered of one window after the trigger
     */
    public record Shares(double recoveredAtMillis, double goodputShareBefore, double worstShareAfter) {

        /** Nothing measured: the timeline had no whole interval to judge by. */
        static final Shares UNKNOWN = new Shares(Double.NaN, Double.NaN, Double.NaN);
    }

    /** The share of offered requests an interval must complete. */
    public static final double SHARE = 0.95;
    static final String SHARE_PERCENT = "95";
    /** A hiccup of this fraction of an interval after the trigger makes a "no" not judged. */
    private static final double STALL_FRACTION = 0.2;
    private static final double WHOLE = 0.9;
    /** Whole intervals per window. */
    public static final int WINDOW = 3;

    /** How a run came out of its trigger. */
    public enum Recovered {
        YES("yes"), NO("no"), NOT_HEALTHY_BEFORE("no (down before the trigger)"), NOT_JUDGED("not judged");

        private final String text;

        Recovered(String text) {
            this.text = text;
        }

        /** @return the table's word: {@code yes}, {@code no}, {@code no (down before the trigger)}, {@code not judged} */
        public String text() {
            return text;
        }
    }

    /**
     * @param timeline       the run's timeline
     * @param triggerStart   when the trigger began, since the run began
     * @param triggerEnd     when it ended
     * @param bound          how soon after its end the run must be back
     * @return the verdict; {@link Recovered#NOT_JUDGED} when the timeline cannot say (none recorded, no interval before
     *         the trigger, or none after the bound)
     */
    public static Recovery judge(RunTimeline timeline, Duration triggerStart, Duration triggerEnd, Duration bound) {
        return judge(timeline.phase(Interval.RUN), timeline.interval(), triggerStart, triggerEnd, bound);
    }

    /** The same from the measured run's intervals and the interval length (a saved report's). */
    public static Recovery judge(List<Interval> run, Duration interval, Duration triggerStart, Duration triggerEnd,
                                 Duration bound) {
        double startMs = triggerStart.toNanos() / 1e6;
        double endMs = triggerEnd.toNanos() / 1e6;
        double boundMs = bound.toNanos() / 1e6;
        Trigger trigger = new Trigger(endMs, boundMs);
        double wholeMs = WHOLE * interval.toNanos() / 1e6;
        List<Interval> whole = run.stream().filter(i -> i.offered() > 0 && i.lengthMillis() >= wholeMs).toList();
        List<Interval> before = whole.stream().filter(i -> i.endMillis() <= startMs).toList();
        List<Interval> after = whole.stream().filter(i -> i.startMillis() >= endMs).toList();
        if (before.isEmpty() || after.size() < WINDOW || after.get(after.size() - WINDOW).startMillis() < endMs + boundMs) {
            return new Recovery(Recovered.NOT_JUDGED, trigger, Shares.UNKNOWN,
                    "the timeline has no whole interval before the trigger, or none after its end + bound");
        }
        double shareBefore = before.stream().mapToLong(Interval::completed).sum()
                / (double) before.stream().mapToLong(Interval::offered).sum();
        double[] windowShare = new double[Math.max(0, after.size() - WINDOW + 1)];
        for (int k = 0; k < windowShare.length; k++) {
            List<Interval> w = after.subList(k, k + WINDOW);
            windowShare[k] = w.stream().mapToLong(Interval::completed).sum() / (double) w.stream().mapToLong(Interval::offered).sum();
        }
        double worstAfter = java.util.Arrays.stream(windowShare).min().orElse(Double.NaN);
        double recoveredAt = Double.NaN;
        for (int k = windowShare.length - 1; k >= 0 && windowShare[k] >= SHARE; k--) {
            recoveredAt = after.get(k).startMillis();
        }
        Shares shares = new Shares(recoveredAt, shareBefore, worstAfter);
        if (shareBefore < SHARE) {
            return new Recovery(Recovered.NOT_HEALTHY_BEFORE, trigger, shares,
                    String.format(Locale.ROOT, "completed %.0f%% of offered before the trigger: nothing to recover to", 100 * shareBefore));
        }
        if (!Double.isNaN(recoveredAt) && recoveredAt - endMs <= boundMs) {
            return new Recovery(Recovered.YES, trigger, shares, String.format(Locale.ROOT,
                    "every %d-interval window from %.1f s on completed >= %s%% of offered (%.0f ms after the trigger ended)", WINDOW,
                    recoveredAt / 1e3, SHARE_PERCENT, recoveredAt - endMs));
        }
        long stallMicros = after.stream().mapToLong(Interval::hiccupMaxMicros).max().orElse(0);
        if (stallMicros >= STALL_FRACTION * interval.toNanos() / 1e3) {
            return new Recovery(Recovered.NOT_JUDGED, trigger, shares, String.format(Locale.ROOT,
                    "the machine stalled %.0f ms after the trigger: the intervals may have lost to the probe, not the service", stallMicros / 1e3));
        }
        return new Recovery(Recovered.NO, trigger, shares, Double.isNaN(recoveredAt)
                ? String.format(Locale.ROOT, "still below %s%% of offered in the run's last window", SHARE_PERCENT)
                : String.format(Locale.ROOT, "back only at %.1f s, %.0f ms after the trigger ended (bound %.0f ms)",
                        recoveredAt / 1e3, recoveredAt - endMs, boundMs));
    }

    /** @return one report line: {@code recovery=yes after=300ms …} */
    public String line() {
        return String.format(Locale.ROOT, "recovery=%s trigger_end=%.1fs bound=%.0fms recovered_at=%s share_before=%.3f worst_share_after=%.3f (%s)",
                verdict.text().replace(' ', '_'), trigger.endMillis() / 1e3, trigger.boundMillis(),
                Double.isNaN(shares.recoveredAtMillis()) ? "never"
                        : String.format(Locale.ROOT, "%.1fs", shares.recoveredAtMillis() / 1e3),
                shares.goodputShareBefore(), shares.worstShareAfter(), reason);
    }
}
