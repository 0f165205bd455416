package archlab.http.wire;

/**
 * Which request a {@link WireOpenLoop} sends as request {@code sequence} (1-based, counted across the warm-up and the
 * measured phase). Called on the generator's event loops, once per request: return a request encoded before the run
 * (a {@link WireRequest} held in a field or an array), never build one here.
 *
 * <p>Thread-safety: called from several event loops at once.
 */
@FunctionalInterface
public interface WireWorkload {

    WireRequest requestFor(long sequence);

    /** @return the same request every time */
    static WireWorkload of(WireRequest request) {
        java.util.Objects.requireNonNull(request, "request");
        return sequence -> request;
    }
}
