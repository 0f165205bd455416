package archlab.http;

import archlab.loadgen.testing.MultiSecondCheck;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input over the wire, all to 127.0.0.1: each gets a clear 4xx with a JSON error {@code {"error", "status"}} and no
 * stack trace, the port is never called for it (the service does not change: the order reads the same afterwards), and
 * the server keeps serving.
 */
@MultiSecondCheck
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputOverTheWireTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] DEADLINE = {"X-Deadline-Ms", "200"};

    private final FakeOrders port = new FakeOrders();
    private OrderHttpServer server;
    private String order;
    private int callsBefore;

    @BeforeAll
    void start() throws Exception {
        server = OrderHttpServer.start(port, ServerThreads.PLATFORM);
        HttpResponse<String> created = Wire.send(server.baseUri(), "POST", "/orders", "{\"customer\":\"cust\"}", DEADLINE);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        order = JSON.readTree(created.body()).get("id").asText();
    }

    @AfterAll
    void stop() {
        server.close();
    }

    static Stream<Arguments> badRequests() {
        String big = "{\"customer\":\"" + "x".repeat(20 * 1024) + "\"}";
        return Stream.of(
                Arguments.of("malformed JSON", "POST", "/orders", "{\"customer\":", DEADLINE, 400),
                Arguments.of("not JSON at all", "POST", "/orders", "customer=cust", DEADLINE, 400),
                Arguments.of("empty body", "POST", "/orders", "", DEADLINE, 400),
                Arguments.of("a JSON array", "POST", "/orders", "[\"cust\"]", DEADLINE, 400),
                Arguments.of("customer of the wrong type", "POST", "/orders", "{\"customer\":7}", DEADLINE, 400),
                Arguments.of("customer missing", "POST", "/orders", "{\"items\":[]}", DEADLINE, 400),
                Arguments.of("another customer than the port's", "POST", "/orders", "{\"customer\":\"eve\"}", DEADLINE, 400),
                Arguments.of("a body over 16 KiB", "POST", "/orders", big, DEADLINE, 413),
                Arguments.of("deep nesting", "POST", "/orders", "[".repeat(5000) + "]".repeat(5000), DEADLINE, 400),
                Arguments.of("an unknown path", "GET", "/admin", null, DEADLINE, 404),
                Arguments.of("a path below an order", "GET", "/orders/o-1/items/2", null, DEADLINE, 404),
                Arguments.of("an id with forbidden characters", "GET", "/orders/%3Cscript%3E", null, DEADLINE, 404),
                Arguments.of("DELETE an order", "DELETE", "/orders/o-1", null, DEADLINE, 405),
                Arguments.of("PUT on create", "PUT", "/orders", "{\"customer\":\"cust\"}", DEADLINE, 405),
                Arguments.of("GET on pay", "GET", "/orders/o-1/pay", null, DEADLINE, 405),
                Arguments.of("POST on the no-op path", "POST", "/noop", "{}", DEADLINE, 405),
                Arguments.of("no deadline header", "POST", "/orders/o-1/pay", null, new String[0], 400),
                Arguments.of("a negative deadline", "POST", "/orders/o-1/pay", null, new String[] {"X-Deadline-Ms", "-5"}, 400),
                Arguments.of("a zero deadline", "GET", "/orders/o-1", null, new String[] {"X-Deadline-Ms", "0"}, 400),
                Arguments.of("an absurd deadline", "GET", "/orders/o-1", null,
                        new String[] {"X-Deadline-Ms", "99999999999999999999"}, 400),
                Arguments.of("a deadline over a minute", "GET", "/orders/o-1", null, new String[] {"X-Deadline-Ms", "60001"}, 400),
                Arguments.of("a deadline that is not a number", "GET", "/orders/o-1", null,
                        new String[] {"X-Deadline-Ms", "soon"}, 400),
                Arguments.of("the deadline header twice", "GET", "/orders/o-1", null,
                        new String[] {"X-Deadline-Ms", "200", "X-Deadline-Ms", "junk"}, 400),
                Arguments.of("JSON with trailing garbage", "POST", "/orders", "{\"customer\":\"cust\"} trailing", DEADLINE, 400),
                Arguments.of("two JSON values", "POST", "/orders", "{\"customer\":\"cust\"}{\"customer\":\"eve\"}", DEADLINE, 400),
                Arguments.of("a key given twice", "POST", "/orders", "{\"customer\":\"eve\",\"customer\":\"cust\"}", DEADLINE, 400));
    }

    @AfterEach
    void theServiceIsUnchangedAndStillServes() throws Exception {
        HttpResponse<String> get = Wire.send(server.baseUri(), "GET", "/orders/" + order, null, DEADLINE);
        assertThat(get.statusCode()).as("the server keeps serving: " + get.body()).isEqualTo(200);
        assertThat(port.paid).as("the order reads the same: not paid, no order added").containsExactly(
                java.util.Map.entry(order, false));
    }

    @ParameterizedTest(name = "{0} → {5}")
    @MethodSource("badRequests")
    @DisplayName("bad input gets its 4xx with a JSON error and no stack trace, and never reaches the service")
    void badInputIsRefused(String what, String method, String path, String body, String[] headers, int status) throws Exception {
        callsBefore = port.calls.get();
        HttpResponse<String> r = Wire.send(server.baseUri(), method, path, body, headers);
        assertJsonError(what, r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body(), status);
        assertThat(port.calls.get()).as(what + ": the port was not called").isEqualTo(callsBefore);
        if (status == 405) {
            assertThat(r.headers().firstValue("Allow")).as("405 names what is allowed").isPresent();
        }
    }

    static Stream<Arguments> badBytes() {
        return Stream.of(
                Arguments.of("a request line that is not HTTP", "HELLO THERE\r\n\r\n"),
                Arguments.of("a header line without a colon", "GET /orders/o-1 HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n"),
                Arguments.of("headers over 8 KiB", "GET /orders/o-1 HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(10_000) + "\r\n\r\n"),
                Arguments.of("a content length that is not a number", "POST /orders HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBytes")
    @DisplayName("bytes that are not HTTP get a 400 and no stack trace, and never reach the service")
    void badBytesAreRefused(String what, String raw) throws Exception {
        callsBefore = port.calls.get();
        String answer = Wire.raw(server.port(), raw);
        assertThat(answer).as(what + ": silence (or a hang past 3 s) is a failure").isNotEmpty();
        // a line that is not HTTP/1.x is read as HTTP/0.9, whose answer is a body without a status line
        boolean http09 = !answer.startsWith("HTTP/");
        if (!http09) {
            assertThat(answer).as(what).startsWith("HTTP/1.1 400 ");
        }
        String body = http09 ? answer : answer.substring(answer.indexOf("\r\n\r\n") + 4);
        assertThat(JSON.readTree(body).path("status").asInt()).as(what + ": a JSON error: " + answer).isEqualTo(400);
        assertThat(answer).as(what + ": no trace, no server internals").doesNotContain("Exception").doesNotContain("at archlab")
                .doesNotContain("at org.apache").doesNotContainIgnoringCase("tomcat");
        assertThat(port.calls.get()).as(what + ": the port was not called").isEqualTo(callsBefore);
    }

    @Test
    @DisplayName("a burst of 200 connections that send half a request and hang up leaves the server serving")
    void aBurstOfBrokenConnections() throws Exception {
        callsBefore = port.calls.get();
        List<Future<String>> burst = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 200; i++) {
                burst.add(pool.submit(() -> Wire.raw(server.port(), "POST /orders HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"cus")));
            }
        }
        for (Future<String> f : burst) {
            assertThat(f.get()).doesNotContain("Exception");
        }
        assertThat(port.calls.get()).as("no half request reached the port").isEqualTo(callsBefore);
    }

    static void assertJsonError(String what, int got, String contentType, String body, int status) throws Exception {
        assertThat(got).as(what + ": " + body).isEqualTo(status);
        assertThat(contentType).as(what).startsWith("application/json");
        assertThat(body).as(what + ": no stack trace").doesNotContain("Exception").doesNotContain("at archlab")
                .doesNotContain("at org.apache").doesNotContainIgnoringCase("tomcat");
        JsonNode json = JSON.readTree(body);
        assertThat(json.path("error").isTextual()).as(what + ": " + body).isTrue();
        assertThat(json.path("error").asText()).isNotBlank();
        assertThat(json.path("status").asInt()).as(what + ": " + body).isEqualTo(status);
        assertThat(json.size()).as(what + ": only error and status").isEqualTo(2);
    }
}
