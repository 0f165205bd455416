package archlab.claims;

/**
 * What one judgement of a claim found: the outcome and the numbers it judged. A claim whose measurement was taken
 * while the machine could not keep the schedule is {@link Outcome#NOT_JUDGED}: it says nothing about the solution,
 * so it is neither a pass nor a fail.
 *
 * @param outcome  passed, failed or not judged
 * @param measured what was measured, with its numbers, e.g. {@code "get answered in 212.4 ms while the pay sat in a 300 ms charge"}
 */
public record Verdict(Outcome outcome, String measured) {

    /** The three ways a judgement ends. */
    public enum Outcome { PASSED, FAILED, NOT_JUDGED }

    public static Verdict passed(String measured) {
        return new Verdict(Outcome.PASSED, measured);
    }

    public static Verdict failed(String measured) {
        return new Verdict(Outcome.FAILED, measured);
    }

    public static Verdict notJudged(String measured) {
        return new Verdict(Outcome.NOT_JUDGED, measured);
    }

    /** @return passed if {@code holds}, else failed, with the same measurement either way */
    public static Verdict of(boolean holds, String measured) {
        return holds ? passed(measured) : failed(measured);
    }
}
