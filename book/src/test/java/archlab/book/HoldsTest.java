package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The holds condition language: its grammar, its arithmetic, and what it does with a value it cannot read. */
class HoldsTest {

    /** A lookup over a fixed table: "file:path" to number; anything else is unknown. */
    private static Holds.Lookup table(Map<String, Double> values) {
        return (file, path) -> {
            Double v = values.get(file + ":" + path);
            if (v == null) {
                throw new IllegalArgumentException("book/results/" + file + " has no " + path);
            }
            return v;
        };
    }

    private static final Holds.Lookup VALUES = table(Map.of(
            "m/on.json:run.operations.get.latency.p99Micros", 2239.0,
            "m/off.json:run.operations.get.latency.p99Micros", 1571.0,
            "ch12-1-baseline/baseline.json:run.segments[operation=pay,segment=lock.wait].p50Micros", 198181.0,
            "ch12-1-baseline/baseline.json:run.segments[operation=pay,segment=inventory].p50Micros", 1884.0,
            "c/latency.json:rows[workload=book load (open loop),cache=true].meanMicros", 970.3));

    private static boolean holds(String condition) {
        return Holds.parse(condition).evaluate(VALUES).holds();
    }

    @Test
    @DisplayName("the six comparisons compare two values, or a value and a number")
    void comparisons() {
        String on = "m/on.json:run.operations.get.latency.p99Micros";
        String off = "m/off.json:run.operations.get.latency.p99Micros";
        assertThat(holds(on + " > " + off)).isTrue();
        assertThat(holds(on + " >= " + off)).isTrue();
        assertThat(holds(on + " < " + off)).isFalse();
        assertThat(holds(on + " <= " + off)).isFalse();
        assertThat(holds(on + " == 2239")).isTrue();
        assertThat(holds(on + " != 2239")).isFalse();
        assertThat(holds("1571 == " + off)).isTrue();
    }

    @Test
    @DisplayName("arithmetic: * and / bind tighter than + and -, left to right, parentheses group, literals may be negative or fractional")
    void arithmetic() {
        String on = "m/on.json:run.operations.get.latency.p99Micros";
        String off = "m/off.json:run.operations.get.latency.p99Micros";
        assertThat(holds(on + " > 1.4 * " + off)).as("2239 > 2199.4").isTrue();
        assertThat(holds(on + " > 1.5 * " + off)).as("2239 > 2356.5").isFalse();
        assertThat(holds("2 + 3 * 4 == 14")).isTrue();
        assertThat(holds("(2 + 3) * 4 == 20")).isTrue();
        assertThat(holds("10 - 4 - 3 == 3")).as("left to right").isTrue();
        assertThat(holds("8 / 4 / 2 == 1")).as("left to right").isTrue();
        assertThat(holds("-0.5 * 4 == -2")).isTrue();
        assertThat(holds("1e3 == 1000")).isTrue();
        assertThat(holds("(" + on + " - " + off + ") / " + off + " > 0.4")).isTrue();
    }

    @Test
    @DisplayName("and binds tighter than or; both sides are read, so every value is reported")
    void logic() {
        assertThat(holds("1 < 2 and 2 < 3")).isTrue();
        assertThat(holds("1 < 2 and 3 < 2")).isFalse();
        assertThat(holds("1 > 2 or 2 < 3")).isTrue();
        assertThat(holds("1 > 2 or 2 < 3 and 3 < 2")).as("or (and)").isFalse();
        assertThat(holds("2 < 3 or 1 > 2 and 3 < 2")).isTrue();

        Holds.Evaluation e = Holds.parse("m/on.json:run.operations.get.latency.p99Micros < 1 and "
                + "m/off.json:run.operations.get.latency.p99Micros > 1").evaluate(VALUES);
        assertThat(e.holds()).isFalse();
        assertThat(e.values()).containsOnlyKeys("m/on.json:run.operations.get.latency.p99Micros",
                "m/off.json:run.operations.get.latency.p99Micros");
        assertThat(e.describeValues()).isEqualTo(
                "m/on.json:run.operations.get.latency.p99Micros = 2239; m/off.json:run.operations.get.latency.p99Micros = 1571");
    }

    @Test
    @DisplayName("a value may select an array element by its fields; dots, spaces and parentheses inside the brackets belong to it")
    void selections() {
        assertThat(holds("ch12-1-baseline/baseline.json:run.segments[operation=pay,segment=lock.wait].p50Micros"
                + " + ch12-1-baseline/baseline.json:run.segments[operation=pay,segment=inventory].p50Micros >= 200000")).isTrue();
        assertThat(holds("c/latency.json:rows[workload=book load (open loop),cache=true].meanMicros < 1000")).isTrue();
        assertThat(holds("(c/latency.json:rows[workload=book load (open loop),cache=true].meanMicros) < 1000")).isTrue();
    }

    @Test
    @DisplayName("a value the results do not have is an error naming it, never a false")
    void unknownValueIsAnError() {
        Holds h = Holds.parse("m/on.json:run.operations.get.latency.p98Micros > 1 or 1 < 2");
        assertThatThrownBy(() -> h.evaluate(VALUES)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("m/on.json").hasMessageContaining("p98Micros");
    }

    @Test
    @DisplayName("a condition outside the grammar is refused, saying what was expected where")
    void badSyntaxIsRefused() {
        assertThatThrownBy(() -> Holds.parse("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> Holds.parse("1 2")).hasMessageContaining("comparison");
        assertThatThrownBy(() -> Holds.parse("m/on.json:x")).hasMessageContaining("comparison").hasMessageContaining("at the end");
        assertThatThrownBy(() -> Holds.parse("1 < 2 <")).hasMessageContaining("unexpected '<'");
        assertThatThrownBy(() -> Holds.parse("1 < ( 2")).hasMessageContaining("')' expected");
        assertThatThrownBy(() -> Holds.parse("1 < two")).hasMessageContaining("'two' is neither a number nor a value");
        assertThatThrownBy(() -> Holds.parse("1 <")).hasMessageContaining("at the end");
        assertThatThrownBy(() -> Holds.parse("m/a.json:rows[x=1 < 2")).hasMessageContaining("unclosed '['");
        assertThatThrownBy(() -> Holds.parse("1 < 2 and")).hasMessageContaining("at the end");
        assertThatThrownBy(() -> Holds.parse("1 <= 2 == 3")).hasMessageContaining("unexpected '=='");
    }
}
