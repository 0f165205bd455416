package archlab.claims;

/**
 * What one judgement of a claim found: the outcome and the numbers it judged. A claim whose measurement was taken
 * while the machine could not keep the schedule is {@link Outcome#NOT_JUDGED}: it says nothing about the solution,
 * so it is neither a pass nor a fail.
 *
 * @param outcome  passed, failed or not judged
 * @param measured what was measured, with its numbers, e.g. {@code "get answered in 212.4 ms while the pay sat in a 300 ms charge"}
 */
public record ClaimVerdict(Outcome outcome, String measured) {

    /** The three ways a judgement ends. */
    public enum Outcome { PASSED, FAILED, NOT_JUDGED }

    public static ClaimVerdict passed(String measured) {
        return new ClaimVerdict(Outcome.PASSED, measured);
    }

    public static ClaimVerdict failed(String measured) {
        return new ClaimVerdict(Outcome.FAILED, measured);
    }

    public static ClaimVerdict notJudged(String measured) {
        return new ClaimVerdict(Outcome.NOT_JUDGED, measured);
    }

    /** @return passed if {@code holds}, else failed, with the same measurement either way */
    public static ClaimVerdict of(boolean holds, String measured) {
        return holds ? passed(measured) : failed(measured);
    }
}
