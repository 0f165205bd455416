package archlab.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The 1 / (1 − p) percentile axis as a pure function. */
class PercentileAxisTest {

    @Test
    @DisplayName("x = 1 / (1 − p): 0% → 1, 50% → 2, 90% → 10, 99% → 100, 99.9% → 1,000, 99.99% → 10,000")
    void mapping() {
        assertThat(PercentileAxis.x(0)).isEqualTo(1.0);
        assertThat(PercentileAxis.x(50)).isCloseTo(2.0, within(1e-9));
        assertThat(PercentileAxis.x(90)).isCloseTo(10.0, within(1e-9));
        assertThat(PercentileAxis.x(99)).isCloseTo(100.0, within(1e-9));
        assertThat(PercentileAxis.x(99.9)).isCloseTo(1_000.0, within(1e-6));
        assertThat(PercentileAxis.x(99.99)).isCloseTo(10_000.0, within(1e-4));
    }

    @Test
    @DisplayName("percentile(x) inverts x(p), and the labelled ticks are one decade apart from 90% on")
    void inverseAndTicks() {
        for (double p : new double[] {0, 12.5, 50, 75, 99, 99.95}) {
            assertThat(PercentileAxis.percentile(PercentileAxis.x(p))).isCloseTo(p, within(1e-9));
        }
        assertThat(PercentileAxis.TICKS).extracting(PercentileAxis.Tick::label)
                .startsWith("50%", "90%", "99%", "99.9%", "99.99%");
        for (int i = 2; i < PercentileAxis.TICKS.size(); i++) {
            assertThat(PercentileAxis.TICKS.get(i).x() / PercentileAxis.TICKS.get(i - 1).x()).isCloseTo(10, within(1e-6));
        }
    }

    @Test
    @DisplayName("100% and values outside [0, 100) have no position on the axis")
    void outOfRange() {
        assertThatThrownBy(() -> PercentileAxis.x(100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PercentileAxis.x(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PercentileAxis.x(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PercentileAxis.percentile(0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("the axis ends at the decade above the deepest percentile drawn, never before 99%")
    void axisMax() {
        assertThat(PercentileAxis.axisMax(3)).isEqualTo(100);
        assertThat(PercentileAxis.axisMax(100)).isEqualTo(100);
        assertThat(PercentileAxis.axisMax(4_500)).isEqualTo(10_000);
        assertThat(PercentileAxis.ticksUpTo(10_000)).extracting(PercentileAxis.Tick::label).endsWith("99.99%");
    }
}
