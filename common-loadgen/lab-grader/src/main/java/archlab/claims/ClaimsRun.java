package archlab.claims;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.TestAbortedException;

/**
 * Which claims a checkpoint's {@code ChapterClaimsTest} runs, and what it does with their verdicts:
 * <ul>
 *   <li>{@code mvn test} — the module's own chapter ({@link Suite#gradedFor}), the claims that take milliseconds;
 *       {@code -Dbaseline} adds the load claims. Every one must pass.</li>
 *   <li>{@code -Dgrade=12.2} — that chapter's suites, load claims included, against this module's code; writes
 *       {@code target/reports/grade-12.2.md} (+ .json, .xml) and fails unless every claim passed.</li>
 *   <li>{@code -Dclaims} — every suite, load claims included; records each verdict in
 *       {@code target/reports/claims-<module>.json} and fails nothing: the book module's matrix judges the shape.</li>
 * </ul>
 * A claim judged while the machine stalled is judged again, then reported "not judged" — never a pass; in a grade an
 * error (regrade), elsewhere skipped. A grade and the matrix judge the code in a student process of its own, over the
 * wire ({@link ServedSolution}); the module's own fast claims judge it in this JVM ({@link IsolatedCheckpoint}).
 *
 * <p>Every run has a seed, from which each attempt of each claim draws its inputs ({@link ClaimInputs}): {@code
 * -Dgrade.seed=N} to regrade with a scorecard's inputs, else one drawn at random; the run prints it and the scorecard
 * records it.
 *
 * <p>Not thread-safe: one per test class.
 */
public final class ClaimsRun {

    /** What this run is for. */
    public enum Mode { OWN, GRADE, MATRIX }

    private final String module;
    private final Path reportsDir;
    private final Mode mode;
    private final String chapter;
    private final List<Claim> claims;
    private final List<Judgement> judgements = new CopyOnWriteArrayList<>();
    private final Path solutionClasses;
    private final long seed;
    private List<StudentCodeCheck.Refusal> refusals = List.of();
    private String isolation = "the solution ran in this JVM, in a class loader of its own";

    ClaimsRun(String module, Path reportsDir, Mode mode, String chapter, List<Claim> claims, long seed) {
        this.seed = seed;
        this.module = module;
        this.reportsDir = reportsDir;
        this.mode = mode;
        this.chapter = chapter;
        this.claims = claims;
        this.solutionClasses = Path.of(System.getProperty("archlab.solution.classes",
                Path.of(System.getProperty("archlab.module.dir", ".")).resolve("target/classes").toString()))
                .toAbsolutePath().normalize();
    }

    /**
     * {@code -Dclaims.only=<id>,<id>} keeps only those claims, judged as {@code -Dclaims} judges them (for looking at
     * one claim: its record is not a grade and fails nothing).
     *
     * @throws IllegalArgumentException for {@code -Dgrade} naming no chapter of this lab, {@code -Dclaims.only} no
     *                                  claim, or a {@code -Dgrade.seed} that is not a whole number
     */
    public static ClaimsRun fromSystem() {
        long seed = seedFromSystem();
        System.out.println("[claims] seed " + seed + " (the claims' inputs; regrade with them: -Dgrade.seed=" + seed + ")");
        Path moduleDir = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();
        String module = moduleDir.getFileName().toString();
        Path reports = Path.of(System.getProperty("archlab.reports.dir", moduleDir.resolve("target/reports").toString()));
        ClaimsRun run = fromSystemAll(moduleDir, module, reports, seed);
        String only = System.getProperty("claims.only");
        if (only == null || only.isBlank()) {
            return run;
        }
        List<String> ids = List.of(only.split(","));
        List<Claim> kept = run.claims.stream().filter(c -> ids.contains(c.id())).toList();
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("-Dclaims.only=" + only + " names none of this run's claims: "
                    + run.claims.stream().map(Claim::id).toList());
        }
        // a look at some claims, not a grade: judged as the matrix judges (over the wire), recorded, failing nothing
        return new ClaimsRun(module, reports, Mode.MATRIX, null, kept, seed);
    }

    private static ClaimsRun fromSystemAll(Path moduleDir, String module, Path reports, long seed) {
        String grade = System.getProperty("grade");
        if (grade != null) {
            return new ClaimsRun(module, reports, Mode.GRADE, grade, Claims.of(Suite.gradedFor(grade)), seed);
        }
        if (System.getProperty("claims") != null) {
            return new ClaimsRun(module, reports, Mode.MATRIX, null, Claims.all(), seed);
        }
        boolean load = System.getProperty("baseline") != null;
        String own = Suite.chapterOf(module);
        return new ClaimsRun(module, reports, Mode.OWN, own,
                Claims.of(Suite.gradedFor(own)).stream().filter(c -> load || !c.load()).toList(), seed);
    }

    /**
     * @return {@code -Dgrade.seed} if set, else the environment's {@value #SEED_ENVIRONMENT} if set (how the grading
     *         scripts pass it), else a seed drawn from {@link SecureRandom}
     * @throws IllegalArgumentException if {@code -Dgrade.seed} is not a whole number (a long)
     */
    public static long seedFromSystem() {
        String property = System.getProperty("grade.seed");
        return parseSeed(property != null ? property : System.getenv(SEED_ENVIRONMENT));
    }

    /**
     * The environment variable a grading script passes the seed in: unlike a command line's {@code -Dgrade.seed}, a
     * process's environment is readable by its owner only, so the student's process (another uid) cannot read the
     * seed of the grading that judges it.
     */
    public static final String SEED_ENVIRONMENT = "ARCHLAB_GRADE_SEED";

    /** @return {@code text} as a seed, or a fresh random one for {@code null} or blank */
    static long parseSeed(String text) {
        if (text == null || text.isBlank()) {
            return new SecureRandom().nextLong();
        }
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-Dgrade.seed must be a whole number (a Java long, e.g. -Dgrade.seed=-42), was '"
                    + text + "'", e);
        }
    }

    /** @return the seed the claims' inputs are drawn from */
    public long seed() {
        return seed;
    }

    public Mode mode() {
        return mode;
    }

    /**
     * @return first the grader's check of the module's classes ({@link StudentCodeCheck}), then one dynamic test per
     *         claim, each attempt judging {@code checkpoint}'s class where {@link #attempts} says (a student process
     *         of its own for a grade and the matrix); a refused solution is judged no further (in grade mode: 0 points)
     */
    public Stream<DynamicTest> tests(Checkpoint checkpoint) {
        refusals = StudentCodeCheck.check(solutionClasses);
        DynamicTest check = DynamicTest.dynamicTest("[grading] the module's classes pass the grader's check: its own package only, no"
                + " class named like the grader's, no reflection, files, processes, JVM exit or caller's stack", () -> {
                    if (!refusals.isEmpty()) {
                        refusals.forEach(r -> System.out.println("[claims] " + module + " refused " + r));
                        Assertions.fail("the solution is refused (" + refusals.size() + " reason(s)); grade 0:\n  "
                                + String.join("\n  ", refusals.stream().map(Object::toString).toList()));
                    }
                });
        if (!refusals.isEmpty()) {
            return Stream.of(check);
        }
        Supplier<Checkpoint> attempts = attempts(checkpoint);
        return Stream.concat(Stream.of(check), claims.stream().map(claim -> DynamicTest.dynamicTest(
                "[" + claim.id() + "] " + claim.statement() + " (" + claim.points() + " pt)", () -> {
                    Judgement j = Judgement.of(claim, attempts, seed);
                    judgements.add(j);
                    System.out.println("[claims] " + module + " " + claim.id() + ": " + j.verdict().outcome() + " — " + j.verdict().measured());
                    if (mode == Mode.MATRIX) {
                        return;
                    }
                    switch (j.verdict().outcome()) {
                        case FAILED -> Assertions.fail(j.explain());
                        case NOT_JUDGED -> {
                            if (mode == Mode.GRADE) {
                                // an error, never skipped: the grade is not given until the claim is judged
                                throw new NotJudgedException(j.explain());
                            }
                            throw new TestAbortedException(j.explain());
                        }
                        case PASSED -> { }
                    }
                })));
    }

    /**
     * @return where each attempt's solution runs: for a grade and the claims matrix, a student process of its own,
     *         judged over the wire ({@link ServedSolution}); for the module's own fast claims ({@code mvn test}), a
     *         class loader of its own in this JVM ({@link IsolatedCheckpoint}) — the same claims, a second's start
     *         cheaper, for code that is the lab's own
     */
    private Supplier<Checkpoint> attempts(Checkpoint checkpoint) {
        if (mode == Mode.OWN) {
            return IsolatedCheckpoint.of(checkpoint, solutionClasses)::forClaim;
        }
        ServedSolution served = ServedSolution.of(List.of(solutionClasses, IsolatedCheckpoint.codeSource(checkpoint.getClass())));
        isolation = served.describe();
        System.out.println("[claims] " + module + ": " + isolation);
        return served::forAttempt;
    }

    /** A claim still not judged after its attempts, in a grade: reported as an error, to regrade. */
    static final class NotJudgedException extends RuntimeException {
        NotJudgedException(String message) {
            super("not judged (regrade on a quieter machine): " + message, null, false, false);
        }
    }

    /**
     * Writes this run's scorecard and prints its summary; in grade mode fails unless every claim passed (a claim not
     * judged has not: rerun on a quieter machine).
     */
    public void finish() {
        List<Judgement> inOrder = refusals.isEmpty()
                ? claims.stream().flatMap(c -> judgements.stream().filter(j -> j.claim().equals(c)).limit(1)).toList()
                : claims.stream().map(c -> new Judgement(c, ClaimVerdict.failed("not judged: the solution was refused (see refusals)"), 0, 0)).toList();
        String title = switch (mode) {
            case GRADE -> "grade " + chapter;
            case MATRIX -> "claims of every chapter";
            case OWN -> "chapter " + chapter + " claims";
        };
        Scorecard card = new Scorecard(module, title, inOrder, refusals.stream().map(Object::toString).toList(), seed, isolation);
        String name = switch (mode) {
            case GRADE -> "grade-" + chapter;
            case MATRIX -> "claims-" + module;
            case OWN -> "claims-own";
        };
        Path md = card.write(reportsDir, name);
        System.out.println(card.markdown());
        System.out.println(card.summary());
        System.out.println("scorecard: " + md + " (+ .json, .xml)");
        if (!refusals.isEmpty()) {
            Assertions.fail(card.summary() + "\n" + String.join("\n", card.refusals()));
        }
        if (mode == Mode.GRADE && !card.allPassed()) {
            Assertions.fail(card.summary() + "\n" + inOrder.stream().filter(j -> !j.passed()).map(Judgement::explain)
                    .reduce((a, b) -> a + "\n" + b).orElse(""));
        }
    }
}
