package archlab.http;

import archlab.clock.NanoClock;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.request.Deadline;
import archlab.request.RequestContext;
import archlab.trace.Trace;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON endpoints in front of one {@link OrderTarget}:
 * <ul>
 *   <li>{@code POST /orders} with {@code {"customer": "cust"}} → 201 {@code {"id": "..."}} (the port creates the book's
 *       order, one item, for the book's customer: any other customer is a 400);</li>
 *   <li>{@code GET /orders/{id}} → 200 {@code {"id": "...", "status": "PAID", "totalCents": 1999, "version": 1}}, the
 *       order as the service knows it, when the port says it ({@link OrderTarget#order}); else {@code {"id": "..."}},
 *       with {@code "status"} when the port says that much ({@link OrderTarget#status});</li>
 *   <li>{@code POST /orders/{id}/pay} → 200 {@code {"id": "...", "paid": true}};</li>
 *   <li>{@code GET }{@value #NOOP_PATH} → 204, no body, no deadline needed: the server's own cost of a request, for
 *       measuring a load generator against the peer ({@code archlab.run.GeneratorCapacity}); the port is not called.</li>
 * </ul>
 * Every request carries the caller's remaining deadline in {@value #DEADLINE_HEADER}: whole milliseconds,
 * 1..{@value #MAX_DEADLINE_MS}; it becomes the {@link RequestContext}'s deadline, counted from when the request's socket
 * event was handed to the server's executor (about when its bytes arrived: the time it then waited in the server's
 * queue is the caller's time too, as in the article's incident). Missing, malformed or out of range: 400. A body over {@value #MAX_BODY_BYTES}
 * bytes: 413; a create's body that has not all arrived within the request's deadline (at most {@link #BODY_LIMIT}): 408,
 * the connection closed — it is read without holding a server thread ({@link BodyReader}); an unknown path: 404; a known path with another method: 405 with {@code Allow}. The port's exceptions
 * map through {@link HttpErrors}. Every error body is {@code {"error": "...", "status": N}}; nothing ever writes a
 * stack trace, and a request refused for its input never reaches the port.
 *
 * <p>Thread-safety: stateless apart from the port, which is called from many server threads at once.
 */
final class OrderServlet extends HttpServlet {

    /** The caller's remaining deadline, whole milliseconds. */
    static final String DEADLINE_HEADER = "X-Deadline-Ms";
    /** The longest deadline a caller may ask for: a minute. */
    static final long MAX_DEADLINE_MS = 60_000;
    /** The path answered 204 without the port: what a request costs the server and the client, and nothing else. */
    static final String NOOP_PATH = "/noop";
    /** The largest request body read: 16 KiB. */
    static final int MAX_BODY_BYTES = 16 * 1024;
    /** The longest a create's body may take to arrive, whatever the caller's deadline: 10 s. */
    static final Duration BODY_LIMIT = Duration.ofSeconds(10);

    private static final Pattern ORDER = Pattern.compile("/orders/([A-Za-z0-9._:-]{1,128})");
    private static final Pattern PAY = Pattern.compile("/orders/([A-Za-z0-9._:-]{1,128})/pay");
    private static final Pattern DIGITS = Pattern.compile("\\d{1,9}");
    /** Strict: one JSON value and nothing after it, no key twice (the last of two would win silently). */
    static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final transient OrderTarget target;

    OrderServlet(OrderTarget target) {
        this.target = target;
    }

    /** A refusal of the request's own input: answered with its status before the port is called. */
    private static final class BadRequest extends Exception {
        final int status;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getRequestURI();
        String method = req.getMethod();
        answer(resp, method, () -> {
            Matcher m;
            if (path.equals(NOOP_PATH)) {
                allow(method, "GET");
                resp.setStatus(204);
            } else if (path.equals("/orders")) {
                allow(method, "POST");
                RequestContext ctx = context(req);
                if (req.getContentLengthLong() > MAX_BODY_BYTES) {
                    throw new BadRequest(413, "body over " + MAX_BODY_BYTES + " bytes");
                }
                // the body is read without a thread while it arrives, within the request's deadline (at most BODY_LIMIT)
                Duration limit = Duration.ofNanos(Math.min(ctx.remainingNanos(), BODY_LIMIT.toNanos()));
                BodyReader.read(req, resp, limit, MAX_BODY_BYTES, (body, response) -> answer(response, method, () -> {
                    if (ctx.remainingNanos() <= 0) { // the container's time-out fires late (about once a second)
                        response.setHeader("Connection", "close");
                        throw new BadRequest(408, "the body arrived after the request's deadline");
                    }
                    if (!customerOf(body).equals(BookWorkload.CUSTOMER)) {
                        throw new BadRequest(400, "this server's port creates the book's order only: customer must be '"
                                + BookWorkload.CUSTOMER + "'");
                    }
                    write(response, 201, Map.of("id", target.create(ctx)));
                }));
            } else if ((m = ORDER.matcher(path)).matches()) {
                allow(method, "GET");
                RequestContext ctx = context(req);
                java.util.Optional<OrderTarget.OrderSnapshot> order = target.order(ctx, m.group(1));
                if (order.isPresent()) {
                    write(resp, 200, order.get());
                } else {
                    java.util.Optional<String> status = target.status(ctx, m.group(1));
                    write(resp, 200, status.isEmpty() ? Map.of("id", m.group(1)) : Map.of("id", m.group(1), "status", status.get()));
                }
            } else if ((m = PAY.matcher(path)).matches()) {
                allow(method, "POST");
                RequestContext ctx = context(req);
                target.pay(ctx, m.group(1));
                write(resp, 200, Map.of("id", m.group(1), "paid", true));
            } else {
                throw new BadRequest(404, "no such resource; try POST /orders, GET /orders/{id}, POST /orders/{id}/pay, GET " + NOOP_PATH);
            }
        });
    }

    /** One step of answering a request: it may refuse the request's input, or fail as the port fails. */
    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step}; a refusal or a failure becomes its status and a JSON error. */
    private static void answer(HttpServletResponse resp, String method, Step step) throws IOException {
        try {
            step.run();
        } catch (BadRequest e) {
            if (e.status == 405) {
                resp.setHeader("Allow", e.getMessage());
                error(resp, 405, "method " + method + " not allowed here; allowed: " + e.getMessage());
            } else {
                error(resp, e.status, e.getMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error(resp, 503, "server shutting down");
        } catch (Exception e) {
            HttpErrors.Mapped mapped = HttpErrors.of(e);
            if (mapped.retryAfter() != null) {
                resp.setHeader("Retry-After", HttpErrors.retryAfterSeconds(mapped.retryAfter()));
            }
            error(resp, mapped.status(), mapped.message());
        }
    }

    private static void allow(String method, String allowed) throws BadRequest {
        if (!method.equals(allowed)) {
            throw new BadRequest(405, allowed);
        }
    }

    /** The request's context: its deadline from the header, the system clock, no trace (the caller's stays its side). */
    private static RequestContext context(HttpServletRequest req) throws BadRequest {
        java.util.List<String> given = java.util.Collections.list(req.getHeaders(DEADLINE_HEADER));
        if (given.size() > 1) {
            throw new BadRequest(400, "header " + DEADLINE_HEADER + " given " + given.size() + " times: give it once");
        }
        String v = given.isEmpty() ? null : given.get(0);
        if (v == null) {
            throw new BadRequest(400, "header " + DEADLINE_HEADER + " is required: the caller's remaining deadline, 1.."
                    + MAX_DEADLINE_MS + " ms");
        }
        String t = v.trim();
        long ms = DIGITS.matcher(t).matches() ? Long.parseLong(t) : -1;
        if (ms < 1 || ms > MAX_DEADLINE_MS) {
            throw new BadRequest(400, "header " + DEADLINE_HEADER + " must be whole milliseconds in 1.." + MAX_DEADLINE_MS
                    + ", was '" + shorten(v) + "'");
        }
        // counted from when the request's bytes reached the server, not from now: time spent in the server's queue is
        // the caller's time too, so a request that waited past its deadline arrives at the service already expired
        long arrived = ServerExecutor.handedOverNanos(NanoClock.SYSTEM.nanoTime());
        return new RequestContext(0, arrived, Deadline.after(() -> arrived, Duration.ofMillis(ms)), NanoClock.SYSTEM, Trace.OFF);
    }

    /** @return the {@code customer} of a create's body */
    private static String customerOf(byte[] body) throws BadRequest {
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new BadRequest(400, "body is not valid JSON");
        } catch (IOException e) {
            throw new BadRequest(400, "body could not be read");
        }
        if (node == null || !node.isObject()) {
            throw new BadRequest(400, "body must be a JSON object such as {\"customer\": \"" + BookWorkload.CUSTOMER + "\"}");
        }
        JsonNode customer = node.get("customer");
        if (customer == null || !customer.isTextual()) {
            throw new BadRequest(400, "field 'customer' must be a string");
        }
        return customer.asText();
    }

    private static void write(HttpServletResponse resp, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setContentLength(bytes.length);
        resp.getOutputStream().write(bytes);
    }

    /** Writes {@code {"error": message, "status": status}}. */
    static void error(HttpServletResponse resp, int status, String message) throws IOException {
        if (!resp.isCommitted()) {
            resp.resetBuffer();
            write(resp, status, HttpErrors.body(status, message));
        }
    }

    private static String shorten(String v) {
        String s = v.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 32 ? s.substring(0, 32) + "…" : s;
    }
}
