package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Annotation;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The capacity curve from saved sweeps, one line per checkpoint, in one PNG of two panels sharing the
 * x-axis (offered rate, log scale, labelled at the swept rates):
 * <ol>
 *   <li><b>throughput</b>: completed per second against offered, both on log scales, with the "completed = offered"
 *       diagonal a service that keeps up would follow. On linear scales the rates of a sweep that reaches 32,000
 *       req/s squeeze everything below 2,000 into the corner, where ch12-1 runs out; on log scales every doubling
 *       of the rate is the same width, and falling under the diagonal is the same visible gap at 500 req/s as at
 *       30,000;</li>
 *   <li><b>p99</b> (ms, log scale) against offered, with the knee definitions' p99 ceilings.</li>
 * </ol>
 * Each line is drawn in its checkpoint's colour ({@link CheckpointColours}) with its checkpoint's marker shape; a
 * second sweep of a checkpoint under another name (its limiter lifted, say) is dashed, with hollow markers. Lines of
 * equal values must not hide each other: the lines are drawn one over the other, each narrower and with smaller
 * markers than the one before it ({@link #styles}), so that a line drawn over another still shows the other's
 * colour along both its edges and around its markers. Each knee is a hollow diamond, named by a label beside it
 * ({@link PointLabels}; knees drawn at one place share one label) and in the legend ("no knee" when there is none).
 * The locked baseline's capacity bound, 1 / (pay share × pay floor) — {@code ch12-1-baseline} holds its one lock
 * across every downstream call of a pay, so one pay at a time goes through — is a vertical line on both panels.
 * Rate labels are short (1.5k, 32k) and a label too close to the one before it is left out, so that none overlap.
 * Stateless and thread-safe.
 */
public final class SweepChart {

    static final int WIDTH = 1000;
    static final int PANEL_HEIGHT = 560;
    /** The checkpoint whose pays hold one global lock across their downstream calls. */
    static final String LOCKED_BASELINE = "ch12-1-baseline";
    /** The share of pays in the book's mix (40 / 35 / 25). */
    static final double PAY_SHARE = 0.25;
    /** The fewest pixels between the centres of two rate labels. */
    private static final double MIN_LABEL_GAP_PX = 44;
    /** The widths of the first and the last line drawn, px; the lines between step evenly from one to the other. */
    static final float WIDEST_LINE_PX = 6.5f;
    static final float NARROWEST_LINE_PX = 2.5f;
    /** The sizes of the first and the last line's markers, px. */
    static final double LARGEST_MARKER_PX = 15;
    static final double SMALLEST_MARKER_PX = 8;
    /** The knee's hollow diamond, px: larger than any line's marker, so that it rings them. */
    static final double KNEE_MARKER_PX = 22;
    /** From a knee's point to its label's box, px: clear of the diamond. */
    static final double KNEE_LABEL_CLEARANCE_PX = KNEE_MARKER_PX / 2 + 3;
    /** The dash of a checkpoint's second sweep (its limiter lifted, say): dash and gap, px. */
    private static final float[] SECOND_SWEEP_DASH = {9f, 5f};
    /** Each checkpoint's marker shape, in {@link CheckpointColours#CHECKPOINTS}' order. */
    private static final List<SizedMarker.Form> FORMS =
            List.of(SizedMarker.Form.CIRCLE, SizedMarker.Form.SQUARE, SizedMarker.Form.TRIANGLE_UP);

    /**
     * One panel and the knee labels placed on it.
     *
     * @param kneeLabels the labels, in screen pixels of the panel's image (see {@link PointLabels.Placed})
     */
    record Panel(XYChart chart, List<PointLabels.Placed> kneeLabels) {
    }

    /**
     * How one sweep's line is drawn.
     *
     * @param colour  its checkpoint's colour; a series that is no checkpoint's, one of {@link CheckpointColours#other}
     * @param widthPx the line's width, px
     * @param dash    dash and gap, px; {@code null} for a solid line
     * @param marker  the marker at each swept rate
     */
    record LineStyle(Color colour, float widthPx, float[] dash, SizedMarker marker) {
        @Override
        public float[] dash() {
            return dash == null ? null : dash.clone();
        }

        BasicStroke stroke() {
            return dash == null ? new BasicStroke(widthPx, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND)
                    : new BasicStroke(widthPx, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dash, 0f);
        }
    }

    private SweepChart() {
    }

    /**
     * @param sweeps sweep JSON files, one per checkpoint
     * @param png    where to write the two-panel chart
     * @return {@code png}
     * @throws IllegalArgumentException if there is no sweep or no sweep has a row
     */
    public static Path render(List<Path> sweeps, Path png) {
        List<SavedSweep> read = sweeps.stream().map(SavedSweep::read).filter(s -> !s.points().isEmpty()).toList();
        if (read.isEmpty()) {
            throw new IllegalArgumentException("no sweep with rows among " + sweeps);
        }
        ChartImages.headless();
        List<BufferedImage> panels = List.of(ChartImages.image(throughput(read).chart()), ChartImages.image(p99(read).chart()));
        return ChartImages.writePng(ChartImages.stack(panels), png);
    }

    /** @return the locked baseline's capacity bound, req/s, when it is among the sweeps (and says its pay floor) */
    static OptionalDouble lockBound(List<SavedSweep> sweeps) {
        return sweeps.stream().filter(s -> s.module().equals(LOCKED_BASELINE) && s.payFloorNanos() > 0)
                .mapToDouble(s -> 1e9 / (PAY_SHARE * s.payFloorNanos())).findFirst();
    }

    /**
     * The look of each sweep's line, in drawing order: its checkpoint's colour and marker shape; dashed with hollow
     * markers when it is not the first sweep of its checkpoint; and widths and marker sizes that shrink from
     * {@link #WIDEST_LINE_PX} and {@link #LARGEST_MARKER_PX} for the first line drawn to {@link #NARROWEST_LINE_PX}
     * and {@link #SMALLEST_MARKER_PX} for the last, so that no line covers the whole of one drawn before it.
     */
    static List<LineStyle> styles(List<SavedSweep> sweeps) {
        List<LineStyle> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int others = 0;
        int n = sweeps.size();
        for (int i = 0; i < n; i++) {
            SavedSweep s = sweeps.get(i);
            double share = n == 1 ? 0 : (double) i / (n - 1);
            Optional<CheckpointColours.Checkpoint> checkpoint = CheckpointColours.checkpointOf(s.label());
            Color colour = checkpoint.map(CheckpointColours.Checkpoint::colour).orElse(CheckpointColours.other(others));
            others += checkpoint.isPresent() ? 0 : 1;
            SizedMarker.Form form = checkpoint.map(c -> FORMS.get(CheckpointColours.CHECKPOINTS.indexOf(c)))
                    .orElse(SizedMarker.Form.DIAMOND);
            boolean second = !seen.add(s.module());
            out.add(new LineStyle(colour, (float) (WIDEST_LINE_PX - (WIDEST_LINE_PX - NARROWEST_LINE_PX) * share),
                    second ? SECOND_SWEEP_DASH : null,
                    new SizedMarker(form, LARGEST_MARKER_PX - (LARGEST_MARKER_PX - SMALLEST_MARKER_PX) * share, second)));
        }
        return out;
    }

    static Panel throughput(List<SavedSweep> sweeps) {
        XYChart chart = base("Capacity: completed per second against offered rate (log-log)", "completed per second (log scale)");
        double maxRate = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).max().orElse(1);
        double minRate = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).min().orElse(1);
        double minRps = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rpsCompleted)
                .filter(v -> v > 0).min().orElse(minRate);
        double maxRps = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rpsCompleted).max().orElse(1);
        // a straight line on log-log axes: its two ends are enough, but a few more keep XChart's clipping honest
        double[] diagonal = new double[16];
        for (int k = 0; k < diagonal.length; k++) {
            diagonal[k] = minRate / 1.3 * Math.pow(maxRate * 1.69 / minRate, k / (diagonal.length - 1.0));
        }
        XYSeries ideal = chart.addSeries("completed = offered (a service that keeps up)", diagonal, diagonal);
        ideal.setMarker(SeriesMarkers.NONE);
        ideal.setLineColor(Color.GRAY);
        ideal.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        double yMin = Math.pow(10, Math.floor(Math.log10(Math.min(minRps, minRate) / 1.3)));
        double yMax = Math.pow(10, Math.ceil(Math.log10(Math.max(maxRps, maxRate) * 1.3)));
        ToDoubleFunction<SavedSweep.Point> y = p -> Math.max(yMin, p.rpsCompleted());
        lines(chart, sweeps, "completed/s", y);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        List<Annotation> fixed = new ArrayList<>();
        lockBound(sweeps).ifPresent(bound -> {
            fixed.add(new AnnotationLine(bound, true, false));
            fixed.add(new AnnotationText(String.format(Locale.ROOT, "ch12-1 lock bound: 1 / (%.2f x %.0f ms) = %,.0f req/s",
                    PAY_SHARE, 1e9 / bound / PAY_SHARE / 1e6, bound), bound * 2.6, yMax / 4, false));
        });
        fixed.forEach(chart::addAnnotation);
        axis(chart, sweeps, yMin, yMax);
        return new Panel(chart, kneeLabels(chart, sweeps, y, fixed));
    }

    static Panel p99(List<SavedSweep> sweeps) {
        XYChart chart = base("p99 latency against offered rate (log scale)", "p99 (ms, log scale)");
        double maxMs = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p.p99Micros() / 1e3).max().orElse(1);
        double minMs = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p.p99Micros() / 1e3)
                .filter(v -> v > 0).min().orElse(1);
        TreeSet<Long> ceilings = new TreeSet<>();
        sweeps.stream().filter(s -> s.knee().p99CeilingMicros() > 0).forEach(s -> ceilings.add(s.knee().p99CeilingMicros()));
        // a log axis cannot show 0: a p99 below 1 µs is drawn at 1 µs
        ToDoubleFunction<SavedSweep.Point> y = p -> Math.max(0.001, p.p99Micros() / 1e3);
        lines(chart, sweeps, "p99", y);
        double lowest = ceilings.isEmpty() ? minMs : Math.min(minMs, ceilings.first() / 1e3);
        double highest = ceilings.isEmpty() ? maxMs : Math.max(maxMs, ceilings.last() / 1e3);
        double yMin = Math.pow(10, Math.floor(Math.log10(lowest * 0.5))); // room below the lowest line for a label
        double yMax = Math.pow(10, Math.ceil(Math.log10(highest * 1.2)));
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        List<Annotation> fixed = new ArrayList<>();
        for (long c : ceilings) {
            fixed.add(new AnnotationLine(c / 1e3, false, false));
        }
        if (!ceilings.isEmpty()) {
            // one label for every ceiling, above the highest: two labels a few ms apart on a log axis overlap
            List<String> parts = new ArrayList<>();
            for (long c : ceilings.descendingSet()) {
                List<String> whose = sweeps.stream().filter(s -> s.knee().p99CeilingMicros() == c).map(s -> s.module().replaceFirst("^(ch\\d+-\\d+)-.*", "$1"))
                        .distinct().toList();
                parts.add(String.format(Locale.ROOT, "%.0f ms (%s)", c / 1e3, String.join(", ", whose)));
            }
            double xMid = Math.sqrt(sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).min().orElse(1)
                    * sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).max().orElse(1));
            fixed.add(new AnnotationText("knee ceilings, p99 <= 2 x pay floor: " + String.join(", ", parts),
                    xMid * 1.6, ceilings.last() / 1e3 * 1.45, false));
        }
        lockBound(sweeps).ifPresent(bound -> fixed.add(new AnnotationLine(bound, true, false)));
        fixed.forEach(chart::addAnnotation);
        axis(chart, sweeps, yMin, yMax);
        return new Panel(chart, kneeLabels(chart, sweeps, y, fixed));
    }

    private static XYChart base(String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle("offered rate (req/s, log scale)").yAxisTitle(yTitle).build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setMarkerSize(8);
        return chart;
    }

    /** One line per sweep in its {@link #styles style}, then each knee's diamond over all of them. */
    private static void lines(XYChart chart, List<SavedSweep> sweeps, String what, ToDoubleFunction<SavedSweep.Point> y) {
        List<LineStyle> styles = styles(sweeps);
        for (int i = 0; i < sweeps.size(); i++) {
            SavedSweep s = sweeps.get(i);
            LineStyle style = styles.get(i);
            XYSeries line = chart.addSeries(name(s, what), s.points().stream().mapToDouble(SavedSweep.Point::rate).toArray(),
                    s.points().stream().mapToDouble(y).toArray());
            line.setMarker(style.marker().xchart());
            line.setMarkerColor(style.colour());
            line.setLineColor(style.colour());
            line.setLineStyle(style.stroke());
        }
        for (SavedSweep s : sweeps) {
            kneePoint(s).ifPresent(at -> {
                XYSeries k = chart.addSeries(s.label() + " knee", new double[] {at.rate()}, new double[] {y.applyAsDouble(at)});
                k.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                k.setMarker(new SizedMarker(SizedMarker.Form.DIAMOND, KNEE_MARKER_PX, true).xchart());
                k.setMarkerColor(Color.BLACK);
                k.setShowInLegend(false); // the line's legend entry names the knee
            });
        }
    }

    /** @return the checkpoint's legend name: module, what is drawn, and its knee */
    private static String name(SavedSweep s, String what) {
        return s.label() + " " + what + (s.knee().rate() == null ? " (no knee)" : " (knee " + s.knee().rate() + " req/s)");
    }

    /** @return the sweep's name in a knee label: its label with the module shortened to its id, "ch12-3 limiter-lifted" */
    static String shortName(SavedSweep s) {
        return CheckpointColours.checkpointOf(s.module()).map(c -> s.label().replace(s.module(), c.id())).orElse(s.label());
    }

    /** @return the point of {@code s} at its knee, if it has one */
    private static Optional<SavedSweep.Point> kneePoint(SavedSweep s) {
        return s.knee().rate() == null ? Optional.empty()
                : s.points().stream().filter(p -> p.rate() == s.knee().rate()).findFirst();
    }

    /** A "knee: ..." label beside each knee's diamond, naming whose knee it is; knees drawn at one place share one. */
    private static List<PointLabels.Placed> kneeLabels(XYChart chart, List<SavedSweep> sweeps, ToDoubleFunction<SavedSweep.Point> y,
                                                       List<Annotation> avoid) {
        List<PointLabels.Wanted> knees = new ArrayList<>();
        for (SavedSweep s : sweeps) {
            kneePoint(s).ifPresent(at -> knees.add(new PointLabels.Wanted(shortName(s), at.rate(), y.applyAsDouble(at))));
        }
        return PointLabels.place(chart, "knee: ", knees, KNEE_LABEL_CLEARANCE_PX, avoid);
    }

    /** The shared x-axis: log scale over the swept rates, each labelled unless too close to the label before it. */
    private static void axis(XYChart chart, List<SavedSweep> sweeps, double yMin, double yMax) {
        TreeSet<Integer> rates = new TreeSet<>();
        sweeps.forEach(s -> s.points().forEach(p -> rates.add(p.rate())));
        double xMin = rates.first() / 1.3;
        double xMax = rates.last() * 1.3;
        // the plot spans about 85% of the width; a label needs MIN_LABEL_GAP_PX from the one before it
        double pxPerDecade = WIDTH * 0.85 / Math.log10(xMax / xMin);
        List<LabelledLogAxis.Tick> ticks = new ArrayList<>();
        double last = Double.NEGATIVE_INFINITY;
        for (int r : rates) {
            double at = Math.log10(r) * pxPerDecade;
            if (at - last >= MIN_LABEL_GAP_PX) {
                ticks.add(new LabelledLogAxis.Tick(r, shortRate(r)));
                last = at;
            }
        }
        LabelledLogAxis.apply(chart, ticks, xMin, xMax, yMin, yMax, false);
    }

    /** @return 250, 1k, 1.5k, 32k: a rate in as few characters as it takes */
    static String shortRate(int rate) {
        if (rate < 1000) {
            return Integer.toString(rate);
        }
        double k = rate / 1000.0;
        return (k == Math.rint(k) ? Long.toString((long) k) : String.format(Locale.ROOT, "%.1f", k).replaceFirst("\\.0$", "")) + "k";
    }
}
