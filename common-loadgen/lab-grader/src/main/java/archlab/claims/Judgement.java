package archlab.claims;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A claim judged against one solution: the verdict that counts and every attempt it took. A claim judged while the
 * machine stalled ({@link ClaimVerdict.Outcome#NOT_JUDGED}) is judged again, up to {@link #ATTEMPTS} times in all; if
 * every attempt was disturbed, the claim stays not judged — never a pass or a fail.
 *
 * @param claim    the claim
 * @param verdict  the last attempt's verdict
 * @param attempts how many attempts it took, 1..{@link #ATTEMPTS}
 * @param nanos    wall time of all attempts, ns
 */
public record Judgement(Claim claim, ClaimVerdict verdict, int attempts, long nanos) {

    /** How many times a claim is judged before it is reported not judged. */
    public static final int ATTEMPTS = 3;

    /**
     * How long one attempt may take before it counts as a failure: a solution that never answers (a deadlock, a pay
     * that waits forever) loses this claim, not the whole grade. The attempt's thread is left running, as a daemon.
     */
    public static final Duration TIME_LIMIT = Duration.ofSeconds(120);

    /** Judges {@code claim} against {@code checkpoint}, again while the machine stalled, on {@link ClaimInputs#FIXED_SEED}'s inputs. */
    public static Judgement of(Claim claim, Checkpoint checkpoint) {
        return of(claim, () -> checkpoint, ClaimInputs.FIXED_SEED);
    }

    /**
     * Judges {@code claim}, each attempt against a checkpoint of its own from {@code checkpoints} and on inputs of its
     * own, {@link ClaimInputs#of ClaimInputs.of(seed, claim.id(), attempt)}.
     *
     * @param seed the run's seed: the same seed feeds every attempt what it was fed before
     */
    public static Judgement of(Claim claim, Supplier<Checkpoint> checkpoints, long seed) {
        long start = System.nanoTime();
        List<String> disturbed = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            ClaimVerdict v = withinTimeLimit(claim, checkpoints, ClaimInputs.of(seed, claim.id(), attempt));
            if (v.outcome() != ClaimVerdict.Outcome.NOT_JUDGED || attempt == ATTEMPTS) {
                if (!disturbed.isEmpty() && v.outcome() != ClaimVerdict.Outcome.NOT_JUDGED) {
                    v = new ClaimVerdict(v.outcome(), v.measured() + " [after " + disturbed.size() + " attempt(s) the machine disturbed]");
                } else if (v.outcome() == ClaimVerdict.Outcome.NOT_JUDGED) {
                    v = new ClaimVerdict(v.outcome(), "not judged: the machine was busy in all " + ATTEMPTS + " attempts; last: " + v.measured());
                }
                return new Judgement(claim, v, attempt, System.nanoTime() - start);
            }
            disturbed.add(v.measured());
        }
    }

    /**
     * One attempt against a checkpoint of its own, closed after it (a student process is killed). An attempt that was
     * disturbed while the student's own processes saturated the machine ({@link StudentMeter.Use#disturbedByTheStudent()})
     * is judged as measured, with the figures: only a disturbance from elsewhere is "not judged".
     */
    private static ClaimVerdict withinTimeLimit(Claim claim, Supplier<Checkpoint> checkpoints, ClaimInputs inputs) {
        Checkpoint checkpoint = checkpoints.get();
        try {
            ClaimVerdict v = withinTimeLimit(claim, checkpoint, inputs);
            if (checkpoint instanceof ServedSolution.Attempt attempt) {
                StudentMeter.Use use = attempt.use();
                if (v.outcome() == ClaimVerdict.Outcome.NOT_JUDGED) {
                    return use.disturbedByTheStudent()
                            ? ClaimVerdict.failed("judged as measured: the machine was saturated by the solution's own processes"
                                    + " (" + use.describe() + "); " + v.measured())
                            : ClaimVerdict.notJudged(v.measured() + " [" + use.describe() + "]");
                }
            }
            return v;
        } finally {
            if (checkpoint instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    // an attempt that cannot be closed has nothing left to say about the verdict
                }
            }
        }
    }

    private static ClaimVerdict withinTimeLimit(Claim claim, Checkpoint checkpoint, ClaimInputs inputs) {
        FutureTask<ClaimVerdict> attempt = new FutureTask<>(() -> once(claim, checkpoint, inputs));
        // a neutral name: a thread named after its claim would tell the solution which claim judges it
        Thread.ofPlatform().daemon(true).name("grader-attempt").start(attempt);
        try {
            return attempt.get(TIME_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            attempt.cancel(true);
            return ClaimVerdict.failed("the solution did not finish within " + TIME_LIMIT.toSeconds() + " s (the claim's thread was interrupted and left behind)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            attempt.cancel(true);
            return ClaimVerdict.failed("interrupted");
        } catch (ExecutionException e) {
            return ClaimVerdict.failed("the solution threw " + e.getCause());
        }
    }

    private static ClaimVerdict once(Claim claim, Checkpoint checkpoint, ClaimInputs inputs) {
        try {
            return claim.judge().judge(checkpoint, inputs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ClaimVerdict.failed("interrupted");
        } catch (Exception | Error e) {
            return ClaimVerdict.failed("the solution threw " + e);
        }
    }

    public boolean passed() {
        return verdict.outcome() == ClaimVerdict.Outcome.PASSED;
    }

    /** @return the failure message a grader reads: what was measured, what the claim needs, where the chapter explains it */
    public String explain() {
        return "[" + claim.id() + "] " + claim.statement() + "\n  measured: " + verdict.measured() + "\n  needs:    "
                + claim.needs() + "\n  read:     chapter " + claim.section();
    }
}
