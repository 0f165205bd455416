package archlab.claims;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One solution graded outside a checkpoint module — an attack or a wrong solution built from a patch — as
 * {@code -Dgrade} grades a module: the grader's check of its classes first, then every claim of the chapter against
 * it, each attempt in a student process of its own ({@link #of}) or, for the lab's own code, in a class loader of its
 * own in this JVM ({@link #inThisJvm}).
 *
 * @param scorecard the scorecard, as {@code -Dgrade} would write it
 */
public record SolutionGrade(Scorecard scorecard) {

    /**
     * Grades an untrusted solution as a student's is graded: each attempt in a student process of its own, judged
     * over the wire ({@link ServedSolution}).
     *
     * @param module         a name for the scorecard, e.g. {@code attack/refuse-every-pay}
     * @param mainClasses    the solution's compiled main classes (checked first)
     * @param adapterClasses where its {@code archlab.order.GradedCheckpoint} is
     * @param chapter        12.1, 12.2 or 12.3
     * @param seed           the seed the claims' inputs are drawn from ({@link ClaimInputs}); the scorecard records it
     */
    public static SolutionGrade of(String module, Path mainClasses, Path adapterClasses, String chapter, long seed) {
        return grade(module, mainClasses, chapter, seed, () -> {
            ServedSolution served = ServedSolution.of(List.of(mainClasses, adapterClasses));
            return new Where(served::forAttempt, served.describe());
        });
    }

    /**
     * Grades one of the lab's own solutions (a wrong solution of the guide's table, built from the lab's patch) in
     * this JVM, each claim in a class loader of its own ({@link IsolatedCheckpoint}): the same claims, without a JVM
     * to start per attempt. Not for untrusted code: a student's shares this JVM's heap this way.
     */
    public static SolutionGrade inThisJvm(String module, Path mainClasses, Path adapterClasses, String chapter, long seed) {
        return grade(module, mainClasses, chapter, seed, () -> new Where(new IsolatedCheckpoint(List.of(mainClasses, adapterClasses),
                "archlab.order.GradedCheckpoint")::forClaim, "the solution ran in the grader's JVM, a class loader per claim"));
    }

    private static SolutionGrade grade(String module, Path mainClasses, String chapter, long seed,
                                       java.util.function.Supplier<Where> where) {
        List<Claim> claims = Claims.of(Suite.gradedFor(chapter));
        List<StudentCodeCheck.Refusal> refusals = StudentCodeCheck.check(mainClasses);
        List<String> why = refusals.stream().map(Object::toString).toList();
        if (!refusals.isEmpty()) {
            List<Judgement> none = claims.stream()
                    .map(c -> new Judgement(c, ClaimVerdict.failed("not judged: the solution was refused (see refusals)"), 0, 0)).toList();
            return new SolutionGrade(new Scorecard(module, "grade " + chapter, none, why, seed));
        }
        Where at = where.get();
        java.util.function.Supplier<Checkpoint> attempts = at.attempts();
        List<Judgement> judged = claims.stream().map(c -> {
            Judgement j = Judgement.of(c, attempts, seed);
            System.out.println("[claims] " + module + " " + c.id() + ": " + j.verdict().outcome() + " — " + j.verdict().measured());
            return j;
        }).toList();
        return new SolutionGrade(new Scorecard(module, "grade " + chapter, judged, List.of(), seed, at.isolation()));
    }

    /** Where each attempt runs, and one line that says so. */
    private record Where(java.util.function.Supplier<Checkpoint> attempts, String isolation) {
    }

    /** @return the ids of the claims that did not pass (failed or not judged) */
    public Set<String> lost() {
        return scorecard.judgements().stream().filter(j -> !j.passed()).map(j -> j.claim().id())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** @return the ids of the claims that were not judged (the machine stalled in every attempt) */
    public Set<String> notJudged() {
        return scorecard.judgements().stream().filter(j -> j.verdict().outcome() == ClaimVerdict.Outcome.NOT_JUDGED)
                .map(j -> j.claim().id()).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** @return every claim id graded for {@code chapter} */
    public static List<String> claimIds(String chapter) {
        return Claims.of(Suite.gradedFor(chapter)).stream().map(Claim::id).toList();
    }
}
