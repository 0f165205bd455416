package archlab.run;

import archlab.loadgen.LatencySummary;
import archlab.timeline.Interval;
import archlab.timeline.IntervalHistograms;
import archlab.timeline.RunTimeline;
import archlab.timeline.Series;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;

/**
 * What a long run ({@code -Dlong}, {@link LongRun}) found: its three windows apart, the measured window cut into slices
 * as long as the short run, and the short run of the same code beside them. The trap it answers: "the p99 is 7 ms"
 * from one 3 s run says nothing about how far another 3 s run, or three minutes, would land; the slices say how far
 * 3 s p99s of this code scatter, and where the short run fell among them.
 *
 * <p>Written as {@code <name>-long.txt} and {@code .json} beside the short run's report. Immutable.
 *
 * @param run      which run: module, report name, rate
 * @param settings the windows asked for
 * @param windows  warm-up, measured, stability, in that order
 * @param slices   the measured window's slices, each as long as the short run
 * @param shortRun the short run's figures (the run just before, in the same JVM, on a fresh fixture)
 * @param extra    the long run's fixture's report lines after it (cache hit ratio, pool…): over the whole long run
 */
public record LongRunReport(Run run, LongRunSettings settings, List<Window> windows, Slices slices, Latency shortRun,
        Map<String, String> extra) {

    public static final String WARMUP = "warm-up";
    public static final String MEASURED = "measured";
    public static final String STABILITY = "stability";

    public LongRunReport {
        windows = List.copyOf(windows);
        extra = Map.copyOf(extra);
    }

    /**
     * Which run this is.
     *
     * @param module        the module's artifact id
     * @param name          the short run's report name ({@code baseline}); the long one is written as {@code <name>-long}
     * @param ratePerSecond the load's rate, requests per second (both runs')
     * @param timeoutMillis each request's deadline, ms
     * @param environment   the machine, the JVM, when, and the Maven session (the book copies one session's reports)
     */
    public record Run(String module, String name, int ratePerSecond, long timeoutMillis,
            @com.fasterxml.jackson.annotation.JsonIgnore archlab.report.Environment environment) {
    }

    /** @return where and when it ran, written at the JSON's top as a run report's is: {@code environment.session} */
    @com.fasterxml.jackson.annotation.JsonProperty("environment")
    public archlab.report.Environment environment() {
        return run.environment();
    }

    /**
     * The verdicts, for the JSON's readers.
     *
     * @param trustFactor             {@link #shortRunTrustFactor()}
     * @param shortRunInsideTheSlices {@link #shortRunInsideTheSlices()}
     * @param stable                  {@link #stable()}
     * @param judged                  {@link #judged()}: false when there was no slice, and the other three say nothing
     */
    public record Verdict(double trustFactor, boolean shortRunInsideTheSlices, boolean stable, boolean judged) {
    }

    /** @return the verdicts, written into the JSON as {@code verdict} */
    @com.fasterxml.jackson.annotation.JsonProperty("verdict")
    public Verdict verdict() {
        return new Verdict(shortRunTrustFactor(), shortRunInsideTheSlices(), stable(), judged());
    }

    /** A window's latency figures, µs: its requests, mean and percentiles (completed, timed-out and failed ones). */
    public record Latency(long requests, double meanMicros, long p50Micros, long p99Micros, long p999Micros, long maxMicros) {

        /** @return the figures of a histogram of microseconds */
        public static Latency ofMicros(Histogram micros) {
            long n = micros.getTotalCount();
            return n == 0 ? new Latency(0, 0, 0, 0, 0, 0) : new Latency(n, micros.getMean(), micros.getValueAtPercentile(50),
                    micros.getValueAtPercentile(99), micros.getValueAtPercentile(99.9), micros.getMaxValue());
        }

        static Latency of(Histogram nanos) {
            long n = nanos.getTotalCount();
            return n == 0 ? new Latency(0, 0, 0, 0, 0, 0) : new Latency(n, nanos.getMean() / 1_000.0,
                    nanos.getValueAtPercentile(50) / 1_000, nanos.getValueAtPercentile(99) / 1_000,
                    nanos.getValueAtPercentile(99.9) / 1_000, nanos.getMaxValue() / 1_000);
        }

        /** @return the short run's figures from its report's latency line */
        public static Latency of(LatencySummary s) {
            return new Latency(s.count(), s.meanMicros(), s.p50Micros(), s.p99Micros(), s.p999Micros(), Math.round(s.maxMicros()));
        }
    }

    /**
     * What the process did in a window, from {@link ProcessMeter}'s samples.
     *
     * @param gcPauses     the collectors' pauses that ended in it (their beans' counts; concurrent cycles left out)
     * @param bytesWritten what the process wrote to files in it ({@code /proc/self/io}'s write_bytes); −1 unknown
     */
    public record Process(long gcPauses, long bytesWritten) {
    }

    /**
     * One window of the long run.
     *
     * @param name      {@value #WARMUP}, {@value #MEASURED} or {@value #STABILITY}
     * @param seconds   its length, s (its intervals')
     * @param timedOut  requests that ended at or past their deadline in it
     * @param latency   its latency figures
     * @param hiccupMaxMicros the longest stall of the machine the probe saw in it, µs; −1 when no probe ran
     * @param process   what the collectors and the process's writes did in it
     */
    public record Window(String name, double seconds, long timedOut, Latency latency, long hiccupMaxMicros, Process process) {

        /** @return GC pauses per minute */
        public double gcPausesPerMinute() {
            return seconds == 0 ? 0 : process.gcPauses() * 60.0 / seconds;
        }

        /** @return bytes written per request (−1 when unknown) */
        public double bytesWrittenPerRequest() {
            return process.bytesWritten() < 0 ? -1 : (double) process.bytesWritten() / Math.max(1, latency.requests());
        }
    }

    /**
     * The measured window cut into slices as long as the short run, each slice's p99.
     *
     * @param seconds    one slice's length, s
     * @param p99sMicros every whole slice's p99, µs, in time order
     */
    public record Slices(double seconds, List<Long> p99sMicros) {
        public Slices {
            p99sMicros = List.copyOf(p99sMicros);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("minMicros")
        public long min() {
            return p99sMicros.stream().mapToLong(Long::longValue).min().orElse(0);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("maxMicros")
        public long max() {
            return p99sMicros.stream().mapToLong(Long::longValue).max().orElse(0);
        }

        @com.fasterxml.jackson.annotation.JsonProperty("medianMicros")
        public long median() {
            List<Long> sorted = p99sMicros.stream().sorted().toList();
            return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        }
    }

    /** @return the window named {@code name} */
    public Window window(String name) {
        return windows.stream().filter(w -> w.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no window " + name));
    }

    /**
     * @return how far a short run's p99 of this code may land from the measured window's: the larger of the slices' (and
     *         the short run's) highest p99 over the window's, and the window's over their lowest; 1 when they agree
     */
    public double shortRunTrustFactor() {
        long window = window(MEASURED).latency().p99Micros();
        long low = Math.min(slices.min(), shortRun.p99Micros());
        long high = Math.max(slices.max(), shortRun.p99Micros());
        if (window <= 0 || low <= 0) {
            return Double.NaN;
        }
        return Math.max((double) high / window, (double) window / low);
    }

    /** @return whether there are slices to judge by: the measured window holds at least one short run's length */
    public boolean judged() {
        return !slices.p99sMicros().isEmpty();
    }

    /** @return whether the short run's p99 lies inside the range of the slices' p99s */
    public boolean shortRunInsideTheSlices() {
        return !slices.p99sMicros().isEmpty() && shortRun.p99Micros() >= slices.min() && shortRun.p99Micros() <= slices.max();
    }

    /**
     * @return whether the stability window's p99 lies inside the range of the slices' p99s: the measured p99 held (false
     *         when there is no slice: see {@link #judged()})
     */
    public boolean stable() {
        long p99 = window(STABILITY).latency().p99Micros();
        return !slices.p99sMicros().isEmpty() && p99 >= slices.min() && p99 <= slices.max();
    }

    /**
     * @param timeline       the long run's timeline (its warm-up's intervals before the measured run's)
     * @param measuredMillis the measured window's length; the run's intervals after it are the stability window's
     * @param sliceMillis    one slice's length (the short run's)
     * @return the windows and slices the timeline's interval histograms say, without the process's figures
     */
    static Cut cut(RunTimeline timeline, double measuredMillis, double sliceMillis) {
        List<Interval> intervals = timeline.intervals();
        List<IntervalHistograms> histograms = timeline.histograms();
        Predicate<Interval> warm = i -> i.phase().equals(Interval.WARMUP);
        Predicate<Interval> measured = i -> i.phase().equals(Interval.RUN) && i.startMillis() < measuredMillis - 1e-6;
        Predicate<Interval> stability = i -> i.phase().equals(Interval.RUN) && i.startMillis() >= measuredMillis - 1e-6;
        List<Long> p99s = new ArrayList<>();
        long slices = (long) Math.floor(measuredMillis / sliceMillis + 1e-9);
        for (long k = 0; k < slices; k++) {
            double from = k * sliceMillis;
            double to = from + sliceMillis;
            Histogram h = sum(intervals, histograms, i -> measured.test(i) && i.startMillis() >= from - 1e-6 && i.startMillis() < to - 1e-6);
            if (h.getTotalCount() > 0) {
                p99s.add(h.getValueAtPercentile(99) / 1_000);
            }
        }
        return new Cut(List.of(part(WARMUP, intervals, histograms, warm), part(MEASURED, intervals, histograms, measured),
                part(STABILITY, intervals, histograms, stability)), new Slices(sliceMillis / 1_000.0, p99s));
    }

    /** The windows before the process's figures are added: their name, intervals and latency. */
    record Part(String name, double fromMillis, double toMillis, long timedOut, Latency latency, long hiccupMaxMicros) {
    }

    record Cut(List<Part> parts, Slices slices) {
    }

    private static Part part(String name, List<Interval> intervals, List<IntervalHistograms> histograms, Predicate<Interval> in) {
        List<Interval> mine = intervals.stream().filter(in).toList();
        double from = mine.stream().mapToDouble(Interval::startMillis).min().orElse(0);
        double to = mine.stream().mapToDouble(Interval::endMillis).max().orElse(0);
        return new Part(name, from, to, mine.stream().mapToLong(Interval::timedOut).sum(),
                Latency.of(sum(intervals, histograms, in)), mine.stream().mapToLong(Interval::hiccupMaxMicros).max().orElse(0));
    }

    private static Histogram sum(List<Interval> intervals, List<IntervalHistograms> histograms, Predicate<Interval> in) {
        Histogram total = new Histogram(3);
        for (int i = 0; i < intervals.size(); i++) {
            if (in.test(intervals.get(i)) && i < histograms.size()) {
                total.add(histograms.get(i).histogram(Series.LATENCY));
            }
        }
        return total;
    }

    /** @return the report's text: settings, the windows' table, the slices, the short run beside them, the verdicts */
    public String text() {
        return LongRunText.of(this);
    }

    static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
