package archlab.http;

import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.request.DeadlineExceededException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The runner's side of the wire: an {@link OrderTarget} that calls an {@link OrderHttpServer} with
 * {@link HttpClient} (HTTP/1.1, keep-alive connections the client pools; a request that finds none idle opens one).
 *
 * <p>The request's deadline travels both ways: its remaining time, rounded up to whole milliseconds and at most
 * {@value OrderServlet#MAX_DEADLINE_MS}, goes in {@value OrderServlet#DEADLINE_HEADER}, and the client stops waiting
 * for the answer when it passes ({@link DeadlineExceededException}). A deadline already passed sends nothing. Answers
 * map back: 2xx returns; 429 throws {@link RequestRejectedException} with the server's {@code Retry-After}; 504 throws
 * {@link DeadlineExceededException}; any other status {@link HttpStatusException}.
 *
 * <p>Thread-safety: safe from many threads (the JDK's client is).
 */
public final class HttpOrderTarget implements OrderTarget, AutoCloseable {

    /** The header every request carries its remaining deadline in, whole milliseconds (the server's {@code X-Deadline-Ms}). */
    public static final String DEADLINE_HEADER = OrderServlet.DEADLINE_HEADER;

    private final URI base;
    private final ExecutorService callbacks = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;

    /** @param base the server's {@code http://127.0.0.1:PORT} */
    public HttpOrderTarget(URI base) {
        this.base = base;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(callbacks).build();
    }

    /** @return the server this client calls, {@code http://host:port} */
    public URI baseUri() {
        return base;
    }

    @Override
    public String create(RequestContext ctx) throws Exception {
        String body = "{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}";
        JsonNode answer = call(ctx, "create", "/orders", HttpRequest.BodyPublishers.ofString(body));
        JsonNode id = answer.get("id");
        if (id == null || !id.isTextual()) {
            throw new IOException("create answered without an id: " + answer);
        }
        return id.asText();
    }

    @Override
    public void get(RequestContext ctx, String orderId) throws Exception {
        call(ctx, "get", "/orders/" + orderId, null);
    }

    @Override
    public void pay(RequestContext ctx, String orderId) throws Exception {
        call(ctx, "pay", "/orders/" + orderId + "/pay", HttpRequest.BodyPublishers.noBody());
    }

    /**
     * {@code GET /noop}: the server answers 204 without calling the service. Deadline handling as for the orders.
     *
     * @throws HttpStatusException for any status but 204
     */
    public void noop(RequestContext ctx) throws Exception {
        call(ctx, "noop", OrderServlet.NOOP_PATH, null);
    }

    /** POSTs {@code body} to {@code path} (GETs when null) with the deadline; returns the answer's JSON or throws. */
    private JsonNode call(RequestContext ctx, String op, String path, HttpRequest.BodyPublisher body) throws Exception {
        long remaining = ctx.remainingNanos();
        if (remaining <= 0) {
            throw new DeadlineExceededException("http " + op + " (not sent)");
        }
        long maxNanos = OrderServlet.MAX_DEADLINE_MS * 1_000_000L;
        long waitNanos = Math.min(remaining, maxNanos);
        long headerMs = Math.max(1, (waitNanos + 999_999) / 1_000_000);
        // the client's timer works in whole milliseconds and may fire a little early: one more millisecond, so that it
        // never gives up before the deadline (the runner counts a request ended before its deadline as failed)
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMillis(headerMs + 1))
                .header(OrderServlet.DEADLINE_HEADER, Long.toString(headerMs));
        HttpRequest request = body == null ? b.GET().build()
                : b.header("Content-Type", "application/json").POST(body).build();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new DeadlineExceededException("http " + op + " (no answer in time)");
        }
        int status = response.statusCode();
        JsonNode json = response.body().length == 0 ? OrderServlet.JSON.nullNode() : OrderServlet.JSON.readTree(response.body());
        if (status / 100 == 2) {
            return json;
        }
        String error = json.path("error").asText("status " + status);
        if (status == 429) {
            long seconds = response.headers().firstValueAsLong("Retry-After").orElse(0);
            throw new RequestRejectedException("http " + op + ": " + error, Duration.ofSeconds(Math.max(0, seconds)));
        }
        if (status == 504) {
            throw new DeadlineExceededException("http " + op + ": " + error);
        }
        throw new HttpStatusException(status, error);
    }

    /** Closes the client's connections. */
    @Override
    public void close() {
        client.close();
        callbacks.close();
    }
}
