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
 * @param judge     the judgement: builds fresh stubs and a fresh service, measures, decides; built by {@link Builder}
 *                  it states the inputs it used after what it measured
 */
public record Claim(String id, Suite suite, String section, int points, boolean load, String statement, String needs,
                    Judge judge) {

    /** The judgement of one claim against one solution. */
    @FunctionalInterface
    public interface Judge {
        /**
         * @param checkpoint the solution
         * @param inputs     this attempt's customer, skus, prices, deadlines and latencies: the claim uses these, never
         *                   literals of its own, so that a solution cannot tell the claim by what it is fed
         * @return the verdict; exceptions count as a failure of the solution and are reported with the claim
         */
        ClaimVerdict judge(Checkpoint checkpoint, ClaimInputs inputs) throws Exception;
    }

    public Claim {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(judge, "judge");
        if (points < 0) {
            throw new IllegalArgumentException("points < 0: " + points);
        }
    }

    /** @return a builder of the claim {@code id} of {@code suite}; every other part is named where it is set */
    public static Builder builder(String id, Suite suite) {
        return new Builder(id, suite);
    }

    /** Builds a {@link Claim} from named parts. Not thread-safe; one per claim. */
    public static final class Builder {
        private final String id;
        private final Suite suite;
        private String section = "";
        private int points;
        private boolean load;
        private String statement = "";
        private String needs = "";
        private Judge judge;

        private Builder(String id, Suite suite) {
            this.id = id;
            this.suite = suite;
        }

        /** @param section where the chapter explains the claim, e.g. {@code "12.2 锁只管状态"} */
        public Builder section(String section) {
            this.section = section;
            return this;
        }

        /** @param points what the claim is worth in a grade (not negative) */
        public Builder points(int points) {
            this.points = points;
            return this;
        }

        /** @param load whether the claim runs the open-loop load (seconds) rather than a few requests */
        public Builder load(boolean load) {
            this.load = load;
            return this;
        }

        /** @param statement the claim in one line */
        public Builder statement(String statement) {
            this.statement = statement;
            return this;
        }

        /** @param needs what the judgement requires, with its bounds */
        public Builder needs(String needs) {
            this.needs = needs;
            return this;
        }

        /**
         * @param judge the judgement: builds fresh stubs and a fresh service, measures, decides; its verdict's
         *              measurement is followed by the inputs it used ({@link ClaimInputs#describe()})
         */
        public Builder judge(Judge judge) {
            Objects.requireNonNull(judge, "judge");
            this.judge = (checkpoint, inputs) -> inputs.stated(judge.judge(checkpoint, inputs));
            return this;
        }

        /** @return the claim; its constructor checks the parts */
        public Claim build() {
            return new Claim(id, suite, section, points, load, statement, needs, judge);
        }
    }
}
