package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import org.knowm.xchart.style.markers.Marker;

/**
 * A marker of its own size, filled or drawn as an outline. XChart sizes every marker of a chart alike (the styler's
 * marker size); markers that differ in size can be stacked where lines meet, the larger under the smaller, so that
 * every one stays in sight, and an outline lets what lies under it show through.
 *
 * @param form   the marker's shape
 * @param sizePx its width and height, px
 * @param hollow whether it is an outline ({@link #OUTLINE_PX} wide) rather than filled
 */
record SizedMarker(Form form, double sizePx, boolean hollow) {

    /** The marker shapes. */
    enum Form {
        CIRCLE, SQUARE, TRIANGLE_UP, DIAMOND
    }

    /** The width of an outline, px. */
    static final float OUTLINE_PX = 2f;

    /** @return the marker as XChart paints it, centred on the point it marks; the size XChart passes is ignored */
    OnChart xchart() {
        return new OnChart(this);
    }

    /** @return the marker's outline centred on ({@code x}, {@code y}) */
    Shape outline(double x, double y) {
        double h = sizePx / 2;
        return switch (form) {
            case CIRCLE -> new Ellipse2D.Double(x - h, y - h, sizePx, sizePx);
            case SQUARE -> new Rectangle2D.Double(x - h * 0.9, y - h * 0.9, sizePx * 0.9, sizePx * 0.9);
            case TRIANGLE_UP -> polygon(new double[] {x, x + h, x - h}, new double[] {y - h, y + h * 0.8, y + h * 0.8});
            case DIAMOND -> polygon(new double[] {x, x + h, x, x - h}, new double[] {y - h, y, y + h, y});
        };
    }

    private static Shape polygon(double[] xs, double[] ys) {
        Path2D.Double p = new Path2D.Double();
        p.moveTo(xs[0], ys[0]);
        for (int i = 1; i < xs.length; i++) {
            p.lineTo(xs[i], ys[i]);
        }
        p.closePath();
        return p;
    }

    /** The XChart side: paints {@link #outline} filled or stroked, in the colour XChart has set. */
    static final class OnChart extends Marker {
        private final SizedMarker marker;

        OnChart(SizedMarker marker) {
            this.marker = marker;
        }

        /** @return the marker it paints */
        SizedMarker marker() {
            return marker;
        }

        @Override
        public void paint(Graphics2D g, double x, double y, int ignoredSize) {
            Shape s = marker.outline(x, y);
            if (marker.hollow()) {
                g.setStroke(new BasicStroke(OUTLINE_PX));
                g.draw(s);
            } else {
                g.fill(s);
            }
        }
    }
}
