package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.awt.geom.Line2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Annotation;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Short text labels set beside the points they name on an {@link XYChart}. Each label's box starts
 * {@code clearancePx} from its point, on the first of eight sides (above, below, right, left, then the diagonals)
 * where it stays inside the plot and covers none of the chart's lines and markers, no label placed before it and none
 * of the annotations it is told to avoid; when every side near the point is taken, the box moves out in steps of
 * {@link #STEP_PX}, at most {@link #MAX_STEPS} of them, and a thin leader line joins it to its point. Where no place
 * is free, it takes the one that covers least (text first, then data, then reference lines). A label stands
 * on a pale backdrop, so that a grid or reference line it crosses does not cut its letters. Points drawn within
 * {@link #MERGE_PX} of each other share one label that names them all.
 *
 * <p>All positions it returns are screen pixels of the chart's image, origin at the top left, y downwards — the
 * coordinates of {@link XYChart#getScreenXFromChart} and {@link XYChart#getScreenYFromChart}. Call it after the
 * chart's series, size, styling and axis ranges are final (it lays the chart out once to learn them); the labels
 * are added to the chart as screen-space {@link AnnotationText}s, in the styler's annotation font. Changes the chart
 * it is given; thread-safe for distinct charts.
 */
final class PointLabels {

    /** A point to name, in chart units (the axes' values). */
    record Wanted(String name, double x, double y) {
    }

    /**
     * A placed label, in screen pixels.
     *
     * @param text   the text drawn
     * @param names  the names of the points it stands for
     * @param point  where its point is drawn (the middle of its points, when several share it)
     * @param box    the space the text takes
     * @param leader the line from the point to the box when the box stands off the point; {@code null} when it is
     *               beside it
     */
    record Placed(String text, List<String> names, Point2D point, Rectangle2D box, Line2D leader) {
        /** @return the shortest distance from {@code p} to the text's box, px (0 when the box holds it) */
        double distanceTo(Point2D p) {
            double dx = Math.max(0, Math.max(box.getMinX() - p.getX(), p.getX() - box.getMaxX()));
            double dy = Math.max(0, Math.max(box.getMinY() - p.getY(), p.getY() - box.getMaxY()));
            return Math.hypot(dx, dy);
        }
    }

    /** Points drawn closer than this, px, share one label. */
    static final double MERGE_PX = 8;
    /** Room kept around a text's box when counting what it covers, and the backdrop's margin, px. */
    private static final double PADDING_PX = 2;
    /** How far a label moves out from its point at each step, px, and the most steps it takes. */
    static final double STEP_PX = 10;
    static final int MAX_STEPS = 6;
    /** What a place costs: off the plot, over a label or text, over a line or marker, over a reference line, per step. */
    private static final double OFF_PLOT = 1000;
    private static final double OVER_TEXT = 500;
    private static final double OVER_DATA = 10;
    private static final double OVER_REFERENCE = 4;
    private static final double PER_STEP = 3;
    private static final Color BACKDROP = new Color(255, 255, 255, 200);
    private static final Color LEADER = new Color(60, 60, 60);
    /** Half the side of the square counted as a marker's space, px. */
    private static final double MARKER_HALF_PX = 5;

    private PointLabels() {
    }

    /**
     * Places one label per group of {@code points} (see the class comment) and adds it to {@code chart}.
     *
     * @param prefix      the text before the names, e.g. {@code "knee: "}
     * @param points      the points to name, in the order their labels are placed
     * @param clearancePx the distance from a point to its label's box, px: at least half its marker's size
     * @param avoid       annotations already on the chart that the labels must not cover (their bounds are read after
     *                    the layout)
     * @return the labels placed, in placement order
     */
    static List<Placed> place(XYChart chart, String prefix, List<Wanted> points, double clearancePx, List<Annotation> avoid) {
        layOut(chart);
        List<List<Wanted>> groups = new ArrayList<>();
        List<Point2D> at = new ArrayList<>();
        for (Wanted w : points) {
            Point2D p = screen(chart, w.x(), w.y());
            int g = 0;
            while (g < groups.size() && at.get(g).distance(p) >= MERGE_PX) {
                g++;
            }
            if (g == groups.size()) {
                groups.add(new ArrayList<>());
                at.add(p);
            }
            groups.get(g).add(w);
        }
        List<Rectangle2D> texts = new ArrayList<>();
        List<Rectangle2D> references = new ArrayList<>();
        for (Annotation a : avoid) {
            Rectangle2D b = a.getBounds();
            if (b == null) {
                continue;
            }
            if (a instanceof AnnotationText) {
                // XChart 3.8.8 gives a text's box from its baseline down; the letters stand above it: take both
                texts.add(new Rectangle2D.Double(b.getX(), b.getY() - b.getHeight(), b.getWidth(), 2 * b.getHeight()));
            } else {
                references.add(b);
            }
        }
        Scene scene = new Scene(plotArea(chart), segments(chart), markers(chart), texts, references, at);
        List<Placed> placed = new ArrayList<>();
        Font font = chart.getStyler().getAnnotationTextFont();
        FontRenderContext frc = new FontRenderContext(null, true, true);
        for (List<Wanted> group : groups) {
            List<String> names = group.stream().map(Wanted::name).distinct().toList();
            String text = prefix + String.join(", ", names);
            Point2D p = centre(group.stream().map(w -> screen(chart, w.x(), w.y())).toList());
            Rectangle2D size = new TextLayout(text, font, frc).getBounds();
            Placed best = null;
            double bestScore = Double.MAX_VALUE;
            for (int step = 0; step <= MAX_STEPS; step++) {
                List<Rectangle2D> candidates = candidates(p, size.getWidth(), size.getHeight(), clearancePx + step * STEP_PX);
                for (int i = 0; i < candidates.size(); i++) {
                    Rectangle2D box = candidates.get(i);
                    Placed candidate = new Placed(text, names, p, box, step == 0 ? null : leader(p, box, clearancePx));
                    double score = step * PER_STEP + i * 0.1 + scene.cost(candidate, placed);
                    if (score < bestScore) {
                        bestScore = score;
                        best = candidate;
                    }
                }
            }
            placed.add(best);
            chart.addAnnotation(new Backdrop(padded(best.box()), best.leader()));
            chart.addAnnotation(new AnnotationText(text, best.box().getCenterX(), chart.getHeight() - best.box().getCenterY(), true));
        }
        return List.copyOf(placed);
    }

    /**
     * What a label must keep clear of, in screen pixels.
     *
     * @param points every labelled point, to keep a label nearer its own point than any other
     */
    private record Scene(Rectangle2D plot, List<double[]> segments, List<Rectangle2D> markers, List<Rectangle2D> texts,
                         List<Rectangle2D> references, List<Point2D> points) {

        /**
         * @param placed the labels placed so far
         * @return how bad a place {@code c} is: off the plot, over text, over data, over a reference line, misleading
         */
        double cost(Placed c, List<Placed> placed) {
            Rectangle2D box = c.box();
            List<Rectangle2D> labels = placed.stream().map(Placed::box).toList();
            double cost = (plot.contains(padded(box)) ? 0 : OFF_PLOT) + OVER_TEXT * (count(box, texts) + count(box, labels))
                    + OVER_DATA * (count(box, markers) + crossings(box, segments)) + OVER_REFERENCE * count(box, references);
            double own = c.distanceTo(c.point());
            cost += OVER_DATA * points.stream().filter(q -> q.distance(c.point()) >= MERGE_PX && c.distanceTo(q) < own).count();
            Line2D leader = c.leader();
            if (leader != null) {
                cost += OVER_TEXT * (texts.stream().filter(leader::intersects).count()
                        + labels.stream().filter(leader::intersects).count());
                cost += OVER_DATA * placed.stream().filter(o -> o.leader() != null && o.leader().intersectsLine(leader)).count();
            }
            return cost;
        }
    }

    /** @return a leader from {@code clearancePx} off {@code p} to the nearest point of {@code box} */
    private static Line2D leader(Point2D p, Rectangle2D box, double clearancePx) {
        Point2D near = nearest(box, p);
        double length = near.distance(p);
        double from = length == 0 ? 0 : Math.min(clearancePx, length) / length;
        return new Line2D.Double(p.getX() + (near.getX() - p.getX()) * from, p.getY() + (near.getY() - p.getY()) * from,
                near.getX(), near.getY());
    }

    /** Paints {@code chart} once, unseen, so that its screen coordinates are known. */
    static void layOut(XYChart chart) {
        BufferedImage scratch = new BufferedImage(chart.getWidth(), chart.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = scratch.createGraphics();
        try {
            chart.paint(g, chart.getWidth(), chart.getHeight());
        } finally {
            g.dispose();
        }
    }

    /** @return where the chart-unit point ({@code x}, {@code y}) is drawn, px */
    static Point2D screen(XYChart chart, double x, double y) {
        return new Point2D.Double(chart.getScreenXFromChart(x), chart.getScreenYFromChart(y));
    }

    /** Boxes of the text's size around {@code p}, {@code d} px away: above, below, right, left, then the diagonals. */
    private static List<Rectangle2D> candidates(Point2D p, double w, double h, double d) {
        double x = p.getX();
        double y = p.getY();
        double diag = d * Math.sqrt(0.5);
        return List.of(
                box(x - w / 2, y - d - h, w, h), box(x - w / 2, y + d, w, h),
                box(x + d, y - h / 2, w, h), box(x - d - w, y - h / 2, w, h),
                box(x + diag, y - diag - h, w, h), box(x - diag - w, y - diag - h, w, h),
                box(x + diag, y + diag, w, h), box(x - diag - w, y + diag, w, h));
    }

    private static Rectangle2D box(double x, double y, double w, double h) {
        return new Rectangle2D.Double(x, y, w, h);
    }

    private static Rectangle2D padded(Rectangle2D box) {
        return new Rectangle2D.Double(box.getX() - PADDING_PX, box.getY() - PADDING_PX,
                box.getWidth() + 2 * PADDING_PX, box.getHeight() + 2 * PADDING_PX);
    }

    /** @return how many of {@code others} the padded {@code box} overlaps */
    private static int count(Rectangle2D box, List<Rectangle2D> others) {
        Rectangle2D padded = padded(box);
        return (int) others.stream().filter(padded::intersects).count();
    }

    /** @return how many of {@code segments} cross the padded {@code box} */
    private static int crossings(Rectangle2D box, List<double[]> segments) {
        Rectangle2D padded = padded(box);
        return (int) segments.stream().filter(s -> padded.intersectsLine(s[0], s[1], s[2], s[3])).count();
    }

    /** @return the point of {@code box} nearest to {@code p} */
    private static Point2D nearest(Rectangle2D box, Point2D p) {
        return new Point2D.Double(Math.max(box.getMinX(), Math.min(p.getX(), box.getMaxX())),
                Math.max(box.getMinY(), Math.min(p.getY(), box.getMaxY())));
    }

    /** @return the plot area, px, from the styler's axis ranges */
    private static Rectangle2D plotArea(XYChart chart) {
        var styler = chart.getStyler();
        double left = chart.getScreenXFromChart(styler.getXAxisMin());
        double right = chart.getScreenXFromChart(styler.getXAxisMax());
        double top = chart.getScreenYFromChart(styler.getYAxisMax());
        double bottom = chart.getScreenYFromChart(styler.getYAxisMin());
        return new Rectangle2D.Double(left, top, right - left, bottom - top);
    }

    /** @return every drawn line of the chart as screen segments {x1, y1, x2, y2} */
    private static List<double[]> segments(XYChart chart) {
        List<double[]> out = new ArrayList<>();
        for (XYSeries s : chart.getSeriesMap().values()) {
            if (s.getXYSeriesRenderStyle() == XYSeries.XYSeriesRenderStyle.Scatter) {
                continue;
            }
            double[] xs = s.getXData();
            double[] ys = s.getYData();
            for (int i = 1; i < xs.length; i++) {
                Point2D a = screen(chart, xs[i - 1], ys[i - 1]);
                Point2D b = screen(chart, xs[i], ys[i]);
                out.add(new double[] {a.getX(), a.getY(), b.getX(), b.getY()});
            }
        }
        return out;
    }

    /** @return the space of every drawn marker of the chart, px */
    private static List<Rectangle2D> markers(XYChart chart) {
        List<Rectangle2D> out = new ArrayList<>();
        for (XYSeries s : chart.getSeriesMap().values()) {
            if (s.getMarker() == null || s.getMarker() == SeriesMarkers.NONE) {
                continue;
            }
            double half = s.getMarker() instanceof SizedMarker.OnChart m ? m.marker().sizePx() / 2 : MARKER_HALF_PX;
            for (int i = 0; i < s.getXData().length; i++) {
                Point2D p = screen(chart, s.getXData()[i], s.getYData()[i]);
                out.add(box(p.getX() - half, p.getY() - half, 2 * half, 2 * half));
            }
        }
        return out;
    }

    private static Point2D centre(List<Point2D> points) {
        double x = points.stream().mapToDouble(Point2D::getX).average().orElseThrow();
        double y = points.stream().mapToDouble(Point2D::getY).average().orElseThrow();
        return new Point2D.Double(x, y);
    }

    /** A label's pale backdrop and, when it stands off its point, the leader line to it; in screen pixels. */
    private static final class Backdrop extends Annotation {
        private final Rectangle2D box;
        private final Line2D leader;

        Backdrop(Rectangle2D box, Line2D leader) {
            super(true);
            this.box = box;
            this.leader = leader;
            this.bounds = box;
        }

        @Override
        public void paint(Graphics2D g) {
            Object antialiasing = g.getRenderingHint(RenderingHints.KEY_ANTIALIASING);
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            if (leader != null) {
                g.setColor(LEADER);
                g.setStroke(new BasicStroke(1f));
                g.draw(leader);
            }
            g.setColor(BACKDROP);
            g.fill(box);
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, antialiasing);
        }
    }
}
