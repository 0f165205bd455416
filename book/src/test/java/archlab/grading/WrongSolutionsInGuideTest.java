package archlab.grading;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.claims.SolutionGrade;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The guide's table of wrong solutions is the patches' own: one row per book/grading/wrong/*.patch, with the claims
 * its header says catch it — and {@code -Dgrade.wrong} ({@link WrongSolutionsTest}) shows each loses exactly those.
 */
class WrongSolutionsInGuideTest {

    private static final Path BOOK = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();

    @Test
    @DisplayName("every wrong solution's header is well formed: a checkpoint it patches, a chapter, claims of that chapter")
    void headersWellFormed() {
        List<WrongSolution> all = WrongSolution.all(BOOK);
        assertThat(all).hasSizeGreaterThanOrEqualTo(4);
        for (WrongSolution w : all) {
            assertThat(BOOK.resolveSibling(w.base()).resolve("src/main/java")).as(w.name() + "'s base").isDirectory();
            assertThat(w.grade()).as(w.name()).isIn("12.2", "12.3");
            assertThat(w.loses()).as(w.name() + " loses at least one claim").isNotEmpty();
            assertThat(SolutionGrade.claimIds(w.grade())).as(w.name() + "'s claims are graded in " + w.grade()).containsAll(w.loses())
                    .containsAll(w.mayAlsoLose());
            assertThat(w.mayAlsoLose()).as(w.name() + ": a claim it may also lose is not one it must lose").doesNotContainAnyElementsOf(w.loses());
        }
    }

    @Test
    @DisplayName("the guide's table of wrong solutions lists every patch, with the claims it loses, and nothing else")
    void guideTableIsThePatches() throws IOException {
        String guide = Files.readString(BOOK.resolve("guide.md"));
        List<String> rows = guide.lines().filter(l -> l.startsWith("| ") && l.matches(".*\\| `[a-z0-9-]+` \\|$")).toList();
        List<String> expected = WrongSolution.all(BOOK).stream().map(WrongSolution::guideRow).toList();
        assertThat(rows).as("rows of book/guide.md's wrong-solution table; the table the patches give:\n"
                + String.join("\n", expected)).containsExactlyInAnyOrderElementsOf(expected);
    }
}
