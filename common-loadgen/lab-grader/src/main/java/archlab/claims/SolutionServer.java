package archlab.claims;

import archlab.clock.NanoClock;
import archlab.downstream.Downstream;
import archlab.downstream.remote.DownstreamServer;
import archlab.downstream.remote.RemoteDownstream;
import archlab.loopback.LoopbackTomcat;
import archlab.request.PoolExhaustedException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The student's process: the solution's {@code archlab.order.GradedCheckpoint} served on 127.0.0.1, so that the
 * grader, in another process, reaches it only over the wire. Started by {@link SolutionProcess}; nothing here judges
 * anything, and nothing the solution does in this JVM — reflection, statics, threads, class loaders — can reach the
 * claims, the stubs' books or the scorecard, which live only in the grader's process.
 *
 * <p>The wire is one endpoint, {@code POST /call}, with a JSON body naming the operation ({@link #OPEN}: a fresh
 * service over the downstream stubs served at the given loopback address; {@code create}, {@code get}, {@code pay}
 * with the request's remaining deadline in nanoseconds; {@code isPaid}; {@code close}) and a JSON answer: the order's
 * view, {@code paid}, or {@code error} with the {@link OrderPortException.Kind} and, for the two kinds the load
 * runner tells apart, the cause ({@code rejected} with its retry-after, {@code poolExhausted}). A malformed call is a
 * 400 with a one-line error; nothing ever writes a stack trace.
 *
 * <p>First line on stdout: {@code solution serving http://127.0.0.1:PORT pid=N} ({@link #SERVING_LINE}). The process
 * exits ({@value #EXIT_PARENT_GONE}) when its stdin ends: the grader holds it open while it lives.
 */
public final class SolutionServer {

    /** The serving line, as a regular expression: group 1 the base URI, 2 the port, 3 the pid. */
    public static final String SERVING_LINE = "^solution serving (http://127\\.0\\.0\\.1:(\\d{1,5})) pid=(\\d{1,10})$";
    /** The pid of the grader's process, for the record (the process ends when its stdin does). */
    static final String PARENT_PROPERTY = "archlab.solution.parent";
    /** The exit code when the grader's end closed this process's stdin. */
    static final int EXIT_PARENT_GONE = 90;
    /** The adapter's binary name; default {@value #DEFAULT_ADAPTER}. */
    static final String ADAPTER_PROPERTY = "archlab.solution.adapter";
    static final String DEFAULT_ADAPTER = "archlab.order.GradedCheckpoint";
    /** The call the harness answers itself, without the solution: the wire's own round trip. */
    static final String PING = "ping";
    static final String OPEN = "open";
    /** The largest call body read. */
    static final int MAX_BODY_BYTES = 64 * 1024;
    static final ObjectMapper JSON = new ObjectMapper();
    static final int WARM_UP_CALLS = 1500;
    static final int WARM_UP_THREADS = 4;
    static final Duration WARM_UP_TIME = Duration.ofMillis(1500);

    private SolutionServer() {
    }

    public static void main(String[] args) throws Exception {
        // the grader holds this process's stdin open while it lives: its end (the grader's exit, even by SIGKILL) ends
        // this process too. A pipe works across users, where watching another uid's pid does not.
        Thread.ofPlatform().daemon().name("solution-parent-watch").start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the grader never writes
                }
            } catch (IOException e) {
                // the pipe broke: the same
            }
            Runtime.getRuntime().halt(EXIT_PARENT_GONE);
        });
        Checkpoint adapter = adapter(System.getProperty(ADAPTER_PROPERTY, DEFAULT_ADAPTER));
        LoopbackTomcat tomcat = LoopbackTomcat.serving(new CallServlet(adapter), (status, message) -> Map.of("error",
                        Map.of("kind", "WIRE", "message", message), "status", status))
                .executor(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("solution-", 0).factory()))
                .acceptCount(2048).keepAliveTimeout(Duration.ofSeconds(120)).unlimitedKeepAliveRequests().start();
        warmUp(tomcat.baseUri());
        System.out.println("solution serving " + tomcat.baseUri() + " pid=" + ProcessHandle.current().pid());
        System.out.flush();
        Thread.currentThread().join(); // until killed, or the grader ends
    }

    /**
     * Warms the process as a service is warmed before it takes traffic: at most {@link #WARM_UP_CALLS} create, get and
     * pay calls (or {@link #WARM_UP_TIME}) through its own wire, on a scratch service over instant stubs served in this
     * process, closed after. The claims then meet compiled code on both sides of the wire, as they did when the
     * solution ran in the grader's warm JVM; what the solution does on these calls counts for nothing.
     */
    private static void warmUp(URI self) {
        long end = System.nanoTime() + WARM_UP_TIME.toNanos();
        Downstream stubs = Downstream.instant();
        try (DownstreamServer server = DownstreamServer.start(stubs);
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            RemoteOrderPort port = RemoteOrderPort.open(client, self, server.baseUri(), () -> "warming up", () -> { });
            List<OrderPort.Line> line = List.of(new OrderPort.Line("warm-up", 1, 100));
            AtomicInteger calls = new AtomicInteger();
            try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < WARM_UP_THREADS; t++) {
                    threads.submit(() -> {
                        while (calls.incrementAndGet() <= WARM_UP_CALLS && System.nanoTime() < end) {
                            try {
                                String id = port.create(RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(1)), "warm-up", line).id();
                                port.get(RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(1)), id);
                                port.pay(RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(1)), id);
                            } catch (OrderPortException e) {
                                // a refusal warms as well as an answer
                            }
                        }
                    });
                }
            }
            port.close();
        } catch (RuntimeException e) {
            // a solution that cannot be warmed is judged cold
        }
    }

    private static Checkpoint adapter(String name) throws ReflectiveOperationException {
        var constructor = Class.forName(name).getDeclaredConstructor();
        constructor.setAccessible(true);
        return (Checkpoint) constructor.newInstance();
    }

    /** {@code POST /call}: one operation on one of the services opened here. Called from many threads. */
    private static final class CallServlet extends HttpServlet {
        private final transient Checkpoint adapter;
        private final transient Map<Integer, OrderPort> services = new ConcurrentHashMap<>();
        private final transient AtomicInteger ids = new AtomicInteger();

        CallServlet(Checkpoint adapter) {
            this.adapter = adapter;
        }

        @Override
        protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            if (!req.getMethod().equals("POST") || !req.getRequestURI().equals("/call")) {
                write(resp, 404, Map.of("error", Map.of("kind", "WIRE", "message", "only POST /call")));
                return;
            }
            JsonNode call;
            try (InputStream in = req.getInputStream()) {
                byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
                call = body.length > MAX_BODY_BYTES ? null : JSON.readTree(body);
            } catch (IOException e) {
                call = null;
            }
            if (call == null || !call.isObject() || !call.path("op").isTextual()) {
                write(resp, 400, Map.of("error", Map.of("kind", "WIRE", "message", "a call is a JSON object with an 'op'")));
                return;
            }
            try {
                write(resp, 200, answer(call));
            } catch (OrderPortException e) {
                write(resp, 200, Map.of("error", error(e)));
            } catch (IllegalArgumentException e) {
                write(resp, 400, Map.of("error", Map.of("kind", "WIRE", "message", String.valueOf(e.getMessage()))));
            } catch (RuntimeException | Error e) {
                // not an answer the adapter classified: the solution failed in a way of its own
                write(resp, 200, Map.of("error", Map.of("kind", OrderPortException.Kind.FAILED.name(), "message", String.valueOf(e))));
            }
        }

        private Object answer(JsonNode call) {
            String op = call.get("op").asText();
            if (op.equals(PING)) {
                // answered here, never by the solution: what the wire alone takes (HardeningClaims allows for it)
                return Map.of("pong", true);
            }
            if (op.equals(OPEN)) {
                URI downstream = URI.create(call.path("downstream").asText(""));
                if (!"127.0.0.1".equals(downstream.getHost())) {
                    throw new IllegalArgumentException("the downstream must be on 127.0.0.1");
                }
                RemoteDownstream remote = RemoteDownstream.connect(downstream);
                int id = ids.incrementAndGet();
                services.put(id, adapter.open(remote.inventory(), remote.payments(), remote.notifier()));
                return Map.of("service", id);
            }
            OrderPort port = services.get(call.path("service").asInt(-1));
            if (port == null) {
                throw new IllegalArgumentException("no open service " + call.path("service"));
            }
            return switch (op) {
                case "create" -> view(port.create(context(call), text(call, "customer"), lines(call.get("lines"))));
                case "get" -> view(port.get(context(call), text(call, "id")));
                case "pay" -> view(port.pay(context(call), text(call, "id")));
                case "isPaid" -> Map.of("paid", port.isPaid(text(call, "id")));
                case "close" -> {
                    services.remove(call.path("service").asInt());
                    port.close();
                    yield Map.of("closed", true);
                }
                default -> throw new IllegalArgumentException("unknown op '" + op + "'");
            };
        }

        private static RequestContext context(JsonNode call) {
            if (call.path("noDeadline").asBoolean(false)) {
                return RequestContext.background();
            }
            long remaining = call.path("remainingNanos").asLong(0);
            return RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofNanos(Math.max(1, remaining)));
        }

        private static String text(JsonNode call, String field) {
            JsonNode v = call.get(field);
            return v == null || v.isNull() ? null : v.asText();
        }

        private static List<OrderPort.Line> lines(JsonNode lines) {
            if (lines == null || lines.isNull()) {
                return null;
            }
            List<OrderPort.Line> out = new ArrayList<>();
            for (JsonNode l : lines) {
                out.add(l.isNull() ? null : new OrderPort.Line(text(l, "sku"), l.path("quantity").asInt(), l.path("unitPriceCents").asLong()));
            }
            return out;
        }

        private static Object view(OrderPort.OrderView v) {
            ObjectNode view = JSON.createObjectNode();
            view.put("id", v.id()).put("status", v.status()).put("totalCents", v.totalCents()).put("version", v.version());
            return Map.of("view", view);
        }

        private static ObjectNode error(OrderPortException e) {
            Throwable cause = e.getCause();
            ObjectNode error = JSON.createObjectNode();
            error.put("kind", e.kind().name()).put("message", String.valueOf(cause == null ? e.getMessage() : cause.toString()));
            if (cause instanceof RequestRejectedException r) {
                error.put("rejectedRetryAfterNanos", r.retryAfter() == null ? 0 : r.retryAfter().toNanos());
            } else if (cause instanceof PoolExhaustedException) {
                error.put("poolExhausted", true);
            }
            return error;
        }

        private static void write(HttpServletResponse resp, int status, Object body) throws IOException {
            byte[] bytes = JSON.writeValueAsBytes(body);
            resp.setStatus(status);
            resp.setContentType("application/json");
            resp.setContentLength(bytes.length);
            resp.getOutputStream().write(bytes);
        }
    }
}
