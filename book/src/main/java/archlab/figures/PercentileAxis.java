package archlab.figures;

import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;

/**
 * HdrHistogram's percentile x-axis: a percentile {@code p} is drawn at {@code x = 1 / (1 − p)} on a log
 * scale, so 50%, 90%, 99%, 99.9%, 99.99% are evenly spaced (x = 2, 10, 100, 1,000, 10,000) and the tail gets
 * as much room as the middle.
 *
 * <p>XChart cannot label a log axis with custom text, so {@link #apply} draws the labels through
 * {@link LabelledLogAxis}.
 *
 * <p>The mapping functions are pure; {@link #apply} changes the chart it is given. Thread-safe for distinct charts.
 */
final class PercentileAxis {

    /** A labelled tick: the percentile (0–100) and its label. */
    record Tick(double percentile, String label) {
        double x() {
            return PercentileAxis.x(percentile);
        }
    }

    /** The labelled ticks, up to 99.9999%. */
    static final List<Tick> TICKS = List.of(new Tick(50, "50%"), new Tick(90, "90%"), new Tick(99, "99%"),
            new Tick(99.9, "99.9%"), new Tick(99.99, "99.99%"), new Tick(99.999, "99.999%"), new Tick(99.9999, "99.9999%"));

    private PercentileAxis() {
    }

    /**
     * @param percentile 0 (inclusive) to 100 (exclusive)
     * @return {@code 1 / (1 − percentile/100)}: 1 at 0%, 2 at 50%, 100 at 99%
     * @throws IllegalArgumentException outside [0, 100): 100% has no finite position
     */
    static double x(double percentile) {
        if (!(percentile >= 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in [0, 100), was " + percentile);
        }
        return 100.0 / (100.0 - percentile);
    }

    /** @return the percentile (0–100) drawn at {@code x ≥ 1}: the inverse of {@link #x} */
    static double percentile(double x) {
        if (!(x >= 1)) {
            throw new IllegalArgumentException("x must be at least 1, was " + x);
        }
        return 100.0 * (1.0 - 1.0 / x);
    }

    /** @return the smallest power of ten ≥ {@code x} and ≥ 100 (so the axis always reaches 99%), at most 10^6 */
    static double axisMax(double x) {
        double decade = Math.pow(10, Math.ceil(Math.log10(Math.max(100, x)) - 1e-9));
        return Math.min(1e6, decade);
    }

    /** @return the ticks that fall inside an axis ending at {@code xMax} */
    static List<Tick> ticksUpTo(double xMax) {
        List<Tick> out = new ArrayList<>();
        for (Tick t : TICKS) {
            if (t.x() <= xMax * (1 + 1e-9)) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Sets the chart's x-axis to the percentile axis from 0% (x = 1) to {@code xMax}, with the percentile labels
     * and their grid lines (see {@link LabelledLogAxis}), and fixes the y range to [{@code yMin}, {@code yMax}].
     * Call after every series was added.
     */
    static void apply(XYChart chart, double xMax, double yMin, double yMax) {
        LabelledLogAxis.apply(chart, ticksUpTo(xMax).stream().map(t -> new LabelledLogAxis.Tick(t.x(), t.label())).toList(),
                1.0, xMax, yMin, yMax, true);
    }
}
