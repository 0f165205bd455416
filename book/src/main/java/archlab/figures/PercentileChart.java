package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Latency by percentile, the HdrHistogram way: x = 1 / (1 − p) on a log scale (ticks 50%, 90%, 99%, 99.9%,
 * 99.99%, see {@link PercentileAxis}), y = latency in milliseconds from the planned start. One line per
 * histogram: the same run of several checkpoints side by side ({@link #renderReports}), or the operations of
 * one run ({@link #renderOperations}). Everything comes from saved reports; nothing is hard-coded. A checkpoint's line
 * is in its checkpoint's colour, any other line in a colour no checkpoint has ({@link CheckpointColours}); lines
 * drawn later are narrower, so that none hides one with the same latencies ({@link #styles}).
 *
 * <p>Charts that a page compares share their latency scale: the checkpoints of one run are one chart already, and
 * the per-operation charts of runs of one module whose names differ only in their last word (for instance
 * {@code cache-read-1ms-on} and {@code cache-read-1ms-off}) are drawn to the same top ({@link #sharedTops}).
 *
 * <p>Histograms are the reports' microsecond HdrHistograms; the curve visits HdrHistogram's own percentile
 * steps (5 per halving of the distance to 100%), so the tail is drawn from the samples, not interpolated.
 * Stateless and thread-safe.
 */
public final class PercentileChart {

    /** One line: a label and a microsecond histogram. */
    public record Series(String label, Histogram micros) {
        public Series {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(micros, "micros");
        }
    }

    static final int WIDTH = 1000;
    static final int HEIGHT = 620;
    /** The widths of the first and the last line drawn, px; the lines between step evenly from one to the other. */
    static final float WIDEST_LINE_PX = 5f;
    static final float NARROWEST_LINE_PX = 2.5f;
    /** HdrHistogram's percentile steps per halving of the distance to 100%. */
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    private PercentileChart() {
    }

    /**
     * @return the curve of {@code micros}: {x = 1/(1−p)} and {latency ms}, percentiles below 100% only
     *         (100% has no position on this axis); empty arrays for an empty histogram
     */
    static double[][] curve(Histogram micros) {
        List<double[]> points = new ArrayList<>();
        if (micros.getTotalCount() > 0) {
            for (HistogramIterationValue v : micros.percentiles(TICKS_PER_HALF_DISTANCE)) {
                double p = v.getPercentileLevelIteratedTo();
                if (p >= 100) {
                    break;
                }
                points.add(new double[] {PercentileAxis.x(p), v.getValueIteratedTo() / 1_000.0});
            }
        }
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = points.get(i)[0];
            ys[i] = points.get(i)[1];
        }
        return new double[][] {xs, ys};
    }

    /**
     * Builds the chart.
     *
     * @param title   the chart's title
     * @param series  the lines; empty histograms are left out (and said so in the legend)
     * @param timeout drawn as a horizontal line when the latencies come near it; may be null
     * @throws IllegalArgumentException if no series has a sample
     */
    public static XYChart chart(String title, List<Series> series, Duration timeout) {
        return chart(title, series, timeout, 0);
    }

    /**
     * As {@link #chart(String, List, Duration)}, with a y scale that reaches at least {@code sharedMaxMs}: the
     * largest latency of every chart this one is compared with, so that they share their scale.
     */
    static XYChart chart(String title, List<Series> series, Duration timeout, double sharedMaxMs) {
        ChartImages.headless();
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("percentile (x = 1 / (1 - p), log scale)").yAxisTitle("latency from planned start (ms)").build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(0);
        double xMax = 1;
        double yMax = 0;
        int drawn = 0;
        List<Series> withSamples = series.stream().filter(s -> s.micros().getTotalCount() > 0).toList();
        List<LineStyle> styles = styles(withSamples.stream().map(Series::label).toList());
        for (int i = 0; i < withSamples.size(); i++) {
            Series s = withSamples.get(i);
            double[][] c = curve(s.micros());
            if (c[0].length == 0) {
                continue;
            }
            XYSeries line = chart.addSeries(String.format(Locale.ROOT, "%s (n=%,d, p99 %.1f ms)", s.label(),
                    s.micros().getTotalCount(), s.micros().getValueAtPercentile(99) / 1e3), c[0], c[1]);
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(styles.get(i).colour());
            line.setLineStyle(styles.get(i).stroke());
            xMax = Math.max(xMax, c[0][c[0].length - 1]);
            for (double y : c[1]) {
                yMax = Math.max(yMax, y);
            }
            drawn++;
        }
        if (drawn == 0) {
            throw new IllegalArgumentException("no histogram with a sample among " + series.size() + " series");
        }
        yMax = Math.max(yMax, sharedMaxMs);
        double timeoutMs = timeout == null ? -1 : timeout.toNanos() / 1e6;
        boolean showTimeout = timeoutMs > 0 && yMax >= 0.5 * timeoutMs;
        double top = niceCeiling(Math.max(yMax, showTimeout ? timeoutMs : 0) * 1.08);
        double axisMax = PercentileAxis.axisMax(xMax);
        if (showTimeout) {
            chart.addAnnotation(new AnnotationLine(timeoutMs, false, false));
            chart.addAnnotation(new AnnotationText(String.format(Locale.ROOT, "timeout %.0f ms", timeoutMs),
                    1.35, timeoutMs + top * 0.03, false));
        }
        PercentileAxis.apply(chart, axisMax, 0, top);
        return chart;
    }

    /**
     * How one line is drawn.
     *
     * @param colour  its checkpoint's colour ({@link CheckpointColours#of}); a line that is no checkpoint's (an
     *                operation's), the next of {@link CheckpointColours#other}
     * @param widthPx its width, px
     * @param dashed  whether it is dashed: a second or later line of the same checkpoint (another run of it)
     */
    record LineStyle(Color colour, float widthPx, boolean dashed) {
        BasicStroke stroke() {
            return dashed ? new BasicStroke(widthPx, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {9f, 5f}, 0f)
                    : new BasicStroke(widthPx, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
        }
    }

    /**
     * The look of each line, by label, in drawing order. Widths shrink from {@link #WIDEST_LINE_PX} for the first
     * line drawn to {@link #NARROWEST_LINE_PX} for the last, so that a line drawn over another with the same
     * latencies leaves the other's colour showing along both its edges.
     */
    static List<LineStyle> styles(List<String> labels) {
        List<LineStyle> out = new ArrayList<>();
        Set<String> checkpoints = new HashSet<>();
        int others = 0;
        for (int i = 0; i < labels.size(); i++) {
            double share = labels.size() == 1 ? 1 : (double) i / (labels.size() - 1);
            float width = (float) (WIDEST_LINE_PX - (WIDEST_LINE_PX - NARROWEST_LINE_PX) * share);
            Optional<CheckpointColours.Checkpoint> checkpoint = CheckpointColours.checkpointOf(labels.get(i));
            if (checkpoint.isPresent()) {
                out.add(new LineStyle(checkpoint.get().colour(), width, !checkpoints.add(checkpoint.get().id())));
            } else {
                out.add(new LineStyle(CheckpointColours.other(others++), width, false));
            }
        }
        return out;
    }

    /** Builds and writes the chart; returns {@code png}. */
    public static Path render(String title, List<Series> series, Duration timeout, Path png) {
        return ChartImages.writePng(chart(title, series, timeout), png);
    }

    /**
     * One line per saved run report, labelled by module (and run name, when the reports are of different runs).
     *
     * @param reports run report JSON files ({@code baseline.json} of several checkpoints, say)
     * @param png     where to write the chart
     */
    public static Path renderReports(List<Path> reports, Path png) {
        List<SavedRunReport> read = reports.stream().map(SavedRunReport::read).toList();
        boolean sameName = read.stream().map(SavedRunReport::name).distinct().count() == 1;
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<Series> series = new ArrayList<>();
        for (SavedRunReport r : read) {
            String label = sameName ? r.module() : r.module() + " / " + r.name();
            int n = seen.merge(label, 1, Integer::sum);
            series.add(new Series(n == 1 ? label : label + " #" + n, r.latency()));
        }
        String title = sameName ? "Latency by percentile: " + read.get(0).name() + ", by checkpoint"
                : "Latency by percentile, by checkpoint and run";
        return render(title, series, read.get(0).timeout(), png);
    }

    /** One line per operation (create, get, pay…) of one saved run report. */
    public static Path renderOperations(Path report, Path png) {
        return renderOperations(report, png, null);
    }

    /**
     * One line per operation of one saved run report, its y scale reaching at least {@code sharedMaxMs} (see
     * {@link #sharedTops}; {@code null}: its own).
     */
    public static Path renderOperations(Path report, Path png, Double sharedMaxMs) {
        SavedRunReport r = SavedRunReport.read(report);
        List<Series> series = new ArrayList<>();
        r.operations().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> series.add(new Series(e.getKey(), e.getValue())));
        if (series.isEmpty()) {
            throw new IllegalArgumentException(report + " has no per-operation histograms");
        }
        return ChartImages.writePng(chart("Latency by percentile per operation: " + r.module() + " / " + r.name(), series,
                r.timeout(), sharedMaxMs == null ? 0 : sharedMaxMs), png);
    }

    /**
     * The shared scale of per-operation charts: run reports of one module whose names differ only in their last
     * dash-separated word ({@code cache-read-1ms-on}, {@code cache-read-1ms-off}) form a group, and every report of
     * a group gets the group's largest drawn latency (ms). A report alone in its group gets its own.
     *
     * @return each report's shared maximum latency, ms
     */
    public static Map<Path, Double> sharedTops(java.util.Collection<Path> reports) {
        Map<Path, SavedRunReport> read = new LinkedHashMap<>();
        reports.forEach(f -> read.put(f, SavedRunReport.read(f)));
        Map<String, Double> groupMax = new LinkedHashMap<>();
        Map<Path, String> groupOf = new LinkedHashMap<>();
        read.forEach((file, r) -> {
            String stem = r.name().contains("-") ? r.name().substring(0, r.name().lastIndexOf('-')) : r.name();
            String group = r.module() + "/" + stem;
            groupOf.put(file, group);
            double max = 0;
            for (Histogram h : r.operations().values()) {
                double[][] c = curve(h);
                for (double y : c[1]) {
                    max = Math.max(max, y);
                }
            }
            groupMax.merge(group, max, Math::max);
        });
        Map<Path, Double> tops = new LinkedHashMap<>();
        groupOf.forEach((file, group) -> tops.put(file, groupMax.get(group)));
        return tops;
    }

    /** @return the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k that is at least {@code v} (1 for v ≤ 0) */
    static double niceCeiling(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double decade = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * decade >= v * (1 - 1e-12)) {
                return m * decade;
            }
        }
        return 10 * decade;
    }
}
