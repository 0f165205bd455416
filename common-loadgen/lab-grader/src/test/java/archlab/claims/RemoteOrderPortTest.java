package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import archlab.claims.OrderPortException.Kind;
import archlab.loadgen.testing.FakeClock;
import archlab.loadgen.testing.MultiSecondCheck;
import archlab.request.PoolExhaustedException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The grader's side of the wire, against a fake "student process" (the JDK's own HTTP server on 127.0.0.1) that
 * answers {@code POST /call} as each case says. Whatever the process answers is data: a view is read field by field, an
 * error by its kind, and anything else — garbage, the wrong JSON, a refusal, too many bytes, no process at all — is
 * {@link Kind#FAILED} with one line saying what, never another exception and never a stack trace. A process that never
 * answers is {@link NeverAnswering}'s, with {@code -Dslow}: it costs the port's {@link RemoteOrderPort#GRACE} of 5 s.
 */
class RemoteOrderPortTest {

    static final String STATE = "it ended with exit code 137";
    static final URI DOWNSTREAM = URI.create("http://127.0.0.1:9/stubs");
    private static final int SERVICE = 7;
    private static final String OPENED = "{\"service\":" + SERVICE + "}";

    /** One call as the fake process received it. */
    record Call(String method, String path, String contentType, JsonNode body) {
    }

    /** One answer of the fake process; {@code stallAfterBody}: the body is sent chunked and never finished. */
    record Answer(int status, byte[] body, boolean stallAfterBody) {
        static Answer of(int status, String body) {
            return new Answer(status, body.getBytes(StandardCharsets.UTF_8), false);
        }

        static Answer ok(String body) {
            return of(200, body);
        }
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final FakeClock clock = new FakeClock(1_000_000_000L);
    private volatile Function<JsonNode, Answer> answers = call -> Answer.ok("{}");
    private volatile String opened = OPENED;
    private boolean stopped;
    private ExecutorService handlers;
    private HttpServer server;
    private HttpClient client;
    private URI base;

    @BeforeEach
    void startTheFakeProcess() throws IOException {
        handlers = Executors.newVirtualThreadPerTaskExecutor();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/", exchange -> {
            try (exchange) {
                byte[] in = exchange.getRequestBody().readAllBytes();
                JsonNode body = SolutionServer.JSON.readTree(in);
                calls.add(new Call(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Content-Type"), body));
                Answer a = body.path("op").asText().equals(SolutionServer.OPEN) ? Answer.ok(opened) : answers.apply(body);
                if (a == null) { // never answers
                    release.await();
                    return;
                }
                exchange.sendResponseHeaders(a.status(), a.stallAfterBody() ? 0 : a.body().length == 0 ? -1 : a.body().length);
                OutputStream out = exchange.getResponseBody();
                out.write(a.body());
                out.flush();
                if (a.stallAfterBody()) {
                    release.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        // as ServedSolution's attempt builds it
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @AfterEach
    void stopTheFakeProcess() throws InterruptedException {
        release.countDown();
        client.shutdownNow();
        stopTheServer();
        handlers.shutdownNow();
        handlers.awaitTermination(2, TimeUnit.SECONDS);
    }

    /** The process is gone: its port refuses connections. */
    private void stopTheServer() {
        if (!stopped) {
            stopped = true;
            server.stop(0);
        }
    }

    private RemoteOrderPort open() {
        return open(() -> { });
    }

    private RemoteOrderPort open(Runnable onClose) {
        return RemoteOrderPort.open(client, base, DOWNSTREAM, () -> STATE, onClose);
    }

    private RequestContext twoSeconds() {
        return RequestContext.withTimeout(clock, Duration.ofSeconds(2));
    }

    private Call last() {
        return calls.getLast();
    }

    /** A FAILED whose cause is one line of the port's own, without a stack: what the scorecard prints. */
    private static void assertOneLineFailure(OrderPortException e, String saying) {
        assertThat(e.kind()).isEqualTo(Kind.FAILED);
        assertThat(e.getCause()).isInstanceOf(RemoteOrderPort.SolutionAnswer.class);
        assertThat(e.getCause().toString()).isEqualTo(e.getCause().getMessage()).contains(saying).doesNotContain("\n", "\tat ");
        assertThat(e.getCause().getStackTrace()).isEmpty();
        assertThat(e.getMessage()).isEqualTo("FAILED: " + e.getCause().getMessage());
    }

    @Test
    @DisplayName("views round-trip: create, get and pay return the id, status, total and version the process answered; isPaid its boolean")
    void goodViewsRoundTrip() {
        RemoteOrderPort port = open();
        Call openCall = last();
        assertThat(openCall.method()).isEqualTo("POST");
        assertThat(openCall.path()).isEqualTo("/call");
        assertThat(openCall.contentType()).isEqualTo("application/json");
        assertThat(openCall.body().path("op").asText()).isEqualTo(SolutionServer.OPEN);
        assertThat(openCall.body().path("downstream").asText()).isEqualTo(DOWNSTREAM.toString());

        answers = call -> switch (call.path("op").asText()) {
            case "create" -> Answer.ok("{\"view\":{\"id\":\"o-1\",\"status\":\"CREATED\",\"totalCents\":4200000000123,\"version\":0}}");
            case "get" -> Answer.ok("{\"view\":{\"id\":\"o-1\",\"status\":\"PAYING\",\"totalCents\":4200000000123,\"version\":1}}");
            case "pay" -> Answer.ok("{\"view\":{\"id\":\"o-1\",\"status\":\"PAID\",\"totalCents\":4200000000123,\"version\":2}}");
            case "isPaid" -> Answer.ok("{\"paid\":true}");
            default -> Answer.of(400, "{}");
        };
        assertThat(port.create(twoSeconds(), "cust-9", List.of(new OrderPort.Line("sku-a", 3, 1999))))
                .isEqualTo(new OrderPort.OrderView("o-1", "CREATED", 4_200_000_000_123L, 0));
        JsonNode create = last().body();
        assertThat(create.path("op").asText()).isEqualTo("create");
        assertThat(create.path("service").asInt()).isEqualTo(SERVICE);
        assertThat(create.path("customer").asText()).isEqualTo("cust-9");
        assertThat(create.path("remainingNanos").asLong()).isEqualTo(2_000_000_000L);
        assertThat(create.has("noDeadline")).isFalse();
        JsonNode line = create.path("lines").path(0);
        assertThat(List.of(line.path("sku").asText(), line.path("quantity").asInt(), line.path("unitPriceCents").asLong()))
                .containsExactly("sku-a", 3, 1999L);

        assertThat(port.get(twoSeconds(), "o-1")).isEqualTo(new OrderPort.OrderView("o-1", "PAYING", 4_200_000_000_123L, 1));
        assertThat(last().body().path("op").asText()).isEqualTo("get");
        assertThat(last().body().path("id").asText()).isEqualTo("o-1");
        assertThat(port.pay(twoSeconds(), "o-1")).isEqualTo(new OrderPort.OrderView("o-1", "PAID", 4_200_000_000_123L, 2));
        assertThat(last().body().path("op").asText()).isEqualTo("pay");
        assertThat(port.isPaid("o-1")).isTrue();
        assertThat(last().body().path("id").asText()).isEqualTo("o-1");
        assertThat(last().body().has("remainingNanos") || last().body().has("noDeadline")).as("isPaid carries no deadline").isFalse();
    }

    @Test
    @DisplayName("the wire's round trip is measured with pings only (no service, no deadline), as many at once as asked, in each round;"
            + " it is the slowest trip after the first round, and a process that answers a ping with an error fails the measure")
    void wireRoundTripPingsOnly() {
        RemoteOrderPort port = open();
        int before = calls.size();
        answers = call -> {
            if (call.path("op").asText().equals(SolutionServer.PING)) {
                try {
                    Thread.sleep(calls.size() - before > 4 ? 30 : 0); // the second round is the slow one
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Answer.ok("{\"pong\":true}");
        };
        long nanos = port.wireRoundTripNanos(4, 2);
        List<Call> pings = calls.subList(before, calls.size());
        assertThat(pings).hasSize(8).allSatisfy(c -> {
            assertThat(c.body().path("op").asText()).isEqualTo(SolutionServer.PING);
            assertThat(c.body().has("remainingNanos")).isFalse();
        });
        assertThat(nanos).as("the second round's slowest trip").isGreaterThanOrEqualTo(30_000_000L);

        answers = call -> Answer.ok("{\"error\":{\"kind\":\"FAILED\",\"message\":\"no\"}}");
        assertThatThrownBy(() -> port.wireRoundTripNanos(2, 1)).isInstanceOf(OrderPortException.class);
    }

    @Test
    @DisplayName("a REJECTED error answer is an OrderPortException REJECTED caused by the runner's RequestRejectedException, with its retry-after")
    void rejectedCarriesTheRunnersException() {
        RemoteOrderPort port = open();
        answers = call -> Answer.ok("{\"error\":{\"kind\":\"REJECTED\",\"message\":\"m\",\"rejectedRetryAfterNanos\":5}}");
        OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.pay(twoSeconds(), "o-1"));
        assertThat(e.kind()).isEqualTo(Kind.REJECTED);
        assertThat(e.getCause()).isInstanceOf(RequestRejectedException.class).hasMessage("m");
        assertThat(((RequestRejectedException) e.getCause()).retryAfter()).isEqualTo(Duration.ofNanos(5));
    }

    @Test
    @DisplayName("a NOT_FOUND error answer is an OrderPortException NOT_FOUND carrying the process's message")
    void notFoundIsNotFound() {
        RemoteOrderPort port = open();
        answers = call -> Answer.ok("{\"error\":{\"kind\":\"NOT_FOUND\",\"message\":\"no order o-9\"}}");
        OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.get(twoSeconds(), "o-9"));
        assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
        assertThat(e.getCause()).isNotInstanceOfAny(RequestRejectedException.class, PoolExhaustedException.class)
                .hasMessage("no order o-9");
    }

    @Test
    @DisplayName("an error answer marked poolExhausted is caused by the runner's PoolExhaustedException")
    void poolExhaustedIsTheRunnersException() {
        RemoteOrderPort port = open();
        answers = call -> Answer.ok("{\"error\":{\"kind\":\"FAILED\",\"message\":\"pool of 4 exhausted\",\"poolExhausted\":true}}");
        OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.pay(twoSeconds(), "o-1"));
        assertThat(e.kind()).isEqualTo(Kind.FAILED);
        assertThat(e.getCause()).isInstanceOf(PoolExhaustedException.class).hasMessage("pool of 4 exhausted");
    }

    static Stream<Arguments> badAnswers() {
        byte[] oversized = ("{\"view\":{\"id\":\"" + "x".repeat(RemoteOrderPort.MAX_ANSWER_BYTES) + "\",\"status\":\"CREATED\","
                + "\"totalCents\":1,\"version\":0}}").getBytes(StandardCharsets.UTF_8);
        return Stream.of(
                Arguments.of("garbage bytes", new Answer(200, new byte[] {0, 1, 2, (byte) 0xff, '\n', 't', 'a'}, false),
                        "answered garbage (status 200)"),
                Arguments.of("not JSON", Answer.ok("hello, grader"), "answered garbage (status 200)"),
                Arguments.of("an empty body", Answer.ok(""), "answered garbage (status 200)"),
                Arguments.of("a JSON array", Answer.ok("[{\"view\":{}}]"), "answered garbage (status 200)"),
                Arguments.of("a JSON string", Answer.ok("\"CREATED\""), "answered garbage (status 200)"),
                Arguments.of("a view missing its total and version", Answer.ok("{\"view\":{\"id\":\"o-1\",\"status\":\"CREATED\"}}"),
                        "answered something that is not an order: {\"view\":{\"id\":\"o-1\",\"status\":\"CREATED\"}}"),
                Arguments.of("a view whose total is text", Answer.ok("{\"view\":{\"id\":\"o-1\",\"status\":\"CREATED\",\"totalCents\":\"12\",\"version\":0}}"),
                        "answered something that is not an order"),
                Arguments.of("no view at all", Answer.ok("{\"order\":\"o-1\"}"), "answered something that is not an order"),
                Arguments.of("an unknown kind", Answer.ok("{\"error\":{\"kind\":\"TEAPOT\",\"message\":\"m\"}}"),
                        "answered an error of no kind the port knows: {\"kind\":\"TEAPOT\",\"message\":\"m\"}"),
                Arguments.of("an error without a kind", Answer.ok("{\"error\":\"boom\"}"), "answered an error of no kind the port knows"),
                Arguments.of("status 500 with a JSON error", Answer.of(500, "{\"error\":{\"kind\":\"WIRE\",\"message\":\"boom\"}}"),
                        "refused the call (status 500): boom"),
                Arguments.of("status 500 with an HTML page", Answer.of(500, "<html><body>Internal Server Error</body></html>"),
                        "answered garbage (status 500)"),
                Arguments.of("a view over MAX_ANSWER_BYTES", new Answer(200, oversized, false),
                        "the solution's process answered more than " + RemoteOrderPort.MAX_ANSWER_BYTES + " bytes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badAnswers")
    @DisplayName("an answer that is not the wire's (garbage, another JSON, a refusal, too many bytes) is FAILED with one line saying what")
    void badAnswerIsFailedSayingWhat(String what, Answer answer, String saying) {
        RemoteOrderPort port = open();
        answers = call -> answer;
        assertOneLineFailure(catchThrowableOfType(OrderPortException.class, () -> port.create(twoSeconds(), "c", List.of())), saying);
    }

    @Test
    @DisplayName("an error message a solution sends is one printable line of at most 300 characters, a stack trace it sends flattened")
    void studentMessageIsOneShortLine() {
        RemoteOrderPort port = open();
        String trace = "java.lang.IllegalStateException: boom\\n\\tat archlab.order.Cheat.pay(Cheat.java:12)\\n" + "x".repeat(1000);
        answers = call -> Answer.ok("{\"error\":{\"kind\":\"INVALID_STATE\",\"message\":\"" + trace + "\"}}");
        OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.pay(twoSeconds(), "o-1"));
        assertThat(e.kind()).isEqualTo(Kind.INVALID_STATE);
        assertThat(e.getCause().getMessage()).startsWith("java.lang.IllegalStateException: boom??at archlab.order.Cheat.pay")
                .doesNotContain("\n", "\t").hasSize(301).endsWith("…");
        assertThat(e.getCause().getStackTrace()).isEmpty();
    }

    @Test
    @DisplayName("isPaid answered with anything but a boolean is FAILED saying what it answered")
    void isPaidNeedsABoolean() {
        RemoteOrderPort port = open();
        answers = call -> Answer.ok("{\"paid\":\"yes\"}");
        assertOneLineFailure(catchThrowableOfType(OrderPortException.class, () -> port.isPaid("o-1")), "isPaid answered {\"paid\":\"yes\"}");
    }

    @Test
    @DisplayName("a process that answers open without a service id is FAILED: it did not open a service")
    void openWithoutAServiceFails() {
        opened = "{\"service\":\"seven\"}";
        assertOneLineFailure(catchThrowableOfType(OrderPortException.class, this::open),
                "the solution's process did not open a service: {\"service\":\"seven\"}");
    }

    @Test
    @DisplayName("a process that is gone (connection refused) is FAILED, saying what the process state supplier says")
    void refusedConnectionSaysTheProcessState() {
        RemoteOrderPort port = open();
        stopTheServer();
        OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.get(twoSeconds(), "o-1"));
        assertOneLineFailure(e, "the solution's process could not be reached (" + STATE + "): ");
        assertThatThrownBy(() -> port.isPaid("o-1")).isInstanceOf(OrderPortException.class).hasMessageContaining(STATE);
    }

    @Test
    @DisplayName("close() sends close and runs onClose once, even when the process answers it with an error or is gone")
    void closeRunsOnCloseEvenWhenTheProcessErrs() {
        AtomicInteger closed = new AtomicInteger();
        RemoteOrderPort port = open(closed::incrementAndGet);
        answers = call -> Answer.of(500, "Internal Server Error");
        port.close();
        assertThat(closed).hasValue(1);
        assertThat(last().body().path("op").asText()).isEqualTo("close");
        assertThat(last().body().path("service").asInt()).isEqualTo(SERVICE);

        RemoteOrderPort gone = open(closed::incrementAndGet);
        stopTheServer();
        gone.close();
        assertThat(closed).hasValue(2);
    }

    @Test
    @DisplayName("a context without a deadline (background) is sent as noDeadline: true, without remainingNanos")
    void backgroundSendsNoDeadline() {
        RemoteOrderPort port = open();
        answers = call -> Answer.ok("{\"view\":{\"id\":\"o-1\",\"status\":\"CREATED\",\"totalCents\":1999,\"version\":0}}");
        port.get(RequestContext.background(), "o-1");
        assertThat(last().body().path("noDeadline").asBoolean(false)).isTrue();
        assertThat(last().body().has("remainingNanos")).isFalse();
        port.get(twoSeconds(), "o-1");
        assertThat(last().body().has("noDeadline")).isFalse();
        assertThat(last().body().path("remainingNanos").asLong()).isEqualTo(2_000_000_000L);
    }

    @Test
    @DisplayName("a null customer and a null line are sent as JSON null, null lines as no lines: the bad input reaches the solution as it was")
    void nullsAreSentAsNull() {
        RemoteOrderPort port = open();
        answers = call -> Answer.ok("{\"error\":{\"kind\":\"INVALID_INPUT\",\"message\":\"no customer\"}}");
        OrderPortException e = catchThrowableOfType(OrderPortException.class,
                () -> port.create(twoSeconds(), null, Arrays.asList(new OrderPort.Line("sku-a", 1, 500), null)));
        assertThat(e.kind()).isEqualTo(Kind.INVALID_INPUT);
        JsonNode body = last().body();
        assertThat(body.has("customer")).isTrue();
        assertThat(body.get("customer").isNull()).isTrue();
        assertThat(body.path("lines").size()).isEqualTo(2);
        assertThat(body.path("lines").get(0).path("sku").asText()).isEqualTo("sku-a");
        assertThat(body.path("lines").get(1).isNull()).isTrue();

        assertThatThrownBy(() -> port.create(twoSeconds(), "c", null)).isInstanceOf(OrderPortException.class);
        assertThat(last().body().has("lines")).isFalse();
    }

    @Test
    @DisplayName("an answer that goes past MAX_ANSWER_BYTES is FAILED as soon as it does, not when (if ever) it ends")
    void oversizedAnswerFailsWithoutWaitingForItsEnd() {
        RemoteOrderPort port = open();
        answers = call -> new Answer(200, new byte[RemoteOrderPort.MAX_ANSWER_BYTES + 1], true);
        long start = System.nanoTime();
        RequestContext expired = RequestContext.withTimeout(clock, Duration.ZERO); // the port waits GRACE alone
        OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.get(expired, "o-1"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.kind()).isEqualTo(Kind.FAILED);
        assertThat(e.getMessage()).contains("bytes").doesNotContain("did not answer");
        assertThat(millis).as("ms until FAILED").isLessThan(RemoteOrderPort.GRACE.toMillis() / 2);
    }

    /** A process that takes the call and never answers: the port's wait is the request's remaining deadline plus GRACE. */
    @Nested
    @MultiSecondCheck
    class NeverAnswering {

        @Test
        @DisplayName("a process that never answers is FAILED after the request's remaining deadline plus GRACE, saying so and the process state")
        void silentProcessFailsAfterTheGrace() {
            RemoteOrderPort port = open();
            answers = call -> null;
            RequestContext ctx = RequestContext.withTimeout(clock, Duration.ofMillis(300));
            long start = System.nanoTime();
            OrderPortException e = catchThrowableOfType(OrderPortException.class, () -> port.pay(ctx, "o-1"));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertOneLineFailure(e, "the solution's process did not answer within " + (300 + RemoteOrderPort.GRACE.toMillis()) + " ms (" + STATE + ")");
            assertThat(e.getCause().getMessage()).contains("DeadlineExceededException");
            assertThat(millis).as("ms until FAILED").isBetween(300 + RemoteOrderPort.GRACE.toMillis(), 300 + RemoteOrderPort.GRACE.toMillis() + 3000);
        }
    }
}
