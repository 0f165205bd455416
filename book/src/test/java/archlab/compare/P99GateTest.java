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

    private void assertBad(String[] args, String message) {
        err.reset();
        assertThat(gate(args)).as(String.join(" ", args)).isEqualTo(P99Gate.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(message);
    }
}
