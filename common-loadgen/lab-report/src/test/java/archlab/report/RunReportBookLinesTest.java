package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The book's two lines, in the book's exact shape, so that a report can be laid next to the book. */
class RunReportBookLinesTest {

    /** The shape of the book's line 1: {@code offered=4500 started=4500 completed=2940 timed_out=1170 wall=3.198s}. */
    private static final String LINE1 = "offered=\\d+ started=\\d+ completed=\\d+ timed_out=\\d+ wall=\\d+\\.\\d{3}s";
    /** The shape of the book's line 2. */
    private static final String LINE2 = "rps_completed=\\d+\\.\\d{2} p50=\\d+ms p99=\\d+ms p999=\\d+ms"
            + " downstream inventory=\\d+ payment=\\d+ notify=\\d+";

    /** The book's figures, made by hand: 2940 completed in 3.19817 s is 919.276 req/s. */
    private static RunReport bookReport() {
        RunResult run = Samples.result(LoadSpec.book(), 4500, 4500, 2940, 1170, 3_198_170_000L,
                Samples.latency(4111, 199, 208, 399, 198_500, 203_000, 207_400, 398_100));
        return RunReport.builder().module("ch12-1-baseline").name("baseline").environment(Samples.ENV).run(run)
                .downstream(Samples.downstream(1028, 358, 169)).money(Samples.money(358, 0)).build();
    }

    private static RunReport withWall(long completed, long wallNanos) {
        return Samples.report(Samples.result(LoadSpec.book(), 10, 10, completed, 0, wallNanos,
                Samples.latency(10, 1, 2, 3, 500, 900, 1_900, 2_900)));
    }

    @Test
    @DisplayName("book line 1 has the book's shape: offered, started, completed, timed_out, wall in seconds with 3 decimals")
    void bookLine1HasTheBooksShape() {
        assertThat(bookReport().bookLine1()).matches(LINE1);
    }

    @Test
    @DisplayName("book line 2 has the book's shape: rps with 2 decimals, p50/p99/p999 in whole ms, the three downstream counts")
    void bookLine2HasTheBooksShape() {
        assertThat(bookReport().bookLine2()).matches(LINE2);
    }

    @Test
    @DisplayName("the book's figures print exactly as the book's two lines")
    void bookFiguresPrintExactlyAsTheBook() {
        RunReport report = bookReport();
        assertThat(report.bookLine1()).isEqualTo("offered=4500 started=4500 completed=2940 timed_out=1170 wall=3.198s");
        assertThat(report.bookLine2())
                .isEqualTo("rps_completed=919.28 p50=199ms p99=208ms p999=399ms downstream inventory=1028 payment=358 notify=169");
    }

    @Test
    @DisplayName("the book lines are the same under a German default locale (no decimal comma)")
    void bookLinesIgnoreTheDefaultLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            RunReport report = bookReport();
            assertThat(report.bookLine1()).isEqualTo("offered=4500 started=4500 completed=2940 timed_out=1170 wall=3.198s");
            assertThat(report.bookLine2()).startsWith("rps_completed=919.28 ");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    @DisplayName("wall is rounded to the nearest millisecond, not truncated")
    void wallIsRoundedToTheMillisecond() {
        assertThat(withWall(1, 1_234_567_890L).bookLine1()).endsWith(" wall=1.235s");
        assertThat(withWall(1, 1_234_499_999L).bookLine1()).endsWith(" wall=1.234s");
        assertThat(withWall(1, 2_000_000_000L).bookLine1()).endsWith(" wall=2.000s");
    }

    @Test
    @DisplayName("rps_completed is completed per second of wall time, rounded to 2 decimals")
    void rpsHasTwoDecimals() {
        assertThat(withWall(1, 3_000_000_000L).bookLine2()).startsWith("rps_completed=0.33 ");
        assertThat(withWall(2, 3_000_000_000L).bookLine2()).startsWith("rps_completed=0.67 ");
    }

    @Test
    @DisplayName("a run with no wall time prints rps_completed=0.00 and wall=0.000s, still in the book's shape")
    void zeroWallKeepsTheShape() {
        RunReport report = withWall(0, 0);
        assertThat(report.bookLine1()).matches(LINE1).endsWith(" wall=0.000s");
        assertThat(report.bookLine2()).matches(LINE2).startsWith("rps_completed=0.00 ");
    }

    @Test
    @DisplayName("the report text opens with a title, then the two book lines")
    void textOpensWithTheBookLines() {
        RunReport report = bookReport();
        assertThat(report.text().lines().limit(3).toList())
                .containsExactly("=== ch12-1-baseline / baseline ===", report.bookLine1(), report.bookLine2());
    }
}
