package archlab.trace;

/**
 * An open segment of one request, closed by try-with-resources:
 * <pre>{@code
 * try (Span s = ctx.span("payment")) {
 *     payments.charge(ctx, request);
 * }
 * }</pre>
 * {@link #close()} never throws.
 */
public interface Span extends AutoCloseable {

    /** The span of a request that is not traced: closing it does nothing and reads no clock. */
    Span NOOP = () -> { };

    /** Ends the segment. */
    @Override
    void close();
}
