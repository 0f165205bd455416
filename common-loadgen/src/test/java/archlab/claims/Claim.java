package archlab.claims;

import java.util.Objects;

/**
 * One claim a chapter makes, as a test that grades any solution through the {@link OrderPort}: an id, the chapter
 * section that explains it, its points, one line that states it, what it needs to pass, and the judgement itself.
 *
 * @param id        stable id, e.g. {@code "12.2-reads-not-held"}; the scorecard's row key
 * @param suite     the suite it belongs to
 * @param section   where the chapter explains it, e.g. {@code "12.2 锁只管状态"}
 * @param points    what it is worth in a grade
 * @param load      whether it runs the open-loop load (seconds), rather than a few requests (milliseconds)
 * @param statement the claim in one line
 * @param needs     what the judgement requires, with its bounds, for the scorecard's "what it needs" column
 * @param judge     the judgement: builds fresh stubs and a fresh service, measures, decides
 */
public record Claim(String id, Suite suite, String section, int points, boolean load, String statement, String needs,
                    Judge judge) {

    /** The judgement of one claim against one solution. */
    @FunctionalInterface
    public interface Judge {
        /** @return the verdict; exceptions count as a failure of the solution and are reported with the claim */
        ClaimVerdict judge(Checkpoint checkpoint) throws Exception;
    }

    public Claim {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(judge, "judge");
        if (points < 0) {
            throw new IllegalArgumentException("points < 0: " + points);
        }
    }
}
