package archlab.ladder.compute;

import java.util.List;

/**
 * The answer's tag (its {@code ETag}): a hash of every order's id, status and total, so a client can tell a page it
 * already has. The trap is in how its text is built.
 *
 * <p>Stateless; thread-safe.
 */
public final class PageTag {

    private PageTag() {
    }

    /**
     * @return the tag of {@code views} in {@code encoding}, built the way {@code text} says (both ways give the same tag):
     *         {@code "<hash>-json"} or {@code "<hash>-protobuf"}, quoted — the JSON and the protobuf of one page are two
     *         representations, so two tags
     */
    public static String of(List<OrderView> views, Compute.Text text, Compute.Encoding encoding) {
        String built = text == Compute.Text.CONCAT_IN_LOOP ? concatenated(views) : built(views);
        String representation = encoding == Compute.Encoding.JSON ? "json" : "protobuf";
        return '"' + Integer.toHexString(built.hashCode()) + '-' + representation + '"';
    }

    // tag::concat-in-loop[]
    /** WRONG: each {@code +=} makes a new string and copies all the text before it: n orders, n copies, O(n²) bytes. */
    static String concatenated(List<OrderView> views) {
        String text = "";
        for (OrderView v : views) {
            text += v.getOrderId() + ":" + v.getStatus() + ":" + v.getTotalCents() + ";";
        }
        return text;
    }

    /** RIGHT: one builder, appended to; its array grows by doubling, and the text is copied out once. */
    static String built(List<OrderView> views) {
        StringBuilder text = new StringBuilder(views.size() * 32);
        for (OrderView v : views) {
            text.append(v.getOrderId()).append(':').append(v.getStatus()).append(':').append(v.getTotalCents()).append(';');
        }
        return text.toString();
    }
    // end::concat-in-loop[]
}
