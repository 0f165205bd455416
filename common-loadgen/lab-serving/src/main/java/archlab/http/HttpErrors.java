package archlab.http;

import archlab.downstream.DownstreamException;
import archlab.request.DeadlineExceededException;
import archlab.request.RequestRejectedException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which status code an exception thrown through the port ({@link archlab.loadgen.OrderTarget}) gets, and the small JSON
 * body every error carries: {@code {"error": "...", "status": N}}, never a stack trace.
 *
 * <p>The harness knows no checkpoint, so the checkpoints' own exceptions are told apart by the harness's types first
 * and by their simple names after, a convention all three checkpoints follow:
 * <ul>
 *   <li>{@link RequestRejectedException} (rate limiter, open circuit): 429 with {@code Retry-After};</li>
 *   <li>{@link DeadlineExceededException} (the deadline passed, a downstream timed out, a full bulkhead): 504;</li>
 *   <li>{@link DownstreamException} (a downstream failed): 503;</li>
 *   <li>a name ending in {@code NotFoundException}: 404; {@code InvalidStateException}: 409;</li>
 *   <li>a name ending in {@code InvalidOrderException}, or an {@link IllegalArgumentException}: 400;</li>
 *   <li>a name ending in {@code OutcomeUnknownException} (a charge went unanswered: the order stays PAYING until the
 *       reconciler resolves it): 504, as a timeout says "we do not know"; one containing {@code CircuitOpen} (the
 *       breaker opened mid-pay, nothing charged): 503;</li>
 *   <li>a name ending in {@code DatabaseException} (the store failed or stalled: a pool that gave no connection in
 *       time, a lost session, a lease gone): 503 with a fixed message — the store's own message may name its tables;</li>
 *   <li>anything else: 500, {@code internal error} (its message and class may tell internals).</li>
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
public final class HttpErrors {

    private HttpErrors() {
    }

    /** A status and the message for the client. */
    public record Mapped(int status, String message, Duration retryAfter) {
    }

    /** @return the status and the client's message for {@code e} thrown by the port */
    public static Mapped of(Throwable e) {
        String name = e.getClass().getSimpleName();
        if (e instanceof RequestRejectedException r) {
            return new Mapped(429, message(e), r.retryAfter());
        }
        if (e instanceof DeadlineExceededException) {
            return new Mapped(504, message(e), null);
        }
        if (e instanceof DownstreamException) {
            return new Mapped(503, message(e), null);
        }
        if (name.endsWith("NotFoundException")) {
            return new Mapped(404, message(e), null);
        }
        if (name.endsWith("InvalidStateException")) {
            return new Mapped(409, message(e), null);
        }
        if (name.endsWith("InvalidOrderException") || e instanceof IllegalArgumentException) {
            return new Mapped(400, message(e), null);
        }
        if (name.endsWith("OutcomeUnknownException")) {
            return new Mapped(504, message(e), null);
        }
        if (name.contains("CircuitOpen")) {
            return new Mapped(503, message(e), null);
        }
        if (name.endsWith("DatabaseException")) {
            return new Mapped(503, "the order store could not serve this request; try again", null);
        }
        return new Mapped(500, "internal error", null);
    }

    /** @return the {@code Retry-After} header's value: whole seconds, rounded up, at least 1 */
    public static String retryAfterSeconds(Duration d) {
        long ms = Math.max(1, d.toMillis());
        return Long.toString((ms + 999) / 1000);
    }

    /** @return {@code {"error": message, "status": status}} as a map for Jackson */
    public static Map<String, Object> body(int status, String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", message);
        m.put("status", status);
        return m;
    }

    /** The exception's own message, cut to one short line: never a trace, never a newline. */
    private static String message(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        m = m.replaceAll("[\\r\\n\\t]+", " ");
        return m.length() > 200 ? m.substring(0, 200) + "…" : m;
    }
}
