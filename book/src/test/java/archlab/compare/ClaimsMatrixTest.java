package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The claims matrix, from hand-made scorecards written the way the checkpoints' ChapterClaimsTest writes them. */
class ClaimsMatrixTest {

    private static void card(Path root, String module, String session, String outcome, Boolean mustPass) throws IOException {
        Path dir = Files.createDirectories(root.resolve(module).resolve("target/reports"));
        String must = mustPass == null ? "null" : mustPass.toString();
        Files.writeString(dir.resolve("claims-" + module + ".json"), """
                {"kind": "claims-scorecard", "module": "%s", "session": "%s", "claims": [
                  {"id": "12.2-x", "suite": "12.2-lesson", "points": 3, "statement": "x holds", "outcome": "%s",
                   "measured": "x took 1 ms", "mustPassHere": %s}]}
                """.formatted(module, session, outcome, must));
    }

    @Test
    @DisplayName("a lesson claim that fails where it must fail and passes where it must pass is in shape; one that passes before its lesson is not")
    void shapeIsCheckedCellByCell(@TempDir Path root) throws IOException {
        card(root, "ch12-1-baseline", "s1", "FAILED", false);
        card(root, "ch12-2-cache-outbox-ratelimit", "s1", "PASSED", true);
        card(root, "ch12-3-fault-scenarios", "old", "FAILED", true);

        ClaimsMatrix matrix = ClaimsMatrix.collect(root, "s1");
        assertThat(matrix.columns()).containsExactly("ch12-1-baseline", "ch12-2-cache-outbox-ratelimit");
        assertThat(matrix.outOfShape()).isEmpty();

        card(root, "ch12-1-baseline", "s1", "PASSED", false);
        ClaimsMatrix broken = ClaimsMatrix.collect(root, "s1");
        assertThat(broken.outOfShape()).singleElement().asString()
                .contains("12.2-x on ch12-1-baseline: PASSED, must fail there");
        assertThat(broken.markdown()).contains("| 12.2-x | 12.2-lesson | 3 | pass ✗ (must fail) | pass |");
    }

    @Test
    @DisplayName("a claim not judged is out of shape wherever the shape expects an outcome, and in shape where it expects none")
    void notJudgedIsNeverAPass(@TempDir Path root) throws IOException {
        card(root, "ch12-1-baseline", "s1", "NOT_JUDGED", null);
        card(root, "ch12-2-cache-outbox-ratelimit", "s1", "NOT_JUDGED", true);
        assertThat(ClaimsMatrix.collect(root, "s1").outOfShape()).singleElement().asString()
                .contains("ch12-2-cache-outbox-ratelimit: NOT_JUDGED, must pass");
    }
}
