package archlab.sweep;

import static archlab.sweep.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.report.Knee;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The knee finder on hand-made rows: pay floor 8 ms, so the p99 ceiling is 16 ms. */
class KneeTest {

    private static final long PAY_FLOOR_NANOS = 8_000_000L;
    private static final long CEILING_MICROS = 16_000L;

    @Test
    @DisplayName("the knee is the highest rate with goodput ≥ 99% and p99 ≤ 2 × pay floor; the next rate is the first past it")
    void highestQualifyingRate() {
        Knee knee = Knee.find(List.of(
                row(250, 250, 9_000),
                row(500, 500, 15_000),
                row(750, 750, 40_000),      // all completed, but p99 over the ceiling
                row(1000, 600, 12_000)),    // fast, but 40% lost
                PAY_FLOOR_NANOS);
        assertThat(knee.ratePerSecond()).isEqualTo(500);
        assertThat(knee.qualifying()).containsExactly(250, 500);
        assertThat(knee.firstPastKnee()).isEqualTo(750);
        assertThat(knee.rule().p99CeilingMicros()).isEqualTo(CEILING_MICROS);
        assertThat(knee.nonMonotone()).isEmpty();
    }

    @Test
    @DisplayName("both limits are inclusive: goodput exactly 99% and p99 exactly 2 × pay floor qualify; a hair beyond does not")
    void limitsAreInclusive() {
        assertThat(Knee.find(List.of(row(1000, 990, CEILING_MICROS)), PAY_FLOOR_NANOS).ratePerSecond()).isEqualTo(1000);
        assertThat(Knee.find(List.of(row(1000, 989, CEILING_MICROS)), PAY_FLOOR_NANOS).found()).isFalse();
        assertThat(Knee.find(List.of(row(1000, 1000, CEILING_MICROS + 1)), PAY_FLOOR_NANOS).found()).isFalse();
    }

    @Test
    @DisplayName("when no rate qualifies there is no knee, it says so plainly, and the lowest rate is the first past it")
    void noKnee() {
        Knee knee = Knee.find(List.of(row(500, 400, 9_000), row(250, 250, 30_000)), PAY_FLOOR_NANOS);
        assertThat(knee.found()).isFalse();
        assertThat(knee.ratePerSecond()).isNull();
        assertThat(knee.firstPastKnee()).isEqualTo(250);
        assertThat(knee.describe()).startsWith("no knee:");
    }

    @Test
    @DisplayName("a knee at the highest rate swept has no rate past it")
    void kneeAtTheTop() {
        Knee knee = Knee.find(List.of(row(250, 250, 1_000), row(500, 500, 2_000)), PAY_FLOOR_NANOS);
        assertThat(knee.ratePerSecond()).isEqualTo(500);
        assertThat(knee.firstPastKnee()).isNull();
    }

    @Test
    @DisplayName("rows in any order give the same knee, and a failing rate below the knee is flagged as noise")
    void unorderedAndNonMonotone() {
        Knee knee = Knee.find(List.of(row(750, 100, 90_000), row(500, 500, 10_000), row(250, 200, 10_000)),
                PAY_FLOOR_NANOS);
        assertThat(knee.ratePerSecond()).isEqualTo(500);
        assertThat(knee.nonMonotone()).containsExactly(250);
        assertThat(knee.describe()).contains("did not qualify");
    }

    @Test
    @DisplayName("the definition names both conditions with the numbers filled in")
    void definitionInWords() {
        assertThat(Knee.find(List.of(row(250, 250, 1_000)), PAY_FLOOR_NANOS).rule().definition())
                .contains(">= 99%").contains("2 x 8.000 ms = 16.000 ms");
    }

    @Test
    @DisplayName("two rows for one rate, or a pay floor that is not positive, are refused")
    void badInput() {
        assertThatThrownBy(() -> Knee.find(List.of(row(250, 250, 1), row(250, 250, 1)), PAY_FLOOR_NANOS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("250");
        assertThatThrownBy(() -> Knee.find(List.of(row(250, 250, 1)), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payFloorNanos");
    }
}
