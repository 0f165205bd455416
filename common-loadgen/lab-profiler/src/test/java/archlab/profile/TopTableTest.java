package archlab.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TopTable: pprof -top arithmetic on hand-made stacks")
class TopTableTest {

    private static final double EPS = 1e-9;

    // Leaf first. Total weight 100.
    //   10: c <- b <- a
    //   30: b <- a
    //   60: c <- c <- b <- c <- a     (c recurses: counted once in its cum)
    // flat: c = 10 + 60 = 70, b = 30, a = 0
    // cum:  c = 10 + 60 = 70, b = 100, a = 100
    private static final List<WeightedStack> STACKS = List.of(
            WeightedStack.of(10, "c", "b", "a"),
            WeightedStack.of(30, "b", "a"),
            WeightedStack.of(60, "c", "c", "b", "c", "a"));

    @Test
    @DisplayName("flat, cum and their percentages equal the values computed by hand; recursion counts once in cum")
    void flatAndCumMatchHandComputedValues() {
        TopTable t = TopTable.aggregate("t", ValueUnit.COUNT, STACKS);

        assertThat(t.total()).isEqualTo(100);
        assertThat(t.events()).isEqualTo(3);
        assertThat(t.rows()).extracting(TopRow::method).containsExactly("c", "b", "a");
        assertRow(t.rows().get(0), "c", 70, 70, 70, 70, 70);
        assertRow(t.rows().get(1), "b", 30, 30, 100, 100, 100);
        assertRow(t.rows().get(2), "a", 0, 0, 100, 100, 100);
    }

    @Test
    @DisplayName("rows sort by flat desc, then cum desc, then name; sum% is the running total of flat%")
    void sortOrderAndRunningSum() {
        TopTable t = TopTable.aggregate("t", ValueUnit.COUNT, List.of(
                WeightedStack.of(5, "x"),           // x: flat 5, cum 5
                WeightedStack.of(5, "y", "z"),      // y: flat 5, cum 5+10 = 15 (below)
                WeightedStack.of(10, "w", "y"),     // w: flat 10, cum 10
                WeightedStack.of(0, "q")));         // q: flat 0, cum 0
        // total 20: w 10 (50%), y 5 (25%, cum 75%), x 5 (25%, cum 25%), z 0 (cum 25%), q 0
        assertThat(t.rows()).extracting(TopRow::method).containsExactly("w", "y", "x", "z", "q");
        assertThat(t.rows()).extracting(TopRow::sumPercent).containsExactly(50.0, 75.0, 100.0, 100.0, 100.0);
        assertRow(t.rows().get(1), "y", 5, 25, 75, 15, 75);
        assertRow(t.rows().get(3), "z", 0, 0, 100, 5, 25);
    }

    @Test
    @DisplayName("the same stack given twice weighs twice; an event without a stack is its own leaf so flat% still sums to 100")
    void duplicatesAddUpAndEmptyStacksAreAttributed() {
        TopTable t = TopTable.aggregate("t", ValueUnit.COUNT, List.of(
                WeightedStack.of(1, "a"), WeightedStack.of(1, "a"),
                new WeightedStack(List.of(), 2, 1)));
        assertThat(t.row("a")).hasValueSatisfying(r -> assertThat(r.flat()).isEqualTo(2));
        assertThat(t.row(TopTable.NO_STACK)).hasValueSatisfying(r -> assertThat(r.flatPercent()).isEqualTo(50));
        assertThat(t.rows().stream().mapToDouble(TopRow::flatPercent).sum()).isCloseTo(100, within(EPS));
    }

    @Test
    @DisplayName("an empty table has total 0, no rows, and renders its note instead of rows; a non-empty one prints the note under its title")
    void tablesRenderTheirNote() {
        TopTable t = TopTable.aggregate("Lock top", ValueUnit.NANOSECONDS, List.of()).withNote("why it is empty");
        assertThat(t.total()).isZero();
        assertThat(t.rows()).isEmpty();
        assertThat(t.render(10)).isEqualTo("=== Lock top ===\n  (why it is empty)\n");
        assertThat(TopTable.aggregate("t", ValueUnit.COUNT, List.of()).render(1)).isEqualTo("=== t ===\n  (no events)\n");
        assertThat(TopTable.aggregate("t", ValueUnit.COUNT, STACKS).withNote("may miss waits").render(1).lines())
                .element(1).isEqualTo("  ! may miss waits");
    }

    @Test
    @DisplayName("render prints pprof's columns, aligned, in nanosecond units, limited to topN rows")
    void renderLooksLikePprofTop() {
        TopTable t = TopTable.aggregate("Mutex top", ValueUnit.NANOSECONDS, List.of(
                WeightedStack.of(481_670_000_000.0, "sync.Mutex.Unlock", "order.Service.Pay"),
                WeightedStack.of(100_000_000, "order.Service.Create")));
        String text = t.render(2);
        assertThat(text).isEqualTo("""
                === Mutex top ===
                Showing top 2 of 3 methods; total 481.77s in 2 events
                       flat  flat%   sum%        cum   cum%
                    481.67s 99.98% 99.98%    481.67s 99.98%  sync.Mutex.Unlock
                      100ms  0.02%   100%      100ms  0.02%  order.Service.Create
                """);
        assertThat(t.render(1).lines()).hasSize(4);
        assertThatThrownBy(() -> t.render(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("units format like pprof, in the largest unit the value reaches: 0, 100ms, 481.67s, 512.05kB, 2.55MB")
    void unitsFormatLikePprof() {
        assertThat(ValueUnit.NANOSECONDS.format(0)).isEqualTo("0");
        assertThat(ValueUnit.NANOSECONDS.format(100_000_000)).isEqualTo("100ms");
        assertThat(ValueUnit.NANOSECONDS.format(481_670_000_000.0)).isEqualTo("481.67s");
        assertThat(ValueUnit.NANOSECONDS.format(4_100)).isEqualTo("4.1us");
        assertThat(ValueUnit.NANOSECONDS.format(999)).isEqualTo("999ns");
        assertThat(ValueUnit.BYTES.format(524_339)).isEqualTo("512.05kB");
        assertThat(ValueUnit.BYTES.format(2_676_490)).isEqualTo("2.55MB");
        assertThat(ValueUnit.BYTES.format(7.05 * (1 << 20))).isEqualTo("7.05MB");
        assertThat(ValueUnit.BYTES.format(512)).isEqualTo("512B");
        assertThat(ValueUnit.COUNT.format(30)).isEqualTo("30");
        assertThat(TopTable.pct(100)).isEqualTo("100%");
        assertThat(TopTable.pct(90.9355)).isEqualTo("90.94%");
    }

    @Test
    @DisplayName("plumbingAnd(runner) hides the JDK's thread plumbing and the given runner's frames, nothing else")
    void plumbingAndHidesTheRunnerTheCallerNames() {
        var hide = TopTable.plumbingAnd(java.util.concurrent.Executors.class);
        assertThat(hide.test("java.lang.Thread.run")).isTrue();
        assertThat(hide.test("java.util.concurrent.Executors$RunnableAdapter.call")).isTrue();
        assertThat(hide.test("java.util.concurrent.ThreadPoolExecutor.runWorker")).isFalse();
        assertThat(TopTable.PLUMBING.test("java.util.concurrent.Executors$RunnableAdapter.call")).isFalse();
    }

    private static void assertRow(TopRow r, String method, double flat, double flatPct, double sumPct,
                                  double cum, double cumPct) {
        assertThat(r.method()).isEqualTo(method);
        assertThat(r.flat()).as("flat of %s", method).isCloseTo(flat, within(EPS));
        assertThat(r.flatPercent()).as("flat%% of %s", method).isCloseTo(flatPct, within(EPS));
        assertThat(r.sumPercent()).as("sum%% at %s", method).isCloseTo(sumPct, within(EPS));
        assertThat(r.cum()).as("cum of %s", method).isCloseTo(cum, within(EPS));
        assertThat(r.cumPercent()).as("cum%% of %s", method).isCloseTo(cumPct, within(EPS));
    }
}
