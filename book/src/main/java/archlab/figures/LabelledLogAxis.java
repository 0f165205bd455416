package archlab.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.List;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;

/**
 * A logarithmic x-axis labelled with text of our choosing at positions of our choosing (percentiles,
 * offered rates), drawn on an XChart {@link XYChart}.
 *
 * <p>Why a class for it: XChart 3.8.8 cannot label a log axis with custom text. A tick-label formatter
 * ({@code setxAxisTickLabelsFormattingFunction}, {@code setCustomXAxisTickLabelsFormatter}) silently makes the
 * axis linear, and returning a blank label from one makes the renderer loop forever (both checked). So the
 * chart keeps XChart's log axis for the geometry, its numeric labels are painted transparent (their space
 * stays), and each label is drawn as an annotation under the plot with a dashed grid line above it.
 *
 * <p>Changes the chart it is given; thread-safe for distinct charts.
 */
final class LabelledLogAxis {

    /** One labelled position on the axis, in chart units. */
    record Tick(double x, String label) {
    }

    private LabelledLogAxis() {
    }

    /**
     * Makes the x-axis logarithmic from {@code xMin} to {@code xMax}, fixes the y range to [{@code yMin},
     * {@code yMax}] (the label placement needs it), and draws {@code ticks} inside the range. Call after every
     * series was added and the chart has its final size, styling and title; annotations added before are kept.
     *
     * @param gridLines whether to draw a dashed vertical line at each tick
     */
    static void apply(XYChart chart, List<Tick> ticks, double xMin, double xMax, double yMin, double yMax,
                      boolean gridLines) {
        var styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setXAxisLogarithmicDecadeOnly(true);
        styler.setXAxisMin(xMin);
        styler.setXAxisMax(xMax);
        styler.setYAxisMin(yMin);
        styler.setYAxisMax(yMax);
        styler.setXAxisTickLabelsColor(new Color(0, 0, 0, 0));
        styler.setAnnotationLineColor(new Color(110, 110, 110));
        styler.setAnnotationLineStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {4f, 4f}, 0f));
        styler.setAnnotationTextFont(styler.getAxisTickLabelsFont().deriveFont(Font.BOLD));
        styler.setAnnotationTextFontColor(Color.BLACK);

        // lay the chart out once to learn where the plot area ends, then place the labels below it
        PointLabels.layOut(chart);
        double bottom = chart.getScreenYFromChart(yMin);
        double top = chart.getScreenYFromChart(yMax);
        double content = styler.getPlotContentSize();
        double plotBorder = bottom + (bottom - top) * (1 - content) / 2 / content;
        // screen-space annotation text is placed from the bottom edge of the chart
        double labelFromBottom = chart.getHeight() - plotBorder - styler.getAxisTickLabelsFont().getSize() - 2;
        for (Tick t : ticks) {
            if (t.x() < xMin || t.x() > xMax * (1 + 1e-9)) {
                continue;
            }
            if (gridLines) {
                chart.addAnnotation(new AnnotationLine(t.x(), true, false));
            }
            chart.addAnnotation(new AnnotationText(t.label(), chart.getScreenXFromChart(t.x()), labelFromBottom, true));
        }
    }
}
