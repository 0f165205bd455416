package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import archlab.loadgen.LoadSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The run-to-run spread, on hand-made reports whose figures are known. */
class SpreadTest {

    /** A report whose offered, completed and charged-not-paid figures are {@code offered}, {@code completed}, {@code cnp}. */
    private static RunReport report(long offered, long completed, long chargedNotPaid) {
        return RunReport.builder().module("m").name("n").environment(Samples.ENV)
                .run(Samples.result(LoadSpec.book(), offered, offered, completed, 0, 2_000_000_000L,
                        Samples.latency(completed, 10, 20, 30, 9_000, 15_000, 19_000, 29_000)))
                .downstream(Samples.downstream(0, 0, 0))
                .money(Samples.money(chargedNotPaid + 1, chargedNotPaid)).build();
    }

    private static List<RunReport> reports(long... offered) {
        return Arrays.stream(offered).mapToObj(o -> report(o, o / 2, o % 7)).toList();
    }

    private static Spread.Row row(Spread s, String name) {
        return s.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("for an odd count, min, median and max are the smallest, middle and largest values, whatever the order")
    void oddCountGivesTheMiddleValue() {
        Spread s = Spread.of(reports(30, 10, 20));
        assertThat(row(s, "offered")).isEqualTo(new Spread.Row("offered", 10, 20, 30));
        assertThat(row(s, "completed")).isEqualTo(new Spread.Row("completed", 5, 10, 15));
    }

    @Test
    @DisplayName("for an even count, the median is the lower middle value, not the mean of the two middle ones")
    void evenCountGivesTheLowerMiddle() {
        Spread s = Spread.of(reports(40, 10, 30, 20));
        assertThat(row(s, "offered")).isEqualTo(new Spread.Row("offered", 10, 20, 40));
    }

    @Test
    @DisplayName("a single report is its own min, median and max")
    void singleReport() {
        Spread s = Spread.of(reports(7));
        assertThat(s.runs()).isEqualTo(1);
        assertThat(row(s, "offered")).isEqualTo(new Spread.Row("offered", 7, 7, 7));
    }

    @Test
    @DisplayName("runs is the number of reports")
    void runsIsTheNumberOfReports() {
        assertThat(Spread.of(reports(1, 2, 3, 4, 5)).runs()).isEqualTo(5);
    }

    @Test
    @DisplayName("every figure is taken independently: rps, book and HdrHistogram percentiles, send lag, hiccups, money")
    void everyFigureHasItsRow() {
        Spread s = Spread.of(List.of(report(100, 50, 3), report(100, 80, 1), report(100, 60, 2)));
        assertThat(s.rows()).extracting(Spread.Row::name).containsExactly("offered", "completed", "timed_out", "failed",
                "rejected", "rps_completed", "p50_ms", "p99_ms", "p999_ms", "hdr_p99_ms", "send_lag_p99_us",
                "hiccup_p99_us", "charged_not_paid");
        assertThat(row(s, "rps_completed")).isEqualTo(new Spread.Row("rps_completed", 25, 30, 40));
        assertThat(row(s, "charged_not_paid")).isEqualTo(new Spread.Row("charged_not_paid", 1, 2, 3));
        assertThat(row(s, "hdr_p99_ms")).isEqualTo(new Spread.Row("hdr_p99_ms", 19, 19, 19));
    }

    @Test
    @DisplayName("render prints 'spread over N runs (min/median/max):' and name=min/median/max, whole numbers without decimals")
    void renderShape() {
        Spread s = Spread.of(reports(30, 10, 20));
        assertThat(s.render()).startsWith("spread over 3 runs (min/median/max): offered=10/20/30 completed=5/10/15 ");
    }

    @Test
    @DisplayName("render prints fractions with 2 decimals, whatever the default locale")
    void renderFractionsLocaleFree() {
        Spread s = new Spread(2, List.of(new Spread.Row("rps_completed", 917.149, 917.5, 1000.0 / 3)));
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(s.render()).isEqualTo("spread over 2 runs (min/median/max): rps_completed=917.15/917.50/333.33");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    @DisplayName("a spread of no reports is refused")
    void noReportsIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> Spread.of(List.of())).withMessageContaining("at least one");
    }
}
