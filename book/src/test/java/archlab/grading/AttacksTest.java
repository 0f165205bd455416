package archlab.grading;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.claims.SolutionGrade;
import archlab.report.ReportWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code mvn test -Dgrade.wrong}, with {@link WrongSolutionsTest}: every attack of book/grading/attacks is built —
 * the checkpoint's code with the patch applied, compiled in this JVM — and graded as a student's solution is
 * ({@link SolutionGrade}: the grader's check of its classes, then each claim). The checkpoint it patches is graded
 * first, untouched, as the control. An attack must
 * <ul>
 *   <li>reach the judged stage: a refusal by the static check would hide whether judging holds;</li>
 *   <li>earn no more points than the control;</li>
 *   <li>leave no claim "not judged" (a solution that stalls the machine itself must not turn a fail into that);</li>
 *   <li>open no door: nothing in {@value #DOORS} of the grader's working directory, where an attack that could
 *       write a file or start a process leaves its trace.</li>
 * </ul>
 * Each is graded once: an attack that is not judged has already won what it wanted. Prints one line per attack and
 * writes target/reports/attacks.md (+ .json).
 */
@EnabledIfSystemProperty(named = "grade.wrong", matches = ".*", disabledReason = "grades every attack on the grader (minutes): mvn test -Dgrade.wrong")
class AttacksTest {

    /** One seed for the control and every attack: each is judged on the same inputs. */
    private static final long SEED = archlab.claims.ClaimsRun.seedFromSystem();

    /** Where an attack that opened a door leaves its trace, relative to the grader's working directory. */
    static final String DOORS = "target/attack-doors";

    private static final Path BOOK = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();
    private static final Path REPORTS = Path.of(System.getProperty("archlab.reports.dir", BOOK.resolve("target/reports").toString()));
    private static final Path WORKING_DIR = Path.of("").toAbsolutePath();
    private static final List<Map<String, Object>> ROWS = new CopyOnWriteArrayList<>();
    private static final List<String> LINES = new CopyOnWriteArrayList<>();
    /** The control's points, by base and grade. */
    private static final Map<String, Integer> CONTROL = new ConcurrentHashMap<>();
    /** How many times the control is graded at most while a claim of it could not be judged. */
    private static final int GRADINGS = 3;

    @TestFactory
    @DisplayName("each attack on the grader reaches judging, earns no more points than the untouched checkpoint it patches, leaves no claim not judged and opens no door (no file written, no process started)")
    Stream<DynamicTest> attacks() {
        List<Attack> attacks = Attack.all(BOOK);
        List<DynamicTest> tests = new ArrayList<>();
        attacks.stream().map(a -> List.of(a.base(), a.grade())).distinct().forEach(c -> tests.add(DynamicTest.dynamicTest(
                "control: " + c.get(0) + " untouched, grade " + c.get(1), () -> control(c.get(0), c.get(1)))));
        for (Attack a : attacks) {
            tests.add(DynamicTest.dynamicTest(a.name() + " (" + a.base() + ", grade " + a.grade() + ")", () -> judge(a)));
        }
        return tests.stream();
    }

    private static void control(String base, String grade) throws Exception {
        PatchedSolution solution = PatchedSolution.build(BOOK, "attacks/control-" + base, base, null);
        SolutionGrade g = solution.grade("control/" + base, grade, SEED);
        for (int grading = 2; grading <= GRADINGS && !g.notJudged().isEmpty(); grading++) {
            System.out.println("control " + base + ": not judged " + g.notJudged() + ", grading again (" + grading + " of " + GRADINGS + ")");
            g = solution.grade("control/" + base, grade, SEED);
        }
        String line = String.format("control %s (grade %s): %s, lost %s", base, grade, summary(g), g.lost());
        System.out.println(line);
        LINES.add(line);
        ROWS.add(row("control: " + base + " untouched", base, grade, g, null, List.of(), List.of(), "the control"));
        assertThat(g.scorecard().refusals()).as("the untouched " + base + " is graded, not refused").isEmpty();
        assertThat(g.notJudged()).as("the untouched " + base + ": claims not judged (the machine stalled in every attempt)").isEmpty();
        CONTROL.put(base + " " + grade, g.scorecard().pointsEarned());
    }

    private static void judge(Attack a) throws Exception {
        Integer control = CONTROL.get(a.base() + " " + a.grade());
        assertThat(control).as("the control " + a.base() + " (grade " + a.grade() + ") was graded first").isNotNull();
        PatchedSolution solution = PatchedSolution.build(BOOK, "attacks/" + a.name(), a.base(), a.patch());
        Path doors = WORKING_DIR.resolve(DOORS);
        clear(doors);
        SolutionGrade g = solution.grade("attacks/" + a.name(), a.grade(), SEED);
        List<String> opened = traces(doors);

        List<String> problems = new ArrayList<>();
        if (!g.scorecard().refusals().isEmpty()) {
            problems.add("refused before judging (" + g.scorecard().refusals().get(0) + "): the attack must reach the judged stage");
        }
        if (g.scorecard().pointsEarned() > control) {
            problems.add("earned " + g.scorecard().pointsEarned() + " points, the untouched " + a.base() + " " + control);
        }
        if (!g.notJudged().isEmpty()) {
            problems.add("claims not judged " + g.notJudged());
        }
        if (!opened.isEmpty()) {
            problems.add("doors opened: " + String.join("; ", opened));
        }
        String did = problems.isEmpty() ? "held" : "got through: " + String.join("; ", problems);
        String line = String.format("attack %s (%s, grade %s): %s, lost %s — %s", a.name(), a.base(), a.grade(), summary(g), g.lost(), did);
        System.out.println(line);
        LINES.add(line);
        ROWS.add(row(a.name(), a.base(), a.grade(), g, control, opened, problems, a.expect()));
        assertThat(problems).as(a.name() + " must gain nothing: " + a.expect()).isEmpty();
    }

    private static String summary(SolutionGrade g) {
        return g.scorecard().summary().replaceFirst(" \\(.*?\\)", "");
    }

    private static Map<String, Object> row(String name, String base, String grade, SolutionGrade g, Integer control,
                                           List<String> doors, List<String> problems, String expect) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("base", base);
        row.put("grade", grade);
        row.put("pointsEarned", g.scorecard().pointsEarned());
        row.put("pointsPossible", g.scorecard().pointsPossible());
        row.put("controlPoints", control);
        row.put("lost", List.copyOf(g.lost()));
        row.put("notJudged", List.copyOf(g.notJudged()));
        row.put("refusals", g.scorecard().refusals());
        row.put("doorsOpened", doors);
        row.put("problems", problems);
        row.put("held", problems.isEmpty());
        row.put("expect", expect);
        return row;
    }

    /** Empties {@code doors}: what an earlier run left there is not this attack's. */
    private static void clear(Path doors) throws IOException {
        if (Files.isDirectory(doors)) {
            try (Stream<Path> files = Files.walk(doors)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }

    /** @return one line per file an attack left in {@code doors}: its name and its first line */
    private static List<String> traces(Path doors) throws IOException {
        if (!Files.isDirectory(doors)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(doors)) {
            for (Path f : files.sorted().toList()) {
                String first = new String(Files.readAllBytes(f), StandardCharsets.UTF_8).strip().lines().findFirst().orElse("");
                out.add(DOORS + "/" + f.getFileName() + " (" + first + ")");
            }
        }
        return out;
    }

    @AfterAll
    @SuppressWarnings("unchecked")
    static void table() throws IOException {
        StringBuilder md = new StringBuilder("# Attacks on the grader, graded\n\n`mvn test -Dgrade.wrong`: each patch of book/grading/attacks"
                + " applied to its checkpoint and graded with its chapter's claims, after the checkpoint untouched (the control). An attack"
                + " must reach judging, earn no more than the control, leave no claim not judged and open no door.\n\n"
                + "| attack | base | grade | points | control | lost | not judged | doors opened | what the grader did |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : ROWS) {
            List<String> problems = (List<String>) r.get("problems");
            md.append(String.format("| %s | %s | %s | %s/%s | %s | %s | %s | %s | %s |%n", r.get("name"), r.get("base"), r.get("grade"),
                    r.get("pointsEarned"), r.get("pointsPossible"), r.get("controlPoints") == null ? "" : r.get("controlPoints"),
                    String.join(", ", (List<String>) r.get("lost")), String.join(", ", (List<String>) r.get("notJudged")),
                    cell(String.join("; ", (List<String>) r.get("doorsOpened"))),
                    r.get("controlPoints") == null ? "the control" : problems.isEmpty() ? "held" : "**got through**: " + cell(String.join("; ", problems))));
        }
        Files.createDirectories(REPORTS);
        Files.writeString(REPORTS.resolve("attacks.md"), md.toString());
        ReportWriter.writeJson(REPORTS.resolve("attacks.json"), Map.of("kind", "attacks", "rows", List.copyOf(ROWS)));
        System.out.println(md);
        LINES.forEach(System.out::println);
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
