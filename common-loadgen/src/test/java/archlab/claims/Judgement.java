package archlab.claims;

import java.util.ArrayList;
import java.util.List;

/**
 * A claim judged against one solution: the verdict that counts and every attempt it took. A claim judged while the
 * machine stalled ({@link Verdict.Outcome#NOT_JUDGED}) is judged again, up to {@link #ATTEMPTS} times in all; if
 * every attempt was disturbed, the claim stays not judged — never a pass or a fail.
 *
 * @param claim    the claim
 * @param verdict  the last attempt's verdict
 * @param attempts how many attempts it took, 1..{@link #ATTEMPTS}
 * @param nanos    wall time of all attempts, ns
 */
public record Judgement(Claim claim, Verdict verdict, int attempts, long nanos) {

    /** How many times a claim is judged before it is reported not judged. */
    public static final int ATTEMPTS = 3;

    /** Judges {@code claim} against {@code checkpoint}, again while the machine stalled. */
    public static Judgement of(Claim claim, Checkpoint checkpoint) {
        long start = System.nanoTime();
        List<String> disturbed = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            Verdict v = once(claim, checkpoint);
            if (v.outcome() != Verdict.Outcome.NOT_JUDGED || attempt == ATTEMPTS) {
                if (!disturbed.isEmpty() && v.outcome() != Verdict.Outcome.NOT_JUDGED) {
                    v = new Verdict(v.outcome(), v.measured() + " [after " + disturbed.size() + " attempt(s) the machine disturbed]");
                } else if (v.outcome() == Verdict.Outcome.NOT_JUDGED) {
                    v = new Verdict(v.outcome(), "not judged: the machine was busy in all " + ATTEMPTS + " attempts; last: " + v.measured());
                }
                return new Judgement(claim, v, attempt, System.nanoTime() - start);
            }
            disturbed.add(v.measured());
        }
    }

    private static Verdict once(Claim claim, Checkpoint checkpoint) {
        try {
            return claim.judge().judge(checkpoint);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.failed("interrupted");
        } catch (Exception | AssertionError e) {
            return Verdict.failed("the solution threw " + e);
        }
    }

    public boolean passed() {
        return verdict.outcome() == Verdict.Outcome.PASSED;
    }

    /** @return the failure message a grader reads: what was measured, what the claim needs, where the chapter explains it */
    public String explain() {
        return "[" + claim.id() + "] " + claim.statement() + "\n  measured: " + verdict.measured() + "\n  needs:    "
                + claim.needs() + "\n  read:     chapter " + claim.section();
    }
}
