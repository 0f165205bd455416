package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
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
 * Each checkpoint's knee is a diamond on both panels and named in the legend ("no knee" when there is none); one
 * "knee" label stands at each rate where knees are, however many lines have theirs there. The locked baseline's
 * capacity bound, 1 / (pay share × pay floor) — {@code ch12-1-baseline} holds its one lock across every downstream
 * call of a pay, so one pay at a time goes through — is a vertical line on both panels. Rate labels are short
 * (1.5k, 32k) and a label too close to the one before it is left out, so that none overlap. Stateless and
 * thread-safe.
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
        List<BufferedImage> panels = List.of(ChartImages.image(throughput(read)), ChartImages.image(p99(read)));
        return ChartImages.writePng(ChartImages.stack(panels), png);
    }

    /** @return the locked baseline's capacity bound, req/s, when it is among the sweeps (and says its pay floor) */
    static OptionalDouble lockBound(List<SavedSweep> sweeps) {
        return sweeps.stream().filter(s -> s.module().equals(LOCKED_BASELINE) && s.payFloorNanos() > 0)
                .mapToDouble(s -> 1e9 / (PAY_SHARE * s.payFloorNanos())).findFirst();
    }

    static XYChart throughput(List<SavedSweep> sweeps) {
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
        int i = 0;
        for (SavedSweep s : sweeps) {
            Color color = color(chart, i++);
            double[] xs = s.points().stream().mapToDouble(SavedSweep.Point::rate).toArray();
            double[] ys = s.points().stream().mapToDouble(p -> Math.max(yMin, p.rpsCompleted())).toArray();
            line(chart, name(s, "completed/s"), xs, ys, color);
            knee(chart, s, color, SavedSweep.Point::rpsCompleted);
        }
        kneeLabels(chart, sweeps, SavedSweep.Point::rpsCompleted, v -> v * 1.9);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        lockBound(sweeps).ifPresent(bound -> {
            chart.addAnnotation(new AnnotationLine(bound, true, false));
            chart.addAnnotation(new AnnotationText(String.format(Locale.ROOT, "ch12-1 lock bound: 1 / (%.2f x %.0f ms) = %,.0f req/s",
                    PAY_SHARE, 1e9 / bound / PAY_SHARE / 1e6, bound), bound * 2.6, yMax / 4, false));
        });
        axis(chart, sweeps, yMin, yMax);
        return chart;
    }

    static XYChart p99(List<SavedSweep> sweeps) {
        XYChart chart = base("p99 latency against offered rate (log scale)", "p99 (ms, log scale)");
        double maxMs = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p.p99Micros() / 1e3).max().orElse(1);
        double minMs = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p.p99Micros() / 1e3)
                .filter(v -> v > 0).min().orElse(1);
        int i = 0;
        TreeSet<Long> ceilings = new TreeSet<>();
        for (SavedSweep s : sweeps) {
            Color color = color(chart, i++);
            double[] xs = s.points().stream().mapToDouble(SavedSweep.Point::rate).toArray();
            // a log axis cannot show 0: a p99 below 1 µs is drawn at 1 µs
            double[] ys = s.points().stream().mapToDouble(p -> Math.max(0.001, p.p99Micros() / 1e3)).toArray();
            line(chart, name(s, "p99"), xs, ys, color);
            knee(chart, s, color, p -> Math.max(0.001, p.p99Micros() / 1e3));
            if (s.knee().p99CeilingMicros() > 0) {
                ceilings.add(s.knee().p99CeilingMicros());
            }
        }
        double lowest = ceilings.isEmpty() ? minMs : Math.min(minMs, ceilings.first() / 1e3);
        double highest = ceilings.isEmpty() ? maxMs : Math.max(maxMs, ceilings.last() / 1e3);
        double yMin = Math.pow(10, Math.floor(Math.log10(lowest * 0.5))); // room below the lowest line for the "knee" labels
        // p99 lines crowd each other near the ceiling: the labels stand below all of them, over the knee's rate
        kneeLabels(chart, sweeps, p -> Math.max(0.001, p.p99Micros() / 1e3), v -> yMin * 2);
        double yMax = Math.pow(10, Math.ceil(Math.log10(highest * 1.2)));
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        for (long c : ceilings) {
            chart.addAnnotation(new AnnotationLine(c / 1e3, false, false));
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
            chart.addAnnotation(new AnnotationText("knee ceilings, p99 <= 2 x pay floor: " + String.join(", ", parts),
                    xMid * 1.6, ceilings.last() / 1e3 * 1.45, false));
        }
        lockBound(sweeps).ifPresent(bound -> chart.addAnnotation(new AnnotationLine(bound, true, false)));
        axis(chart, sweeps, yMin, yMax);
        return chart;
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

    private static Color color(XYChart chart, int i) {
        Color[] palette = chart.getStyler().getSeriesColors();
        return palette[(i + 1) % palette.length]; // palette[0] is left to the reference line's slot
    }

    private static void line(XYChart chart, String name, double[] xs, double[] ys, Color color) {
        XYSeries s = chart.addSeries(name, xs, ys);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(color);
        s.setLineColor(color);
        s.setLineStyle(new BasicStroke(2.5f));
    }

    /** @return the checkpoint's legend name: module, what is drawn, and its knee */
    private static String name(SavedSweep s, String what) {
        return s.label() + " " + what + (s.knee().rate() == null ? " (no knee)" : " (knee " + s.knee().rate() + " req/s)");
    }

    /** @return the point of {@code s} at its knee, if it has one */
    private static Optional<SavedSweep.Point> kneePoint(SavedSweep s) {
        return s.knee().rate() == null ? Optional.empty()
                : s.points().stream().filter(p -> p.rate() == s.knee().rate()).findFirst();
    }

    /** Marks the knee with a diamond on the checkpoint's line; nothing when there is no knee. */
    private static void knee(XYChart chart, SavedSweep s, Color color, ToDoubleFunction<SavedSweep.Point> y) {
        kneePoint(s).ifPresent(at -> {
            XYSeries k = chart.addSeries(s.label() + " knee", new double[] {at.rate()}, new double[] {y.applyAsDouble(at)});
            k.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            k.setMarker(SeriesMarkers.DIAMOND);
            k.setMarkerColor(color.darker());
            k.setShowInLegend(false); // the line's legend entry names the knee
        });
    }

    /** One "knee" label per rate that has knees, beside the highest of them: labels of one rate never pile up. */
    private static void kneeLabels(XYChart chart, List<SavedSweep> sweeps, ToDoubleFunction<SavedSweep.Point> y,
                                   DoubleUnaryOperator labelY) {
        Map<Integer, Double> highest = new TreeMap<>();
        for (SavedSweep s : sweeps) {
            kneePoint(s).ifPresent(at -> highest.merge(at.rate(), y.applyAsDouble(at), Math::max));
        }
        highest.forEach((rate, top) -> chart.addAnnotation(new AnnotationText("knee", rate, labelY.applyAsDouble(top), false)));
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
