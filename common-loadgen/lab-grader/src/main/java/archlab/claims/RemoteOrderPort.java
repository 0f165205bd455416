package archlab.claims;

import archlab.claims.OrderPortException.Kind;
import archlab.request.DeadlineExceededException;
import archlab.request.PoolExhaustedException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The grader's side of the wire to a {@link SolutionServer}: one service opened in the student's process, as an
 * {@link OrderPort}. Whatever the process answers is only data: a view is read field by field, an error by its kind;
 * an answer that is not the wire's JSON, larger than {@value #MAX_ANSWER_BYTES} bytes, or not there in time is
 * {@link Kind#FAILED} with the reason, never an exception of another type. A call waits for its answer at most the
 * request's remaining deadline plus {@link #GRACE} (a solution that answers late is measured late, one that never
 * answers fails), and {@link #UNTIMED} for the calls without a deadline.
 *
 * <p>Thread-safety: safe from many threads; the {@link HttpClient} is the attempt's, shared by its ports.
 */
final class RemoteOrderPort implements OrderPort {

    /** How long past the request's deadline a call still waits for the answer. */
    static final Duration GRACE = Duration.ofSeconds(5);
    /** How long {@code open}, {@code isPaid} and {@code close} wait. */
    static final Duration UNTIMED = Duration.ofSeconds(30);
    static final int MAX_ANSWER_BYTES = 64 * 1024;
    /** A deadline this far away or more is none (a setup call's): the service gets a context without one. */
    static final Duration NO_DEADLINE = Duration.ofDays(1);

    private final HttpClient client;
    private final URI call;
    private final int service;
    private final Supplier<String> processState;
    private final Runnable onClose;

    private RemoteOrderPort(HttpClient client, URI call, int service, Supplier<String> processState, Runnable onClose) {
        this.client = client;
        this.call = call;
        this.service = service;
        this.processState = processState;
        this.onClose = onClose;
    }

    /**
     * Opens a fresh service in the student's process over the stubs served at {@code downstream}.
     *
     * @param processState what to say about the process when it does not answer (e.g. "it ended with exit code 1")
     * @param onClose      run after the service was closed (stops the stubs' server)
     * @throws OrderPortException {@link Kind#FAILED} when the process did not open one
     */
    static RemoteOrderPort open(HttpClient client, URI base, URI downstream, Supplier<String> processState, Runnable onClose) {
        URI call = base.resolve("/call");
        ObjectNode body = SolutionServer.JSON.createObjectNode().put("op", SolutionServer.OPEN).put("downstream", downstream.toString());
        JsonNode answer = send(client, call, body, UNTIMED, processState);
        JsonNode id = answer.get("service");
        if (id == null || !id.isInt()) {
            throw failed("the solution's process did not open a service: " + shorten(answer.toString()), null);
        }
        return new RemoteOrderPort(client, call, id.asInt(), processState, onClose);
    }

    @Override
    public OrderView create(RequestContext ctx, String customerId, List<Line> lines) {
        ObjectNode body = op("create", ctx).put("customer", customerId);
        if (lines != null) {
            ArrayNode array = body.putArray("lines");
            lines.forEach(l -> {
                if (l == null) {
                    array.addNull();
                } else {
                    array.addObject().put("sku", l.sku()).put("quantity", l.quantity()).put("unitPriceCents", l.unitPriceCents());
                }
            });
        }
        return view(ctx, body);
    }

    @Override
    public OrderView get(RequestContext ctx, String orderId) {
        return view(ctx, op("get", ctx).put("id", orderId));
    }

    @Override
    public OrderView pay(RequestContext ctx, String orderId) {
        return view(ctx, op("pay", ctx).put("id", orderId));
    }

    @Override
    public boolean isPaid(String orderId) {
        JsonNode answer = answered(send(client, call, op("isPaid", null).put("id", orderId), UNTIMED, processState));
        JsonNode paid = answer.get("paid");
        if (paid == null || !paid.isBoolean()) {
            throw failed("isPaid answered " + shorten(answer.toString()), null);
        }
        return paid.asBoolean();
    }

    /**
     * The wire's own round trip at a concurrency: {@code rounds} rounds of {@code concurrent} simultaneous
     * {@link SolutionServer#PING} calls, which the harness's server answers without the solution (the first round also
     * opens the connections the calls after it reuse).
     *
     * @return the slowest round trip after the first round, in nanoseconds; the first round's if there is only one
     */
    long wireRoundTripNanos(int concurrent, int rounds) {
        long slowest = 0;
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int round = 1; round <= rounds; round++) {
                List<Future<Long>> trips = new ArrayList<>();
                for (int i = 0; i < concurrent; i++) {
                    trips.add(threads.submit(() -> {
                        long start = System.nanoTime();
                        answered(send(client, call, SolutionServer.JSON.createObjectNode().put("op", SolutionServer.PING), UNTIMED, processState));
                        return System.nanoTime() - start;
                    }));
                }
                long worst = 0;
                for (Future<Long> trip : trips) {
                    try {
                        worst = Math.max(worst, trip.get());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw failed("interrupted", e);
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof OrderPortException ope ? ope : failed("a ping failed: " + e.getCause(), null);
                    }
                }
                if (round > 1 || rounds == 1) {
                    slowest = Math.max(slowest, worst);
                }
            }
        }
        return slowest;
    }

    @Override
    public void close() {
        try {
            send(client, call, op("close", null), UNTIMED, processState);
        } catch (OrderPortException e) {
            // a process that cannot close its service is stopped with its attempt
        } finally {
            onClose.run();
        }
    }

    private ObjectNode op(String op, RequestContext ctx) {
        ObjectNode body = SolutionServer.JSON.createObjectNode().put("op", op).put("service", service);
        if (ctx != null && ctx.remainingNanos() >= NO_DEADLINE.toNanos()) {
            body.put("noDeadline", true);
        } else if (ctx != null) {
            body.put("remainingNanos", ctx.remainingNanos());
        }
        return body;
    }

    private OrderView view(RequestContext ctx, ObjectNode body) {
        long remaining = Math.max(0, ctx.remainingNanos());
        Duration wait = remaining >= NO_DEADLINE.toNanos() ? UNTIMED : Duration.ofNanos(remaining).plus(GRACE);
        JsonNode answer = answered(send(client, call, body, wait, processState));
        JsonNode v = answer.get("view");
        if (v == null || !v.path("id").isTextual() || !v.path("status").isTextual() || !v.path("totalCents").canConvertToLong()
                || !v.path("version").canConvertToInt()) {
            throw failed("answered something that is not an order: " + shorten(answer.toString()), null);
        }
        return new OrderView(v.get("id").asText(), v.get("status").asText(), v.get("totalCents").asLong(), v.get("version").asInt());
    }

    /** @return the answer, or throws the error it carries as the port's exception (its cause the runner's type) */
    private static JsonNode answered(JsonNode answer) {
        JsonNode error = answer.get("error");
        if (error == null) {
            return answer;
        }
        Kind kind;
        try {
            kind = Kind.valueOf(error.path("kind").asText());
        } catch (IllegalArgumentException e) {
            throw failed("answered an error of no kind the port knows: " + shorten(error.toString()), null);
        }
        String message = shorten(error.path("message").asText(""));
        RuntimeException cause;
        if (error.has("rejectedRetryAfterNanos")) {
            cause = new RequestRejectedException(message, Duration.ofNanos(Math.max(0, error.get("rejectedRetryAfterNanos").asLong())));
        } else if (error.path("poolExhausted").asBoolean(false)) {
            cause = new PoolExhaustedException(message);
        } else {
            cause = new SolutionAnswer(message);
        }
        throw new OrderPortException(kind, cause);
    }

    private static JsonNode send(HttpClient client, URI call, ObjectNode body, Duration wait, Supplier<String> processState) {
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(call).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(SolutionServer.JSON.writeValueAsBytes(body))).build();
        } catch (IOException e) {
            throw failed("cannot encode the call", e);
        }
        CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request, info -> new CappedBody());
        HttpResponse<byte[]> response;
        try {
            response = answer.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw failed("the solution's process did not answer within " + wait.toMillis() + " ms (" + processState.get() + ")",
                    new DeadlineExceededException("no answer from the solution's process"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer.cancel(true);
            throw failed("interrupted", e);
        } catch (ExecutionException e) {
            throw failed("the solution's process could not be reached (" + processState.get() + "): " + e.getCause(), null);
        }
        byte[] bytes = response.body();
        if (bytes.length > MAX_ANSWER_BYTES) {
            throw failed("the solution's process answered more than " + MAX_ANSWER_BYTES + " bytes", null);
        }
        JsonNode json;
        try {
            json = SolutionServer.JSON.readTree(bytes);
        } catch (IOException e) {
            json = null;
        }
        if (json == null || !json.isObject()) {
            throw failed("the solution's process answered garbage (status " + response.statusCode() + ")", null);
        }
        if (response.statusCode() != 200) {
            throw failed("the solution's process refused the call (status " + response.statusCode() + "): "
                    + shorten(json.path("error").path("message").asText("")), null);
        }
        return json;
    }

    private static OrderPortException failed(String why, Throwable cause) {
        return new OrderPortException(Kind.FAILED, cause == null ? new SolutionAnswer(why) : new SolutionAnswer(why + " (" + cause + ")"));
    }

    private static String shorten(String s) {
        String clean = s.replaceAll("[^\\x20-\\x7e]", "?");
        return clean.length() > 300 ? clean.substring(0, 300) + "…" : clean;
    }

    /**
     * An answer's body, read up to {@link #MAX_ANSWER_BYTES} + 1 bytes: past that the read stops (the rest is never
     * held in memory) and the body completes at once with what it read, which the caller refuses by its length. A
     * process that streams without end cannot fill the grader's heap nor keep the call waiting.
     */
    private static final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final java.io.ByteArrayOutputStream read = new java.io.ByteArrayOutputStream();
        private java.util.concurrent.Flow.Subscription subscription;

        @Override
        public java.util.concurrent.CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> items) {
            for (java.nio.ByteBuffer b : items) {
                int n = Math.min(b.remaining(), MAX_ANSWER_BYTES + 1 - read.size());
                byte[] chunk = new byte[n];
                b.get(chunk);
                read.write(chunk, 0, n);
            }
            if (read.size() > MAX_ANSWER_BYTES && !body.isDone()) {
                subscription.cancel();
                body.complete(read.toByteArray());
            }
        }

        @Override
        public void onError(Throwable t) {
            body.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            body.complete(read.toByteArray());
        }
    }

    /** What the student's process said (or failed to say), as the cause of a port's exception: a message, no stack. */
    static final class SolutionAnswer extends RuntimeException {
        SolutionAnswer(String message) {
            super(message, null, false, false);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
