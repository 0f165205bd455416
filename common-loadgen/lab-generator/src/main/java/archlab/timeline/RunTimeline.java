package archlab.timeline;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * A run's time axis: its intervals, oldest first, a warm-up's before the measured run's. The trap it answers: a
 * report that is one aggregate over the run cannot say when the latency went up, whether the machine stalled then,
 * or what the warm-up did; its intervals can, and {@link #line(String)} says the gist in one line of the text report.
 *
 * <p>In the JSON report it is {@code run.timeline}: {@code interval}, {@code probePeriod} and {@code intervals} (each
 * an {@link Interval}). The histograms behind the intervals are not in the JSON: the report writer saves them as the
 * interval log {@code <name>.hlog} ({@link IntervalLog}) beside it.
 *
 * <p>Immutable.
 *
 * @param interval    the length of one interval; zero when no timeline was recorded
 * @param probePeriod how often the hiccup probe woke
 * @param intervals   every interval, oldest first; times relative to when the measured run began
 * @param originNanos when the measured run began, on the run's clock (time 0)
 * @param originEpochMillis the same moment on the wall clock, ms since the epoch (the interval log's start time)
 * @param histograms  each interval's histograms, in the same order as {@code intervals}
 */
public record RunTimeline(
        Duration interval,
        Duration probePeriod,
        List<Interval> intervals,
        @JsonIgnore long originNanos,
        @JsonIgnore long originEpochMillis,
        @JsonIgnore List<IntervalHistograms> histograms) {

    /** No timeline: a run recorded with {@link TimelineSettings#OFF}, or a hand-made result. */
    public static final RunTimeline NONE = new RunTimeline(Duration.ZERO, Duration.ZERO, List.of(), 0, 0, List.of());

    /** An interval at most this much shorter than the interval length still counts as a whole one in {@link #line}. */
    private static final double WHOLE = 0.9;

    public RunTimeline {
        intervals = List.copyOf(intervals);
        histograms = List.copyOf(histograms);
        if (!histograms.isEmpty() && histograms.size() != intervals.size()) {
            throw new IllegalArgumentException("one histogram set per interval: " + histograms.size() + " for "
                    + intervals.size() + " intervals");
        }
    }

    /** @return whether any interval was recorded */
    public boolean recorded() {
        return !intervals.isEmpty();
    }

    /** @return the intervals of {@code phase}, oldest first */
    public List<Interval> phase(String phase) {
        return intervals.stream().filter(i -> i.phase().equals(phase)).toList();
    }

    /**
     * This timeline with {@code earlier}'s intervals put before its own, relabelled {@code phase}: how a report shows
     * the JIT warm-up that ran, on a scratch fixture, before its measured run. Both must be on the same clock.
     *
     * @return the joined timeline, time 0 still this run's beginning
     */
    public RunTimeline after(RunTimeline earlier, String phase) {
        if (!earlier.recorded()) {
            return this;
        }
        double shiftMillis = (earlier.originNanos - originNanos) / 1e6;
        List<Interval> joined = new ArrayList<>();
        earlier.intervals.forEach(i -> joined.add(i.moved(phase, shiftMillis)));
        joined.addAll(intervals);
        List<IntervalHistograms> joinedHistograms = new ArrayList<>();
        if (!earlier.histograms.isEmpty() && !histograms.isEmpty()) {
            earlier.histograms.forEach(h -> joinedHistograms.add(h.inPhase(phase)));
            joinedHistograms.addAll(histograms);
        }
        return new RunTimeline(interval, probePeriod, joined, originNanos, originEpochMillis, joinedHistograms);
    }

    /**
     * The gist for the text report: how steady goodput and p99 were across the measured run's whole intervals, the
     * worst interval and the machine's worst hiccup (with when), how many warm-up intervals precede the run, and the
     * interval log's name.
     *
     * @param logFile the interval log's file name, e.g. {@code baseline.hlog}
     * @return e.g. {@code timeline interval=100ms run_intervals=33 goodput_per_s min/median/max=1390/1500/1620 …};
     *         {@code timeline not recorded} when there is none
     */
    public String line(String logFile) {
        List<Interval> run = phase(Interval.RUN);
        if (run.isEmpty()) {
            return "timeline not recorded";
        }
        long intervalMillis = interval.toMillis();
        List<Interval> whole = run.stream()
                .filter(i -> i.offered() > 0 && i.lengthMillis() >= WHOLE * interval.toNanos() / 1e6).toList();
        List<Interval> steady = whole.isEmpty() ? run : whole;
        List<Interval> answered = run.stream().filter(i -> i.completed() + i.timedOut() + i.failed() > 0).toList();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "timeline interval=%dms run_intervals=%d", intervalMillis, run.size()));
        s.append(" goodput_per_s min/median/max=").append(spread(steady, Interval::goodputPerSecond, "%.0f"));
        if (!answered.isEmpty()) {
            s.append(" p99_ms min/median/max=").append(spread(answered, i -> i.p99Micros() / 1e3, "%.3f"));
            Interval worst = answered.stream().max(Comparator.comparingLong(Interval::p99Micros)).orElseThrow();
            s.append(String.format(Locale.ROOT, " worst_p99=%.3fms@%.1fs", worst.p99Micros() / 1e3, worst.startMillis() / 1e3));
        }
        Interval stalled = run.stream().max(Comparator.comparingLong(Interval::hiccupMaxMicros)).orElseThrow();
        s.append(String.format(Locale.ROOT, " hiccup_max=%.3fms@%.1fs", stalled.hiccupMaxMicros() / 1e3, stalled.startMillis() / 1e3));
        for (String warm : List.of(Interval.WARMUP, Interval.JIT_WARMUP)) {
            int n = phase(warm).size();
            if (n > 0) {
                s.append(' ').append(warm.replace('-', '_')).append("_intervals=").append(n);
            }
        }
        return s.append(" log=").append(logFile).toString();
    }

    /** {@code min/median/max} of {@code f} over {@code intervals}, each formatted with {@code format}. */
    private static String spread(List<Interval> intervals, ToDoubleFunction<Interval> f, String format) {
        double[] v = intervals.stream().mapToDouble(f).sorted().toArray();
        return String.format(Locale.ROOT, format + "/" + format + "/" + format, v[0], v[(v.length - 1) / 2], v[v.length - 1]);
    }
}
