package archlab.downstream.remote;

import archlab.clock.NanoClock;
import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.Inventory;
import archlab.downstream.InventoryStub;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.NotifierStub;
import archlab.downstream.Payments;
import archlab.downstream.PaymentsStub;
import archlab.request.Deadline;
import archlab.request.RequestContext;
import archlab.trace.Trace;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The endpoints of {@link DownstreamWire} over three ports. A request is checked whole before its port is called: a
 * malformed one (not a JSON object, an unknown field, a field of the wrong type, a missing or malformed deadline
 * header, a body over {@value DownstreamWire#MAX_BODY_BYTES} bytes, an unknown path or method) is refused with a 4xx
 * {@link WireError} and calls nothing. Text fields that are missing or {@code null} reach the port as {@code null},
 * so the stub's own check refuses them (400 {@code illegal_argument}, nothing changed), in the stub's own words.
 *
 * <p>The deadline: the call runs with a {@link RequestContext} whose deadline is the header's nanoseconds from when
 * the servlet took the request up, on the system clock, without a trace.
 *
 * <p>Thread-safety: stateless apart from the ports, which are called from many server threads at once.
 */
final class DownstreamServlet extends HttpServlet {

    private static final System.Logger LOG = System.getLogger(DownstreamServlet.class.getName());
    private static final Pattern SIGNED_LONG = Pattern.compile("[+-]?\\d{1,19}");

    /** A refusal of the request's own input: answered before any port is called. */
    private static final class Refused extends Exception {
        final transient WireError error;

        Refused(WireError.Kind kind, String message) {
            super(message, null, false, false);
            this.error = WireError.refusal(kind, message);
        }
    }

    /** One endpoint: its method and what it does with the request. */
    private record Endpoint(String method, String stub, Handler handler) {
    }

    @FunctionalInterface
    private interface Handler {
        /** @return the answer's body, or {@code null} for 204 */
        Object handle(HttpServletRequest req, long arrivedNanos) throws Refused, IOException;
    }

    private final transient Map<String, Endpoint> endpoints;

    DownstreamServlet(Inventory inventory, Payments payments, Notifier notifier) {
        Map<String, Endpoint> m = new HashMap<>();
        m.put(DownstreamWire.RESERVE, new Endpoint("POST", InventoryStub.NAME, (req, arrived) -> {
            JsonNode b = body(req, Set.of("sku", "quantity"));
            inventory.reserve(context(req, arrived), text(b, "sku"), quantity(b));
            return null;
        }));
        m.put(DownstreamWire.RELEASE, new Endpoint("POST", InventoryStub.NAME, (req, arrived) -> {
            JsonNode b = body(req, Set.of("sku", "quantity"));
            inventory.release(context(req, arrived), text(b, "sku"), quantity(b));
            return null;
        }));
        m.put(DownstreamWire.KEYED_RESERVE, new Endpoint("POST", InventoryStub.NAME, (req, arrived) -> {
            JsonNode b = body(req, Set.of("reservationKey", "sku", "quantity"));
            inventory.reserve(context(req, arrived), text(b, "reservationKey"), text(b, "sku"), quantity(b));
            return null;
        }));
        m.put(DownstreamWire.KEYED_RELEASE, new Endpoint("POST", InventoryStub.NAME, (req, arrived) -> {
            JsonNode b = body(req, Set.of("reservationKey"));
            inventory.release(context(req, arrived), text(b, "reservationKey"));
            return null;
        }));
        m.put(DownstreamWire.CHARGE, new Endpoint("POST", PaymentsStub.NAME, (req, arrived) -> {
            JsonNode b = body(req, Set.of("orderId", "amountCents", "idempotencyKey"));
            RequestContext ctx = context(req, arrived);
            // the record checks its own fields: a blank order id or a non-positive amount is an IllegalArgumentException
            return payments.charge(ctx, new ChargeRequest(text(b, "orderId"), wholeNumber(b, "amountCents"),
                    text(b, "idempotencyKey")));
        }));
        m.put(DownstreamWire.FIND_CHARGE, new Endpoint("GET", PaymentsStub.NAME, (req, arrived) -> {
            Optional<ChargeResult> charge = payments.findByIdempotencyKey(req.getParameter("idempotencyKey"));
            return Collections.singletonMap("charge", charge.orElse(null));
        }));
        m.put(DownstreamWire.NOTIFY, new Endpoint("POST", NotifierStub.NAME, (req, arrived) -> {
            JsonNode b = body(req, Set.of("messageId", "orderId"));
            RequestContext ctx = context(req, arrived);
            notifier.notify(ctx, new Notification(text(b, "messageId"), text(b, "orderId")));
            return null;
        }));
        this.endpoints = Map.copyOf(m);
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long arrived = NanoClock.SYSTEM.nanoTime();
        Endpoint endpoint = endpoints.get(req.getRequestURI());
        try {
            if (endpoint == null) {
                throw new Refused(WireError.Kind.NOT_FOUND, "no such resource; the endpoints are "
                        + endpoints.keySet().stream().sorted().toList());
            }
            if (!endpoint.method().equals(req.getMethod())) {
                resp.setHeader("Allow", endpoint.method());
                throw new Refused(WireError.Kind.METHOD_NOT_ALLOWED, "method " + shorten(req.getMethod()) + " not allowed on "
                        + req.getRequestURI() + "; allowed: " + endpoint.method());
            }
            Object answer = endpoint.handler().handle(req, arrived);
            if (answer == null) {
                resp.setStatus(HttpServletResponse.SC_NO_CONTENT);
            } else {
                write(resp, 200, answer);
            }
        } catch (Refused e) {
            write(resp, e.error.status(), e.error);
        } catch (RuntimeException e) {
            Optional<WireError> error = WireError.of(e, endpoint == null ? "downstream" : endpoint.stub());
            if (error.isEmpty()) {
                LOG.log(System.Logger.Level.WARNING, "downstream server: " + req.getMethod() + " " + req.getRequestURI()
                        + " failed; answered 500 internal", e);
            }
            WireError answer = error.orElseGet(() -> WireError.refusal(WireError.Kind.INTERNAL, "internal error"));
            write(resp, answer.status(), answer);
        }
    }

    /** The call's context: the header's remaining nanoseconds from its arrival, the system clock, no trace. */
    private static RequestContext context(HttpServletRequest req, long arrived) throws Refused {
        String v = req.getHeader(DownstreamWire.DEADLINE_HEADER);
        if (v == null) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "header " + DownstreamWire.DEADLINE_HEADER
                    + " is required: the caller's remaining deadline in nanoseconds");
        }
        long remaining;
        try {
            if (!SIGNED_LONG.matcher(v.trim()).matches()) {
                throw new NumberFormatException(v);
            }
            remaining = Long.parseLong(v.trim());
        } catch (NumberFormatException notALong) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "header " + DownstreamWire.DEADLINE_HEADER
                    + " must be whole nanoseconds (a signed 64-bit number), was '" + shorten(v) + "'");
        }
        // zero or less: the deadline had passed when the call arrived, and the stub says so (nothing happens)
        Deadline deadline = Deadline.after(() -> arrived, Duration.ofNanos(Math.max(0, remaining)));
        return new RequestContext(0, arrived, deadline, NanoClock.SYSTEM, Trace.OFF);
    }

    /** Reads the body (at most {@link DownstreamWire#MAX_BODY_BYTES}): a JSON object with no field but {@code allowed}. */
    private static JsonNode body(HttpServletRequest req, Set<String> allowed) throws Refused, IOException {
        if (req.getContentLengthLong() > DownstreamWire.MAX_BODY_BYTES) {
            throw new Refused(WireError.Kind.BODY_TOO_LARGE, "body over " + DownstreamWire.MAX_BODY_BYTES + " bytes");
        }
        byte[] bytes;
        try (InputStream in = req.getInputStream()) {
            bytes = in.readNBytes(DownstreamWire.MAX_BODY_BYTES + 1);
        }
        if (bytes.length > DownstreamWire.MAX_BODY_BYTES) {
            throw new Refused(WireError.Kind.BODY_TOO_LARGE, "body over " + DownstreamWire.MAX_BODY_BYTES + " bytes");
        }
        JsonNode node;
        try {
            node = DownstreamWire.JSON.readTree(bytes);
        } catch (JacksonException e) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "body must be a JSON object with the fields " + allowed);
        }
        for (String field : (Iterable<String>) node::fieldNames) {
            if (!allowed.contains(field)) {
                throw new Refused(WireError.Kind.BAD_REQUEST, "unknown field '" + shorten(field) + "'; the fields are "
                        + allowed);
            }
        }
        return node;
    }

    /** @return the field's text; {@code null} if missing or null (the port's own check refuses it) */
    private static String text(JsonNode body, String field) throws Refused {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "field '" + field + "' must be a string");
        }
        return n.asText();
    }

    private static int quantity(JsonNode body) throws Refused {
        long q = wholeNumber(body, "quantity");
        if (q < Integer.MIN_VALUE || q > Integer.MAX_VALUE) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "field 'quantity' must be a 32-bit whole number, was " + q);
        }
        return (int) q;
    }

    private static long wholeNumber(JsonNode body, String field) throws Refused {
        JsonNode n = body.get(field);
        if (n == null || !n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new Refused(WireError.Kind.BAD_REQUEST, "field '" + field + "' is required: a whole number");
        }
        return n.asLong();
    }

    private static void write(HttpServletResponse resp, int status, Object body) throws IOException {
        if (resp.isCommitted()) {
            return; // the connection is gone or the answer is out: nothing more to say
        }
        byte[] bytes = DownstreamWire.JSON.writeValueAsBytes(body);
        resp.resetBuffer();
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    private static String shorten(String v) {
        String s = v.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 32 ? s.substring(0, 32) + "…" : s;
    }
}
