package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A claim the grader could not judge is a grade not given, to be graded again: in the scorecard's JUnit XML — what
 * classroom autograders read — it is an error ({@code type="not-judged"}), never skipped, so that no autograder counts
 * it as nothing to do; and the scorecard prints the seed that regrades the solution on the same inputs.
 */
class ScorecardNotJudgedTest {

    private static final long SEED = 424_242L;

    private static Judgement judgement(String id, int points, ClaimVerdict verdict, int attempts) {
        Claim claim = Claim.builder(id, Suite.CONTRACT_12_1).section("12.1 契约").points(points)
                .statement("the claim " + id + " holds for <every> order & its pay").needs("under 200 ms")
                .judge((checkpoint, inputs) -> verdict).build();
        return new Judgement(claim, verdict, attempts, 250_000_000L);
    }

    private static Scorecard scorecard() {
        return new Scorecard("student-x", "grade 12.2", List.of(
                judgement("12.1-passes", 3, ClaimVerdict.passed("answered in 3.1 ms"), 1),
                judgement("12.1-fails", 5, ClaimVerdict.failed("get answered in 212.4 ms"), 1),
                judgement("12.1-not-judged", 7, ClaimVerdict.notJudged("not judged: the machine was busy in all 3 attempts; last:"
                        + " stalled 80 ms"), Judgement.ATTEMPTS)), List.of(), SEED);
    }

    @Test
    @DisplayName("in the JUnit XML a NOT_JUDGED claim is an <error type=\"not-judged\">, counted in errors, never <skipped>")
    void notJudgedIsAnErrorNeverSkipped() throws Exception {
        String xml = scorecard().junitXml();
        assertThat(xml).contains("tests=\"3\"", "failures=\"1\"", "errors=\"1\"", "skipped=\"0\"")
                .contains("<error type=\"not-judged\" message=\"regrade: not judged: the machine was busy")
                .doesNotContain("<skipped");

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        Element suite = doc.getDocumentElement();
        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(List.of(suite.getAttribute("tests"), suite.getAttribute("failures"), suite.getAttribute("errors"),
                suite.getAttribute("skipped"))).containsExactly("3", "1", "1", "0");
        assertThat(doc.getElementsByTagName("skipped").getLength()).isZero();
        NodeList errors = doc.getElementsByTagName("error");
        assertThat(errors.getLength()).isEqualTo(1);
        Element error = (Element) errors.item(0);
        assertThat(error.getAttribute("type")).isEqualTo("not-judged");
        assertThat(((Element) error.getParentNode()).getAttribute("name"))
                .isEqualTo("12.1-not-judged: the claim 12.1-not-judged holds for <every> order & its pay (7 points)");
        assertThat(error.getTextContent()).contains("[12.1-not-judged]", "needs:    under 200 ms", "chapter 12.1 契约");
        NodeList failures = doc.getElementsByTagName("failure");
        assertThat(failures.getLength()).isEqualTo(1);
        assertThat(((Element) failures.item(0).getParentNode()).getAttribute("name")).startsWith("12.1-fails: ");
        Element seed = (Element) doc.getElementsByTagName("property").item(0);
        assertThat(List.of(seed.getAttribute("name"), seed.getAttribute("value"))).containsExactly("seed", String.valueOf(SEED));
    }

    @Test
    @DisplayName("the scorecard's Markdown says the seed and how to regrade with it; a claim not judged earns nothing and is not a pass")
    void markdownHasTheSeedLine() {
        Scorecard card = scorecard();
        assertThat(card.seedLine()).isEqualTo("seed 424242 (regrade with the same inputs: -Dgrade.seed=424242;"
                + " book/grading/grade-student.sh … --seed 424242)");
        assertThat(card.markdown()).contains("\n" + card.seedLine() + "\n")
                .contains("| 12.1-not-judged | 12.1-contract | 0/7 | NOT_JUDGED |");
        assertThat(card.summary()).isEqualTo("points 3/15 (student-x, grade 12.2): 1 passed, 1 failed, 1 not judged");
        assertThat(card.allPassed()).isFalse();
        assertThat(card.json()).containsEntry("seed", SEED).containsEntry("pointsEarned", 3);
    }

    @Test
    @DisplayName("a claim still not judged in a grade throws NotJudgedException: an error to regrade, no test abort, no assertion failure, no stack")
    void notJudgedExceptionIsAnError() {
        ClaimsRun.NotJudgedException e = new ClaimsRun.NotJudgedException("[12.1-not-judged] the claim");
        assertThat(e).hasMessage("not judged (regrade on a quieter machine): [12.1-not-judged] the claim")
                .isNotInstanceOf(TestAbortedException.class).isNotInstanceOf(AssertionError.class).hasNoCause();
        assertThat(e.getStackTrace()).isEmpty();
    }
}
