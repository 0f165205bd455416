package archlab.downstream.remote;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.IdempotencyKeyConflictException;
import archlab.downstream.PaymentDeclinedException;
import archlab.downstream.PaymentReplyLostException;
import archlab.downstream.PermanentDeliveryException;
import archlab.request.DeadlineExceededException;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * One error as it travels: {@code {"error": KIND, "message": …}} and, when the exception has them, the stub's name,
 * the call's index, whether the deadline had passed on arrival, and the reused idempotency key. The server turns the
 * stub's exception into one ({@link #of(Throwable, String)}); the client turns it back into an exception of the same
 * type with the same message and fields ({@link #toException()}). Never a class name, never a stack trace.
 *
 * @param error           the kind's wire name, e.g. {@code "payment_declined"}
 * @param message         the exception's message, one line
 * @param stub            the stub that failed the call; {@code null} for errors of the request itself
 * @param callIndex       the call's number at that stub; {@code null} likewise
 * @param passedOnArrival for a timeout: whether the deadline had passed when the call arrived; else {@code null}
 * @param idempotencyKey  for a key conflict: the reused key; else {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record WireError(String error, String message, String stub, Long callIndex, Boolean passedOnArrival, String idempotencyKey) {

    /** The longest message sent: a stub's messages are far shorter; this only bounds what an odd input could grow. */
    static final int MAX_MESSAGE_CHARS = 2_000;
    /** What {@link DeadlineExceededException} appends to the message it is given. */
    private static final String DEADLINE_EXCEEDED = ": deadline exceeded";

    /** What went wrong, with the status it travels with. */
    enum Kind {
        /** {@link DownstreamTimeoutException} (or another {@link DeadlineExceededException}). */
        TIMEOUT(504),
        /** {@link PaymentDeclinedException}: no money moved. */
        PAYMENT_DECLINED(402),
        /** {@link PaymentReplyLostException}: the money moved, the reply was lost. */
        REPLY_LOST(502),
        /** {@link PermanentDeliveryException}: never deliverable. */
        PERMANENT_REFUSAL(422),
        /** Any other {@link DownstreamException}: the downstream refused the call. */
        DOWNSTREAM_ERROR(503),
        /** {@link IdempotencyKeyConflictException}: nothing charged. */
        IDEMPOTENCY_KEY_CONFLICT(409),
        /** The stub refused its arguments ({@link IllegalArgumentException}): nothing changed. */
        ILLEGAL_ARGUMENT(400),
        /** The request itself is malformed (not JSON, a field missing or of the wrong type, a bad header). */
        BAD_REQUEST(400),
        /** No such path. */
        NOT_FOUND(404),
        /** A known path with another method. */
        METHOD_NOT_ALLOWED(405),
        /** A body over {@value DownstreamWire#MAX_BODY_BYTES} bytes. */
        BODY_TOO_LARGE(413),
        /** Anything else the server threw: a bug; its message stays in the server's log. */
        INTERNAL(500);

        final int status;

        Kind(int status) {
            this.status = status;
        }

        /** @return e.g. {@code payment_declined} */
        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Optional<Kind> ofWireName(String name) {
            return Arrays.stream(values()).filter(k -> k.wireName().equals(name)).findFirst();
        }

        /** @return the kind of an error Tomcat raised itself, from its status */
        static Kind ofStatus(int status) {
            return switch (status) {
                case 404 -> NOT_FOUND;
                case 405 -> METHOD_NOT_ALLOWED;
                case 413 -> BODY_TOO_LARGE;
                default -> status < 500 ? BAD_REQUEST : INTERNAL;
            };
        }
    }

    /** @return the error of a request refused for its own input: nothing was called */
    static WireError refusal(Kind kind, String message) {
        return new WireError(kind.wireName(), oneLine(message), null, null, null, null);
    }

    /**
     * @param e       what the port threw
     * @param endpoint the stub the call was for, named in a timeout that is not a stub's own
     * @return the error, or empty if {@code e} is none the ports declare (then the server answers {@link Kind#INTERNAL})
     */
    static Optional<WireError> of(Throwable e, String endpoint) {
        String message = oneLine(e.getMessage());
        if (e instanceof DownstreamTimeoutException t) {
            return Optional.of(new WireError(Kind.TIMEOUT.wireName(), message, t.stub(), t.callIndex(), t.passedOnArrival(),
                    null));
        }
        if (e instanceof DeadlineExceededException) {
            return Optional.of(new WireError(Kind.TIMEOUT.wireName(), message, endpoint, -1L, false, null));
        }
        if (e instanceof DownstreamException d) {
            Kind kind = e instanceof PaymentDeclinedException ? Kind.PAYMENT_DECLINED
                    : e instanceof PaymentReplyLostException ? Kind.REPLY_LOST
                    : e instanceof PermanentDeliveryException ? Kind.PERMANENT_REFUSAL : Kind.DOWNSTREAM_ERROR;
            return Optional.of(new WireError(kind.wireName(), message, d.stub(), d.callIndex(), null, null));
        }
        if (e instanceof IdempotencyKeyConflictException c) {
            return Optional.of(new WireError(Kind.IDEMPOTENCY_KEY_CONFLICT.wireName(), message, null, null, null,
                    c.idempotencyKey()));
        }
        if (e instanceof IllegalArgumentException) {
            return Optional.of(refusal(Kind.ILLEGAL_ARGUMENT, e.getMessage()));
        }
        return Optional.empty();
    }

    /** @return the status this error travels with */
    int status() {
        return Kind.ofWireName(error).map(k -> k.status).orElse(500);
    }

    /**
     * @return the exception the stub threw, rebuilt: same type, message and fields; for an error of the request itself,
     *         an {@link IllegalArgumentException}; for a path or method the server does not know (client and server of
     *         different versions), an {@link IllegalStateException}; for an internal error, a
     *         {@link DownstreamException} saying the outcome is unknown
     */
    RuntimeException toException() {
        Kind kind = Kind.ofWireName(error).orElse(Kind.INTERNAL);
        String s = stub == null ? "downstream" : stub;
        long i = callIndex == null ? -1 : callIndex;
        return switch (kind) {
            case TIMEOUT -> new DownstreamTimeoutException(s, i, Boolean.TRUE.equals(passedOnArrival),
                    withoutSuffix(message, DEADLINE_EXCEEDED)); // the constructor adds it again
            case PAYMENT_DECLINED -> new PaymentDeclinedException(s, i, problem(s, i));
            case REPLY_LOST -> new PaymentReplyLostException(s, i, problem(s, i));
            case PERMANENT_REFUSAL -> new PermanentDeliveryException(s, i, withoutPrefix(problem(s, i), "permanent: "));
            case DOWNSTREAM_ERROR -> new DownstreamException(s, i, problem(s, i));
            case IDEMPOTENCY_KEY_CONFLICT -> new IdempotencyKeyConflictException(idempotencyKey, message);
            case ILLEGAL_ARGUMENT, BAD_REQUEST, BODY_TOO_LARGE -> new IllegalArgumentException(message);
            case NOT_FOUND, METHOD_NOT_ALLOWED -> new IllegalStateException(
                    "the downstream server does not serve this call (client and server of different versions?): " + message);
            case INTERNAL -> new DownstreamException(s, i, "internal error of the downstream server; whether the call took"
                    + " effect is unknown: " + message);
        };
    }

    /**
     * @param status the HTTP status it came with
     * @param body   the body, parsed; {@code null} or not an error body: the status alone says what it is
     * @return the error an answer carries
     */
    static WireError read(int status, JsonNode body) {
        String kind = text(body, "error");
        if (kind == null || Kind.ofWireName(kind).isEmpty()) {
            Kind byStatus = Kind.ofStatus(status);
            return refusal(byStatus, "HTTP " + status + (body == null ? "" : ": " + body));
        }
        JsonNode index = body.get("callIndex");
        JsonNode passed = body.get("passedOnArrival");
        return new WireError(kind, String.valueOf(text(body, "message")), text(body, "stub"),
                index != null && index.canConvertToLong() ? index.asLong() : null,
                passed != null && passed.isBoolean() ? passed.asBoolean() : null, text(body, "idempotencyKey"));
    }

    /** A {@link DownstreamException}'s message is {@code "<stub> call #<i>: <problem>"}: the problem, to rebuild it. */
    private String problem(String s, long i) {
        return withoutPrefix(message, s + " call #" + i + ": ");
    }

    private static String withoutPrefix(String text, String prefix) {
        return text.startsWith(prefix) ? text.substring(prefix.length()) : text;
    }

    private static String withoutSuffix(String text, String suffix) {
        return text.endsWith(suffix) ? text.substring(0, text.length() - suffix.length()) : text;
    }

    private static String text(JsonNode body, String field) {
        JsonNode n = body == null ? null : body.get(field);
        return n != null && n.isTextual() ? n.asText() : null;
    }

    private static String oneLine(String message) {
        String m = message == null ? "(no message)" : message.replaceAll("[\\r\\n\\t]+", " ");
        return m.length() > MAX_MESSAGE_CHARS ? m.substring(0, MAX_MESSAGE_CHARS) + "…" : m;
    }
}
