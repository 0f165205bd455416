package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The end of {@code mvn test -Dclaims} at the root: every chapter's claims against every checkpoint, as one matrix
 * (the root's {@code target/reports/claims.md} + .json), and the lab's proof that its claims can fail: the build
 * fails unless every cell has the lesson's shape.
 */
@EnabledIfSystemProperty(named = "claims", matches = ".*", disabledReason = "reads the checkpoints' claim scorecards: mvn test -Dclaims")
class ClaimsMatrixOfSessionTest {

    @Test
    @DisplayName("the claims × checkpoints matrix has a column per checkpoint and the lesson's shape: contract everywhere, each lesson failing on the checkpoint before it")
    void theMatrixHasTheLessonsShape() {
        ClaimsMatrix matrix = ClaimsMatrix.collect(ThisSession.root(), ThisSession.id());
        Path md = matrix.write(ThisSession.rootReports());
        System.out.println(matrix.markdown());
        System.out.println("claims matrix: " + md + " (+ .json)");
        assertThat(matrix.columns()).as("checkpoints that saved a claims scorecard in session " + ThisSession.id()
                        + ": run `mvn test -Dclaims` at the root")
                .containsExactly("ch12-1-baseline", "ch12-2-cache-outbox-ratelimit", "ch12-3-fault-scenarios");
        List<String> wrong = matrix.outOfShape();
        assertThat(wrong).as("cells out of the lesson's shape").isEmpty();
    }
}
