package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One saved run over time, in one PNG of three panels sharing the x-axis (seconds since the measured run began; a
 * warm-up's intervals before 0):
 * <ol>
 *   <li><b>goodput</b>: completed per second in each interval, beside what was offered;</li>
 *   <li><b>latency</b>: p99 and p50 of each interval's answered requests (ms);</li>
 *   <li><b>the machine</b>: the hiccup probe's longest stall and the generator's send-lag p99 in each interval (ms).</li>
 * </ol>
 * Warm-ups and the scenario's windows (a payment stall, the notifier down) are shaded on every panel, so a dip in
 * goodput or a jump in p99 can be read against what the run did then and whether the machine stalled then. The trap
 * it shows: one aggregate p99 cannot say whether the run was slow throughout, slow in one window, or slow while the
 * machine was stalled. The lines are metrics of one run, not checkpoints, so they take colours no checkpoint has
 * ({@link CheckpointColours#other}). Stateless and thread-safe.
 */
public final class TimelineChart {

    static final int WIDTH = 1000;
    static final int PANEL_HEIGHT = 420;

    private static final Color WARM_UP = new Color(128, 128, 128, 50);
    /**
     * The scenario windows' shades: Okabe and Ito's yellow, sky blue and reddish purple, pale; none a checkpoint's
     * colour (a timeline's lines are metrics of one run, not checkpoints; see {@link CheckpointColours}).
     */
    static final Color[] WINDOWS = {CheckpointColours.withAlpha(CheckpointColours.YELLOW, 110),
            CheckpointColours.withAlpha(CheckpointColours.SKY_BLUE, 60), CheckpointColours.withAlpha(CheckpointColours.REDDISH_PURPLE, 50)};

    private TimelineChart() {
    }

    /**
     * @param report a saved run report ({@code <name>.json}) with a timeline
     * @param png    where to write the three-panel chart
     * @return {@code png}
     * @throws IllegalArgumentException if the report has no timeline
     */
    public static Path render(Path report, Path png) {
        SavedTimeline t = SavedRunReport.readTimeline(report);
        ChartImages.headless();
        List<BufferedImage> panels = new java.util.ArrayList<>(List.of(ChartImages.image(goodput(t)),
                ChartImages.image(latency(t)), ChartImages.image(machine(t))));
        SavedRunReport.readServerTimeline(report).ifPresent(line -> {
            panels.add(ChartImages.image(serverQueue(t, line)));
            panels.add(ChartImages.image(serverThreads(t, line)));
        });
        return ChartImages.writePng(ChartImages.stack(panels), png);
    }

    static XYChart goodput(SavedTimeline t) {
        XYChart chart = base(t, "Goodput per " + t.interval().toMillis() + " ms interval: " + t.label(), "requests per second");
        double top = max(t, SavedTimeline.Point::offeredPerSecond, SavedTimeline.Point::goodputPerSecond,
                SavedTimeline.Point::retriedPerSecond) * 1.15;
        shade(chart, t, top);
        lines(chart, t, 0, "completed/s", SavedTimeline.Point::goodputPerSecond, false, 2.5f, null);
        lines(chart, t, 1, "offered/s", SavedTimeline.Point::offeredPerSecond, false, 1.5f, new float[] {6f, 4f});
        if (t.retried()) {
            lines(chart, t, 2, "retries/s", SavedTimeline.Point::retriedPerSecond, false, 1.5f, new float[] {2f, 3f});
        }
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(top);
        return chart;
    }

    static XYChart latency(SavedTimeline t) {
        XYChart chart = base(t, "Latency per interval (answered requests)", "ms");
        double top = max(t, SavedTimeline.Point::p99Millis) * 1.15;
        shade(chart, t, top);
        lines(chart, t, 0, "p99", SavedTimeline.Point::p99Millis, true, 2.5f, null);
        lines(chart, t, 1, "p50", SavedTimeline.Point::p50Millis, true, 1.5f, new float[] {2f, 3f});
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(top);
        return chart;
    }

    static XYChart machine(SavedTimeline t) {
        XYChart chart = base(t, "The machine per interval: longest hiccup (probe) and send-lag p99 (generator)", "ms");
        double top = Math.max(1.0, max(t, SavedTimeline.Point::hiccupMaxMillis, SavedTimeline.Point::sendLagP99Millis) * 1.15);
        shade(chart, t, top);
        lines(chart, t, 0, "hiccup max", SavedTimeline.Point::hiccupMaxMillis, false, 2.5f, null);
        lines(chart, t, 1, "send-lag p99", SavedTimeline.Point::sendLagP99Millis, false, 1.5f, new float[] {6f, 4f});
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(top);
        return chart;
    }

    /** Over HTTP: the longest a request waited for one of the server's threads, per interval ({@code server_timeline}). */
    static XYChart serverQueue(SavedTimeline t, String serverTimeline) {
        return serverPanel(t, serverTimeline, "queue_wait_max_ms",
                "The server per interval: the longest a request waited for a server thread", "ms", "queue wait max");
    }

    /** Over HTTP: the most server threads busy at once, per interval ({@code server_timeline}). */
    static XYChart serverThreads(SavedTimeline t, String serverTimeline) {
        return serverPanel(t, serverTimeline, "busy_max", "The server per interval: the most threads busy at once",
                "threads", "busy threads");
    }

    /** One of the server's series, per interval from the run's start (the measured run's 0 s). */
    private static XYChart serverPanel(SavedTimeline t, String serverTimeline, String series, String title, String yTitle,
                                       String legend) {
        List<Double> values = archlab.scenario.QueueWaitAroundTrigger.series(serverTimeline, series);
        double interval = archlab.scenario.QueueWaitAroundTrigger.intervalMillis(serverTimeline) / 1e3;
        XYChart chart = base(t, title, yTitle);
        double top = Math.max(1.0, values.stream().mapToDouble(Double::doubleValue).max().orElse(0) * 1.15);
        shade(chart, t, top);
        if (!values.isEmpty()) {
            XYSeries s = chart.addSeries(legend,
                    java.util.stream.IntStream.range(0, values.size()).mapToDouble(i -> (i + 0.5) * interval).toArray(),
                    values.stream().mapToDouble(Double::doubleValue).toArray());
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(CheckpointColours.other(0));
            s.setLineColor(CheckpointColours.other(0));
            s.setLineStyle(new BasicStroke(2.5f));
        }
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(top);
        return chart;
    }

    private static XYChart base(SavedTimeline t, String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle("seconds since the measured run began (warm-ups before 0)").yAxisTitle(yTitle).build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setMarkerSize(4);
        chart.getStyler().setXAxisMin(t.intervals().get(0).startSeconds());
        SavedTimeline.Point last = t.intervals().get(t.intervals().size() - 1);
        chart.getStyler().setXAxisMax(last.startSeconds() + last.lengthSeconds());
        return chart;
    }

    /**
     * One line per phase (a warm-up and the run are separate lines, so the gap between them is not drawn across).
     *
     * @param colourIndex  which of {@link CheckpointColours#other} the metric is drawn in: a metric is not a checkpoint
     * @param answeredOnly leave out intervals in which no request was answered (their latency is not 0, it is none)
     */
    private static void lines(XYChart chart, SavedTimeline t, int colourIndex, String what, ToDoubleFunction<SavedTimeline.Point> y,
                              boolean answeredOnly, float width, float[] dash) {
        Color color = CheckpointColours.other(colourIndex);
        for (String phase : List.of("jit-warmup", "warmup", "run")) {
            List<SavedTimeline.Point> points = t.phase(phase).stream().filter(p -> !answeredOnly || p.answered()).toList();
            if (points.isEmpty()) {
                continue;
            }
            XYSeries s = chart.addSeries(phase.equals("run") ? what : what + " (" + phase + ")",
                    points.stream().mapToDouble(SavedTimeline.Point::midSeconds).toArray(),
                    points.stream().mapToDouble(y).toArray());
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(color);
            s.setLineColor(color);
            s.setLineStyle(dash == null ? new BasicStroke(width)
                    : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f));
            s.setShowInLegend(phase.equals("run"));
        }
    }

    /** Shades each warm-up's span grey and each scenario window in a colour of its own, up to {@code top}. */
    private static void shade(XYChart chart, SavedTimeline t, double top) {
        for (String phase : List.of("jit-warmup", "warmup")) {
            List<SavedTimeline.Point> warm = t.phase(phase);
            if (!warm.isEmpty()) {
                SavedTimeline.Point last = warm.get(warm.size() - 1);
                area(chart, phase + " (not measured)", warm.get(0).startSeconds(), last.startSeconds() + last.lengthSeconds(),
                        top, WARM_UP);
            }
        }
        for (int i = 0; i < t.windows().size(); i++) {
            SavedTimeline.Window w = t.windows().get(i);
            area(chart, String.format(Locale.ROOT, "%s %.1f-%.1f s", w.label(), w.fromSeconds(), w.toSeconds()),
                    w.fromSeconds(), w.toSeconds(), top, WINDOWS[i % WINDOWS.length]);
        }
    }

    private static void area(XYChart chart, String name, double from, double to, double top, Color color) {
        XYSeries s = chart.addSeries(name, new double[] {from, to}, new double[] {top, top});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
        s.setFillColor(color);
        s.setLineColor(color);
        s.setMarker(SeriesMarkers.NONE);
    }

    @SafeVarargs
    private static double max(SavedTimeline t, ToDoubleFunction<SavedTimeline.Point>... fs) {
        double m = 0;
        for (SavedTimeline.Point p : t.intervals()) {
            for (ToDoubleFunction<SavedTimeline.Point> f : fs) {
                m = Math.max(m, f.applyAsDouble(p));
            }
        }
        return m <= 0 ? 1 : m;
    }

    /** @return the figure's file name for a run: {@code timeline-<module>-<name>.png} */
    static String fileName(String module, String name) {
        return "timeline-" + Figures.fileSafe(module) + "-" + Figures.fileSafe(name) + ".png";
    }
}
