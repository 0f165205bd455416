package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The p99 gate on hand-made reports: what it flags, what it lets through, and how it refuses bad input. */
class P99GateTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int gate(String... args) {
        return P99Gate.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String file(String name, long allP99, long payP99, Long getP99) {
        return HandMadeReports.write(dir, name, HandMadeReports.report("m", name, 100, 100, allP99, payP99, getP99, false)).toString();
    }

    @Test
    @DisplayName("an operation whose p99 is more than 20% worse is flagged and the exit status is 1; the others are ok")
    void flagsAnOperationMoreThanTwentyPercentWorse() {
        String base = file("base.json", 10_000, 6_000, 100L);
        String cand = file("cand.json", 11_000, 7_300, 100L); // all +10%, pay +21.7%, get 0%

        assertThat(gate(base, cand)).isEqualTo(P99Gate.FLAGGED);

        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).containsPattern("pay +baseline_p99=6\\.000ms candidate_p99=7\\.300ms change=\\+21\\.7% FLAGGED");
        assertThat(text).containsPattern("all +baseline_p99=10\\.000ms candidate_p99=11\\.000ms change=\\+10\\.0% ok");
        assertThat(text).containsPattern("get .* ok").contains("FAIL: 1 operation(s) flagged");
    }

    @Test
    @DisplayName("exactly 20% worse, or better, passes with exit status 0")
    void atTheThresholdOrBetterPasses() {
        String base = file("base.json", 10_000, 6_000, 100L);
        String cand = file("cand.json", 12_000, 3_000, 120L);

        assertThat(gate(base, cand)).isEqualTo(P99Gate.PASS);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("PASS");
    }

    @Test
    @DisplayName("--threshold changes the tolerance (both spellings)")
    void thresholdOption() {
        String base = file("base.json", 10_000, 6_000, null);
        String cand = file("cand.json", 10_500, 6_300, null); // +5%

        assertThat(gate(base, cand, "--threshold", "0.04")).isEqualTo(P99Gate.FLAGGED);
        assertThat(gate(base, cand, "--threshold=0.06")).isEqualTo(P99Gate.PASS);
    }

    @Test
    @DisplayName("an operation the candidate lacks is flagged; one the baseline lacks is not compared")
    void missingOperations() {
        String base = file("base.json", 10_000, 6_000, 100L);
        String cand = file("cand.json", 10_000, 6_000, null);

        assertThat(gate(base, cand)).isEqualTo(P99Gate.FLAGGED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("candidate_p99=missing");

        out.reset();
        assertThat(gate(cand, base)).isEqualTo(P99Gate.PASS);
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("get ");
    }

    @Test
    @DisplayName("bad input exits 2 with a clear message: usage, missing file, not JSON, not a report, bad threshold, unknown option")
    void badInputExitsTwo() {
        String base = file("base.json", 10_000, 6_000, null);
        String notJson = HandMadeReports.write(dir, "x.json", "{oops").toString();
        String notReport = HandMadeReports.write(dir, "y.json", "{\"run\": {}}").toString();

        assertBad(new String[] {}, "no report files given");
        assertBad(new String[] {base}, "expected 2 report files, got 1");
        assertBad(new String[] {base, dir.resolve("nope.json").toString()}, "candidate report not found");
        assertBad(new String[] {notJson, base}, "baseline report is not JSON");
        assertBad(new String[] {base, notReport}, "candidate is not a run report");
        assertBad(new String[] {base, base, "--threshold", "-0.1"}, "--threshold must be a fraction");
        assertBad(new String[] {base, base, "--threshold", "lots"}, "--threshold must be a fraction");
        assertBad(new String[] {base, base, "--threshold"}, "--threshold needs a value");
        assertBad(new String[] {base, base, "--fast"}, "unknown option --fast");
    }

    private String table(String name, long... p99s) {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < p99s.length; i++) {
            rows.append(i == 0 ? "" : ", ").append(String.format(java.util.Locale.ROOT,
                    "{\"id\": \"m%d/baseline\", \"latency\": {\"requests\": 180000, \"meanMicros\": 900.0,"
                            + " \"p99Micros\": %d, \"p999Micros\": %d}}", i + 1, p99s[i], p99s[i] * 2));
        }
        return HandMadeReports.write(dir, name, "{\"kind\": \"baseline-table\", \"rows\": [" + rows + "]}").toString();
    }

    @Test
    @DisplayName("two baseline tables are gated row by row: the saved one against itself passes (exit 0), a made-up 25 % regression of it fails (exit 1), a row the candidate lacks is flagged")
    void baselineTables() {
        String saved = table("table.json", 7_000, 200_000, 9_000);
        assertThat(gate(saved, saved)).isEqualTo(P99Gate.PASS);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("the baseline table").contains("PASS: no row's p99");

        String regressed = dir.resolve("regressed.json").toString();
        assertThat(MadeUpRegression.run(new String[] {saved, "1.25", regressed}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).isZero();
        out.reset();
        assertThat(gate(saved, regressed)).isEqualTo(P99Gate.FLAGGED);
        assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("m2/baseline +baseline_p99=200\\.000ms"
                + " candidate_p99=250\\.000ms change=\\+25\\.0% FLAGGED").contains("FAIL: 3 row(s) flagged");
        out.reset();
        assertThat(gate(saved, regressed, "--threshold", "0.30")).isEqualTo(P99Gate.PASS);

        out.reset();
        assertThat(gate(saved, table("fewer.json", 7_000, 200_000))).isEqualTo(P99Gate.FLAGGED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("m3/baseline").contains("candidate_p99=missing");
    }

    @Test
    @DisplayName("a table against a run report, an empty table, a row twice, a row of another load, a made-up regression of something not a table or by a bad factor: exit 2 with a message, nothing written")
    void tablesBadInput() {
        String saved = table("table.json", 7_000);
        String report = file("base.json", 10_000, 6_000, null);
        assertBad(new String[] {saved, report}, "a baseline table is compared with a baseline table");
        assertBad(new String[] {report, saved}, "a baseline table is compared with a baseline table");
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        Path target = dir.resolve("never.json");
        assertThat(MadeUpRegression.run(new String[] {report, "1.25", target.toString()}, o, e)).isEqualTo(P99Gate.BAD_INPUT);
        assertThat(MadeUpRegression.run(new String[] {saved, "-1", target.toString()}, o, e)).isEqualTo(P99Gate.BAD_INPUT);
        assertThat(MadeUpRegression.run(new String[] {saved, "lots", target.toString()}, o, e)).isEqualTo(P99Gate.BAD_INPUT);
        assertThat(MadeUpRegression.run(new String[] {saved}, o, e)).isEqualTo(P99Gate.BAD_INPUT);
        assertThat(target).doesNotExist();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a baseline table").contains("FACTOR must be a number > 0")
                .contains("usage: MadeUpRegression");
        String empty = HandMadeReports.write(dir, "empty.json", "{\"kind\": \"baseline-table\", \"rows\": []}").toString();
        assertBad(new String[] {empty, empty}, "has no rows");
        String twice = HandMadeReports.write(dir, "twice.json", "{\"kind\": \"baseline-table\", \"rows\": ["
                + "{\"id\": \"a\", \"latency\": {\"requests\": 1, \"p99Micros\": 5}},"
                + " {\"id\": \"a\", \"latency\": {\"requests\": 1, \"p99Micros\": 9}}]}").toString();
        assertBad(new String[] {saved, twice}, "the row a twice");
        String otherLoad = HandMadeReports.write(dir, "other.json", "{\"kind\": \"baseline-table\", \"rows\": ["
                + "{\"id\": \"m1/baseline\", \"load\": \"9 req/s\", \"latency\": {\"requests\": 1, \"p99Micros\": 5}}]}")
                .toString();
        assertBad(new String[] {saved, otherLoad}, "the candidate ran another load");
    }

    private void assertBad(String[] args, String message) {
        err.reset();
        assertThat(gate(args)).as(String.join(" ", args)).isEqualTo(P99Gate.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(message);
    }
}
