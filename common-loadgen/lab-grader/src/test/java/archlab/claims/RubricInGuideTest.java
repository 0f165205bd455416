package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import archlab.loadgen.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The grading rubric in book/guide.md is the claims' own: one row per claim of the graded suites, with its points. */
class RubricInGuideTest {

    @Test
    @DisplayName("the guide's rubric lists every graded claim with the points the claim itself carries, and nothing else")
    void rubricMatchesTheClaims() throws IOException {
        Path guide = RepoRoot.path().resolve("book/guide.md");
        assumeThat(Files.isRegularFile(guide)).as("the project's book/guide.md").isTrue();
        Map<String, Integer> rubric = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\| `(12\\.[123]-[a-z-]+)` \\| (\\d+) \\|").matcher(Files.readString(guide));
        while (m.find()) {
            rubric.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        Map<String, Integer> graded = new LinkedHashMap<>();
        Claims.all().stream().filter(c -> c.suite() != Suite.EVIDENCE_12_1).forEach(c -> graded.put(c.id(), c.points()));
        assertThat(rubric).containsExactlyEntriesOf(graded);
    }
}
