package archlab.order;

import archlab.claims.ClaimsRun;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The chapters' claims against this module's code, through {@link GradedCheckpoint} only. {@code mvn test}: this
 * module's chapter, the fast claims; {@code -Dbaseline}: with the load claims; {@code -Dgrade=12.2}: that chapter's
 * claims and a scorecard (target/reports/grade-12.2.md); {@code -Dclaims}: every claim, recorded for the book's
 * claims × checkpoint matrix. The claims themselves live once, in common-loadgen/lab-grader ({@code archlab.claims}).
 */
class ChapterClaimsTest {

    private static final ClaimsRun RUN = ClaimsRun.fromSystem();

    @TestFactory
    @DisplayName("this module's chapter claims, judged through GradedCheckpoint only, one dynamic test per claim (archlab.claims lists them)")
    Stream<DynamicTest> claims() {
        return RUN.tests(new GradedCheckpoint());
    }

    @AfterAll
    static void scorecard() {
        RUN.finish();
    }
}
