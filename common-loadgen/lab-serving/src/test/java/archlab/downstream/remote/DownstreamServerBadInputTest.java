package archlab.downstream.remote;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.downstream.Downstream;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input over raw HTTP, past the clients: each gets a 4xx JSON {@code {"error": KIND, "message": …}} with no stack
 * trace and no class name of the server's, and no stub sees it (their counters and books stay empty). Also: the server
 * listens on 127.0.0.1 only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DownstreamServerBadInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final String[] DEADLINE = {DownstreamWire.DEADLINE_HEADER, "2000000000"};
    private static final String[] NONE = {};

    private final Downstream served = Downstream.instant();
    private DownstreamServer server;

    @BeforeAll
    void start() {
        server = DownstreamServer.start(served);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    static Stream<Arguments> badRequests() {
        String big = "{\"sku\":\"" + "x".repeat(DownstreamWire.MAX_BODY_BYTES) + "\",\"quantity\":1}";
        return Stream.of(
                Arguments.of("malformed JSON", "POST", "/inventory/reserve", "{\"sku\":", DEADLINE, 400, "bad_request"),
                Arguments.of("not JSON at all", "POST", "/payments/charge", "orderId=o-1", DEADLINE, 400, "bad_request"),
                Arguments.of("empty body", "POST", "/notifier/notify", "", DEADLINE, 400, "bad_request"),
                Arguments.of("a JSON array", "POST", "/inventory/reserve", "[\"sku\", 1]", DEADLINE, 400, "bad_request"),
                Arguments.of("deep nesting", "POST", "/inventory/reserve", "[".repeat(3000) + "]".repeat(3000), DEADLINE, 400, "bad_request"),
                Arguments.of("an unknown field", "POST", "/inventory/reserve", "{\"sku\":\"a\",\"quantity\":1,\"admin\":true}", DEADLINE, 400, "bad_request"),
                Arguments.of("quantity missing", "POST", "/inventory/reserve", "{\"sku\":\"a\"}", DEADLINE, 400, "bad_request"),
                Arguments.of("quantity not a number", "POST", "/inventory/release", "{\"sku\":\"a\",\"quantity\":\"1\"}", DEADLINE, 400, "bad_request"),
                Arguments.of("quantity a fraction", "POST", "/inventory/release", "{\"sku\":\"a\",\"quantity\":1.5}", DEADLINE, 400, "bad_request"),
                Arguments.of("quantity over 32 bits", "POST", "/inventory/reserve", "{\"sku\":\"a\",\"quantity\":4294967296}", DEADLINE, 400, "bad_request"),
                Arguments.of("sku missing (the stub refuses it)", "POST", "/inventory/reserve", "{\"quantity\":1}", DEADLINE, 400, "illegal_argument"),
                Arguments.of("sku of the wrong type", "POST", "/inventory/reserve", "{\"sku\":7,\"quantity\":1}", DEADLINE, 400, "bad_request"),
                Arguments.of("quantity 0 (the stub refuses it)", "POST", "/inventory/reserve", "{\"sku\":\"a\",\"quantity\":0}", DEADLINE, 400, "illegal_argument"),
                Arguments.of("reservation key missing", "POST", "/inventory/keyed/release", "{}", DEADLINE, 400, "illegal_argument"),
                Arguments.of("amount missing", "POST", "/payments/charge", "{\"orderId\":\"o-1\"}", DEADLINE, 400, "bad_request"),
                Arguments.of("amount 0", "POST", "/payments/charge", "{\"orderId\":\"o-1\",\"amountCents\":0}", DEADLINE, 400, "illegal_argument"),
                Arguments.of("order id missing", "POST", "/payments/charge", "{\"amountCents\":100}", DEADLINE, 400, "illegal_argument"),
                Arguments.of("message id missing", "POST", "/notifier/notify", "{\"orderId\":\"o-1\"}", DEADLINE, 400, "illegal_argument"),
                Arguments.of("no deadline header", "POST", "/inventory/reserve", "{\"sku\":\"a\",\"quantity\":1}", NONE, 400, "bad_request"),
                Arguments.of("a deadline that is not a number", "POST", "/inventory/reserve", "{\"sku\":\"a\",\"quantity\":1}",
                        new String[] {DownstreamWire.DEADLINE_HEADER, "soon"}, 400, "bad_request"),
                Arguments.of("a deadline beyond 64 bits", "POST", "/inventory/reserve", "{\"sku\":\"a\",\"quantity\":1}",
                        new String[] {DownstreamWire.DEADLINE_HEADER, "99999999999999999999"}, 400, "bad_request"),
                Arguments.of("a body over 16 KiB", "POST", "/inventory/reserve", big, DEADLINE, 413, "body_too_large"),
                Arguments.of("an unknown path", "POST", "/inventory/steal", "{}", DEADLINE, 404, "not_found"),
                Arguments.of("the root", "GET", "/", null, NONE, 404, "not_found"),
                Arguments.of("GET on charge", "GET", "/payments/charge", null, DEADLINE, 405, "method_not_allowed"),
                Arguments.of("DELETE on notify", "DELETE", "/notifier/notify", null, DEADLINE, 405, "method_not_allowed"),
                Arguments.of("POST on the look-up", "POST", "/payments/charges", "{}", DEADLINE, 405, "method_not_allowed"),
                Arguments.of("the look-up without a key", "GET", "/payments/charges", null, NONE, 400, "illegal_argument"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    @DisplayName("a bad request over raw HTTP gets its 4xx with a JSON error kind and message, no stack trace, and no stub sees it")
    void badRequestIsRefusedAndChangesNothing(String what, String method, String path, String body, String[] headers,
                                              int status, String kind) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.baseUri().resolve(path)).timeout(Duration.ofSeconds(5))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        HttpResponse<String> response = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertErrorBody(response.body(), kind);
        assertNothingChanged();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notHttp")
    @DisplayName("a request that is not valid HTTP gets Tomcat's 400 as the server's JSON error, no stack trace, no server version")
    void notHttpGetsAJsonError(String what, String request) throws Exception {
        String answer = raw(request);
        assertThat(answer).startsWith("HTTP/1.1 400");
        assertThat(answer).doesNotContainIgnoringCase("tomcat");
        assertErrorBody(answer.substring(answer.indexOf("\r\n\r\n") + 4), "bad_request");
        assertNothingChanged();
    }

    static Stream<Arguments> notHttp() {
        return Stream.of(
                Arguments.of("a forbidden character in the path", "POST /inventory/re{serve HTTP/1.1\r\nHost: x\r\n\r\n"),
                Arguments.of("a Content-Length that is not a number",
                        "POST /inventory/reserve HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n{}"),
                Arguments.of("a header line without a colon", "POST /inventory/reserve HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n"));
    }

    @Test
    @DisplayName("the server listens on 127.0.0.1 only: its address is loopback, and no other address of this machine accepts on its port")
    void bindsLoopbackOnly() throws SocketException {
        assertThat(server.baseUri().getHost()).isEqualTo("127.0.0.1");
        List<InetAddress> others = NetworkInterface.networkInterfaces().filter(this::isUp)
                .flatMap(NetworkInterface::inetAddresses).filter(a -> !a.isLoopbackAddress() && a instanceof Inet4Address).toList();
        Assumptions.assumeFalse(others.isEmpty(), "skipped: this machine has no IPv4 address but loopback to try the port on");
        for (InetAddress other : others) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(other, server.port()), 2000);
                throw new AssertionError("the server accepted a connection on " + other.getHostAddress() + ":" + server.port());
            } catch (ConnectException | java.net.SocketTimeoutException refused) {
                // as it should: nothing listens there
            } catch (IOException e) {
                assertThat(e).as("refused on " + other.getHostAddress()).isInstanceOf(ConnectException.class);
            }
        }
    }

    private boolean isUp(NetworkInterface n) {
        try {
            return n.isUp();
        } catch (SocketException e) {
            return false;
        }
    }

    private static void assertErrorBody(String body, String kind) throws IOException {
        JsonNode node = JSON.readTree(body);
        assertThat(node.isObject()).as(body).isTrue();
        assertThat(node.path("error").asText()).as(body).isEqualTo(kind);
        assertThat(node.path("message").isTextual()).as(body).isTrue();
        assertThat(body).as("no stack trace, no class of the server's")
                .doesNotContain("\tat ", "at archlab.", "at org.", "Exception", "archlab.", "org.apache", "jakarta.");
    }

    private void assertNothingChanged() {
        assertThat(served.counts().inventoryCalls() + served.counts().paymentCalls() + served.counts().notifyCalls()).isZero();
        assertThat(served.inventory().totalReservedUnits()).isZero();
        assertThat(served.ledger().charges()).isZero();
        assertThat(served.notifier().deliveries()).isZero();
    }

    /** Writes {@code raw} on a new connection and returns what the server answered until it closed (at most 3 s). */
    private String raw(String raw) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(3000);
            OutputStream out = s.getOutputStream();
            out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
