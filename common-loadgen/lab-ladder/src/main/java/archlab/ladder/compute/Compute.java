package archlab.ladder.compute;

import java.util.Objects;

/**
 * The business code's choices on the interface's answer path, the source article's four (its section 3.2): each a slow
 * choice its flame graph showed and the fix it made. A rung of the ladder ({@code archlab.ladder.Rung}) holds one
 * combination; {@link #SLOW} is the article's starting point, {@link #FAST} where it ended.
 *
 * <ul>
 * <li>{@link Text}: the answer's tag (its ETag) built from every order's fields by {@code +=} in a loop — a new string
 *     per order, each copying all the text before it — or by one {@link StringBuilder}.</li>
 * <li>{@link Mapping}: each order's row mapped to the answer's view by a reflection mapper (Dozer, the article's) or by
 *     code generated at compile time (MapStruct).</li>
 * <li>{@link Encoding}: the answer's body as JSON (Jackson) or protobuf.</li>
 * <li>{@link Logging}: every request's whole answer serialised into an INFO line written synchronously to a file, or a
 *     sample of one request in {@value RequestLog#SAMPLE_ONE_IN} logged with its key fields through an asynchronous
 *     appender (Log4j 2).</li>
 * </ul>
 *
 * @param text     how the tag's text is built
 * @param mapping  how an order's row becomes its view
 * @param encoding the body's format
 * @param logging  what each request logs, and how
 *
 * <p>Immutable.
 */
public record Compute(Text text, Mapping mapping, Encoding encoding, Logging logging) {

    /** How the tag's text is built. */
    public enum Text { CONCAT_IN_LOOP, BUILDER }

    /** How an order's row becomes its view. */
    public enum Mapping { REFLECTION, GENERATED }

    /** The body's format. */
    public enum Encoding { JSON, PROTOBUF }

    /** What each request logs, and how. */
    public enum Logging { WHOLE_ANSWER_SYNC, SAMPLED_KEYS_ASYNC }

    /** Every slow choice: the article's starting point. */
    public static final Compute SLOW = new Compute(Text.CONCAT_IN_LOOP, Mapping.REFLECTION, Encoding.JSON,
            Logging.WHOLE_ANSWER_SYNC);
    /** Every fast choice. */
    public static final Compute FAST = new Compute(Text.BUILDER, Mapping.GENERATED, Encoding.PROTOBUF,
            Logging.SAMPLED_KEYS_ASYNC);

    public Compute {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(mapping, "mapping");
        Objects.requireNonNull(encoding, "encoding");
        Objects.requireNonNull(logging, "logging");
    }

    public Compute with(Text t) {
        return new Compute(t, mapping, encoding, logging);
    }

    public Compute with(Mapping m) {
        return new Compute(text, m, encoding, logging);
    }

    public Compute with(Encoding e) {
        return new Compute(text, mapping, e, logging);
    }

    public Compute with(Logging l) {
        return new Compute(text, mapping, encoding, l);
    }

    /** @return how many of the four choices differ from {@code other}'s */
    public int differences(Compute other) {
        return (text != other.text ? 1 : 0) + (mapping != other.mapping ? 1 : 0) + (encoding != other.encoding ? 1 : 0)
                + (logging != other.logging ? 1 : 0);
    }

    /** @return how many of the four choices are the fast one */
    public int fastChoices() {
        return (text == Text.BUILDER ? 1 : 0) + (mapping == Mapping.GENERATED ? 1 : 0) + (encoding == Encoding.PROTOBUF ? 1 : 0)
                + (logging == Logging.SAMPLED_KEYS_ASYNC ? 1 : 0);
    }
}
