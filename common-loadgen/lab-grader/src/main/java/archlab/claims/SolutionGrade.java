package archlab.claims;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One solution graded outside a checkpoint module — a wrong solution built from a patch, say — exactly as
 * {@code -Dgrade} grades a module: the grader's check of its classes first, then every claim of the chapter against
 * it, each attempt in a class loader of its own.
 *
 * @param scorecard the scorecard, as {@code -Dgrade} would write it
 */
public record SolutionGrade(Scorecard scorecard) {

    /**
     * @param module         a name for the scorecard, e.g. {@code wrong/stale-cache}
     * @param mainClasses    the solution's compiled main classes (checked, then loaded afresh for every claim)
     * @param adapterClasses where its {@code archlab.order.GradedCheckpoint} is
     * @param chapter        12.1, 12.2 or 12.3
     * @param seed           the seed the claims' inputs are drawn from ({@link ClaimInputs}); the scorecard records it
     */
    public static SolutionGrade of(String module, Path mainClasses, Path adapterClasses, String chapter, long seed) {
        List<Claim> claims = Claims.of(Suite.gradedFor(chapter));
        List<StudentCodeCheck.Refusal> refusals = StudentCodeCheck.check(mainClasses);
        List<String> why = refusals.stream().map(Object::toString).toList();
        if (!refusals.isEmpty()) {
            List<Judgement> none = claims.stream()
                    .map(c -> new Judgement(c, ClaimVerdict.failed("not judged: the solution was refused (see refusals)"), 0, 0)).toList();
            return new SolutionGrade(new Scorecard(module, "grade " + chapter, none, why, seed));
        }
        IsolatedCheckpoint isolated = new IsolatedCheckpoint(List.of(mainClasses, adapterClasses), "archlab.order.GradedCheckpoint");
        List<Judgement> judged = claims.stream().map(c -> {
            Judgement j = Judgement.of(c, isolated::forClaim, seed);
            System.out.println("[claims] " + module + " " + c.id() + ": " + j.verdict().outcome() + " — " + j.verdict().measured());
            return j;
        }).toList();
        return new SolutionGrade(new Scorecard(module, "grade " + chapter, judged, List.of(), seed));
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
