package archlab.grading;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.claims.ClaimsRun;
import archlab.claims.SolutionGrade;
import archlab.report.ReportWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code mvn test -Dgrade.wrong}: every wrong solution of book/grading/wrong is built — the checkpoint's
 * code with the patch applied, compiled in this JVM — and graded with its chapter's claims as a student's would be
 * (the grader's check of its classes, then each claim) — in this JVM, each claim in a class loader of its own
 * ({@code SolutionGrade.inThisJvm}): these are the lab's own patches, not untrusted code, and a JVM per attempt would
 * multiply the run's time; students and the attacks of book/grading/attacks are graded in processes of their own. It must lose exactly the claims
 * its header names, which are the claims the guide's table says catch it; the checkpoints as shipped are graded the
 * same way first, as the control, and must lose nothing. Prints one line per solution and writes
 * target/reports/wrong-solutions.md (+ .json).
 */
@EnabledIfSystemProperty(named = "grade.wrong", matches = ".*", disabledReason = "grades every wrong solution (minutes): mvn test -Dgrade.wrong")
class WrongSolutionsTest {

    private static final Path BOOK = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();
    private static final Path REPORTS = Path.of(System.getProperty("archlab.reports.dir", BOOK.resolve("target/reports").toString()));
    private static final List<Map<String, Object>> ROWS = new CopyOnWriteArrayList<>();
    private static final List<String> LINES = new CopyOnWriteArrayList<>();
    /** How many times a solution is graded at most while a claim of it could not be judged (the machine stalled). */
    private static final int GRADINGS = 3;
    /** The seed of every grading's inputs: {@code -Dgrade.seed}, else drawn at random; printed, and in each scorecard. */
    private static final long SEED = ClaimsRun.seedFromSystem();

    @TestFactory
    @DisplayName("each wrong solution the guide names loses exactly the claims the guide says catch it; the checkpoints as shipped lose none")
    Stream<DynamicTest> wrongSolutions() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] control : List.of(new String[] {"ch12-2-cache-outbox-ratelimit", "12.2"}, new String[] {"ch12-3-fault-scenarios", "12.3"})) {
            tests.add(DynamicTest.dynamicTest("control: " + control[0] + " as shipped, grade " + control[1] + ", loses nothing",
                    () -> judge("control/" + control[0], control[0], control[1], null, Set.of(), Set.of(), "as shipped")));
        }
        for (WrongSolution w : WrongSolution.all(BOOK)) {
            tests.add(DynamicTest.dynamicTest(w.name() + " (" + w.base() + ", grade " + w.grade() + ") loses " + w.loses(),
                    () -> judge(w.name(), w.base(), w.grade(), w.patch(), w.loses(), w.mayAlsoLose(), w.guide())));
        }
        return tests.stream();
    }

    private static void judge(String name, String base, String grade, Path patch, Set<String> expected, Set<String> mayAlsoLose,
                              String guide) throws Exception {
        PatchedSolution solution = PatchedSolution.build(BOOK, "wrong/" + name, base, patch);

        // every claim already reruns a disturbed judgement; a claim still not judged after that is graded again with
        // the whole solution, up to GRADINGS times, before the machine is blamed
        SolutionGrade g = solution.gradeInThisJvm("wrong/" + name, grade, SEED);
        for (int grading = 2; grading <= GRADINGS && !g.notJudged().isEmpty(); grading++) {
            System.out.println("wrong " + name + ": not judged " + g.notJudged() + ", grading again (" + grading + " of " + GRADINGS + ")");
            g = solution.gradeInThisJvm("wrong/" + name, grade, SEED);
        }

        Set<String> lost = g.lost();
        Set<String> notJudged = g.notJudged();
        Set<String> beyond = new TreeSet<>(lost);
        beyond.removeAll(expected);
        boolean asSaid = lost.containsAll(expected) && mayAlsoLose.containsAll(beyond) && notJudged.isEmpty();
        String line = String.format("wrong %s (%s, grade %s, seed %d): %s, lost %s%s — %s", name, base, grade, SEED,
                g.scorecard().summary().replaceFirst(" \\(.*", ""), lost, notJudged.isEmpty() ? "" : " (not judged " + notJudged + ")",
                (asSaid ? "as the guide says" : "the guide says " + expected) + (mayAlsoLose.isEmpty() ? ""
                        : " (on some seeds also " + mayAlsoLose + ")"));
        System.out.println(line);
        LINES.add(line);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("base", base);
        row.put("grade", grade);
        row.put("seed", SEED);
        row.put("guide", guide);
        row.put("pointsEarned", g.scorecard().pointsEarned());
        row.put("pointsPossible", g.scorecard().pointsPossible());
        row.put("lost", List.copyOf(lost));
        row.put("expected", List.copyOf(new TreeSet<>(expected)));
        row.put("mayAlsoLose", List.copyOf(mayAlsoLose));
        row.put("notJudged", List.copyOf(notJudged));
        row.put("refusals", g.scorecard().refusals());
        row.put("asTheGuideSays", asSaid);
        ROWS.add(row);
        assertThat(g.scorecard().refusals()).as(name + " is graded, not refused").isEmpty();
        assertThat(notJudged).as(name + ": claims not judged (the machine stalled in every attempt)").isEmpty();
        assertThat(lost).as(name + " loses the claims the guide says catch it").containsAll(expected);
        assertThat(beyond).as(name + " loses nothing beyond them but what its header says some seeds reach").isSubsetOf(mayAlsoLose);
    }

    @AfterAll
    @SuppressWarnings("unchecked")
    static void table() throws IOException {
        StringBuilder md = new StringBuilder("# Wrong solutions, graded\n\n`mvn test -Dgrade.wrong`: each patch of book/grading/wrong"
                + " applied to its checkpoint and graded with its chapter's claims, on the inputs of seed " + SEED
                + " (-Dgrade.seed=" + SEED + " grades them again on the same inputs).\n\n| solution | base | grade | points | lost | the guide says | as said |\n|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : ROWS) {
            md.append(String.format("| %s | %s | %s | %s/%s | %s | %s | %s |%n", r.get("name"), r.get("base"), r.get("grade"),
                    r.get("pointsEarned"), r.get("pointsPossible"), String.join(", ", (List<String>) r.get("lost")),
                    String.join(", ", (List<String>) r.get("expected")), Boolean.TRUE.equals(r.get("asTheGuideSays")) ? "yes" : "**no**"));
        }
        Files.createDirectories(REPORTS);
        Files.writeString(REPORTS.resolve("wrong-solutions.md"), md.toString());
        ReportWriter.writeJson(REPORTS.resolve("wrong-solutions.json"), Map.of("kind", "wrong-solutions", "rows", List.copyOf(ROWS)));
        System.out.println(md);
        LINES.forEach(System.out::println);
    }
}
