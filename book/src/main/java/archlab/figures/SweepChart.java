package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 *   <li><b>throughput</b>: completed per second against offered, with the "completed = offered" diagonal a
 *       service that keeps up would follow;</li>
 *   <li><b>p99</b> (ms, log scale) against offered, with the knee definition's p99 ceiling.</li>
 * </ol>
 * Each checkpoint's knee is a diamond on both panels and named in the legend ("no knee" when there is none).
 * Stateless and thread-safe.
 */
public final class SweepChart {

    static final int WIDTH = 1000;
    static final int PANEL_HEIGHT = 560;
    /** More swept rates than this are labelled by decade only, so the labels do not overlap. */
    private static final int MAX_RATE_LABELS = 14;

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

    static XYChart throughput(List<SavedSweep> sweeps) {
        XYChart chart = base("Capacity: completed per second against offered rate", "completed per second");
        double maxRate = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).max().orElse(1);
        double maxRps = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rpsCompleted).max().orElse(1);
        double minRate = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).min().orElse(1);
        // y = x is a curve on a log x-axis: draw it through enough points
        double[] diagonal = new double[64];
        for (int k = 0; k < diagonal.length; k++) {
            diagonal[k] = minRate * Math.pow(maxRate / minRate, k / (diagonal.length - 1.0));
        }
        XYSeries ideal = chart.addSeries("completed = offered (a service that keeps up)", diagonal, diagonal);
        ideal.setMarker(SeriesMarkers.NONE);
        ideal.setLineColor(Color.GRAY);
        ideal.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        double top = PercentileChart.niceCeiling(Math.max(maxRate, maxRps) * 1.05);
        int i = 0;
        for (SavedSweep s : sweeps) {
            Color color = color(chart, i++);
            double[] xs = s.points().stream().mapToDouble(SavedSweep.Point::rate).toArray();
            double[] ys = s.points().stream().mapToDouble(SavedSweep.Point::rpsCompleted).toArray();
            line(chart, name(s, "completed/s"), xs, ys, color);
            knee(chart, s, color, p -> p.rpsCompleted(), v -> v + top * 0.05);
        }
        axis(chart, sweeps, 0, top);
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
            knee(chart, s, color, p -> Math.max(0.001, p.p99Micros() / 1e3), v -> v * 0.6);
            if (s.p99CeilingMicros() > 0) {
                ceilings.add(s.p99CeilingMicros());
            }
        }
        double lowest = ceilings.isEmpty() ? minMs : Math.min(minMs, ceilings.first() / 1e3);
        double highest = ceilings.isEmpty() ? maxMs : Math.max(maxMs, ceilings.last() / 1e3);
        double yMin = lowest * 0.4; // room below the lowest point for its "knee" label
        double yMax = Math.pow(10, Math.ceil(Math.log10(highest * 1.2)));
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        // p99 rises with the rate, so below the ceiling on the right is where the lines are least likely to be
        double textX = sweeps.stream().flatMap(s -> s.points().stream()).mapToDouble(SavedSweep.Point::rate).max().orElse(1);
        for (long c : ceilings) {
            chart.addAnnotation(new AnnotationLine(c / 1e3, false, false));
            chart.addAnnotation(new AnnotationText(String.format(Locale.ROOT, "knee ceiling: p99 <= %.0f ms (2 x pay floor)",
                    c / 1e3), textX / 2.2, c / 1e3 * 0.82, false));
        }
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
        return s.label() + " " + what + (s.kneeRate() == null ? " (no knee)" : " (knee " + s.kneeRate() + " req/s)");
    }

    /** Marks the knee with a diamond on the checkpoint's line; nothing when there is no knee. */
    private static void knee(XYChart chart, SavedSweep s, Color color, ToDoubleFunction<SavedSweep.Point> y,
                             DoubleUnaryOperator labelY) {
        if (s.kneeRate() == null) {
            return;
        }
        SavedSweep.Point at = s.points().stream().filter(p -> p.rate() == s.kneeRate()).findFirst().orElse(null);
        if (at == null) {
            return;
        }
        XYSeries k = chart.addSeries(s.label() + " knee", new double[] {at.rate()}, new double[] {y.applyAsDouble(at)});
        k.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        k.setMarker(SeriesMarkers.DIAMOND);
        k.setMarkerColor(color.darker());
        k.setShowInLegend(false); // the line's legend entry names the knee
        chart.addAnnotation(new AnnotationText("knee", at.rate(), labelY.applyAsDouble(y.applyAsDouble(at)), false));
    }

    /** The shared x-axis: log scale over the swept rates, labelled at each (or by decade when there are many). */
    private static void axis(XYChart chart, List<SavedSweep> sweeps, double yMin, double yMax) {
        TreeSet<Integer> rates = new TreeSet<>();
        sweeps.forEach(s -> s.points().forEach(p -> rates.add(p.rate())));
        double xMin = rates.first() / 1.3;
        double xMax = rates.last() * 1.3;
        List<LabelledLogAxis.Tick> ticks = new ArrayList<>();
        if (rates.size() <= MAX_RATE_LABELS) {
            rates.forEach(r -> ticks.add(new LabelledLogAxis.Tick(r, String.format(Locale.ROOT, "%,d", r))));
        } else {
            for (double d = Math.pow(10, Math.ceil(Math.log10(xMin))); d <= xMax; d *= 10) {
                ticks.add(new LabelledLogAxis.Tick(d, String.format(Locale.ROOT, "%,.0f", d)));
            }
        }
        LabelledLogAxis.apply(chart, ticks, xMin, xMax, yMin, yMax, false);
    }
}
