package archlab.http;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.MultiSecondCheck;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The HTTP front against clients that mean harm, on Tomcat's 200 platform threads (the article's setup): bodies that
 * trickle in, headers that never end, and framings meant to smuggle a second request past the first. Each case states
 * what a server that gets it wrong would do.
 */
@MultiSecondCheck
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AbuseOverTheWireTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CREATE_BODY = "{\"customer\":\"cust\"}";
    /** How long a normal create may take while the server is abused: far above its time on a quiet server (ms). */
    private static final long CREATE_BOUND_MILLIS = 2_000;

    private final FakeOrders port = new FakeOrders();
    private OrderHttpServer server;

    @BeforeAll
    void start() {
        server = OrderHttpServer.start(port, ServerThreads.PLATFORM);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @Test
    @DisplayName("while 250 connections trickle their bodies and 300 send half a header, a normal create is answered within 2 s: no slow client holds a server thread")
    void slowClientsHoldNoThreads() throws Exception {
        List<Socket> abusers = new ArrayList<>();
        try {
            String head = "POST /orders HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 60000\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + CREATE_BODY.length() + "\r\n\r\n{";
            for (int i = 0; i < 250; i++) {
                abusers.add(open(head)); // one byte of the body, then nothing: more than Tomcat's 200 threads
            }
            for (int i = 0; i < 300; i++) {
                abusers.add(open("POST /orders HTTP/1.1\r\nHost: x\r\nX-Dead"));
            }
            Thread.sleep(500); // the server has read what they sent, and waits for the rest
            int callsBefore = port.calls.get();
            long start = System.nanoTime();
            HttpResponse<String> created = Wire.send(server.baseUri(), "POST", "/orders", CREATE_BODY, "X-Deadline-Ms", "5000");
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(tookMillis).as("a create among 550 slow clients, ms").isLessThan(CREATE_BOUND_MILLIS);
            assertThat(port.calls.get()).as("only the normal create reached the port").isEqualTo(callsBefore + 1);
        } finally {
            for (Socket s : abusers) {
                s.close();
            }
        }
    }

    static Stream<Arguments> unreadBodies() {
        return Stream.of(
                Arguments.of("GET /noop with a Content-Length", "GET /noop HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nx"),
                Arguments.of("a pay with a body", "POST /orders/nosuch/pay HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 60000\r\n"
                        + "Content-Length: 1000\r\n\r\nx"),
                Arguments.of("a get with a chunked body", "GET /orders/o-1 HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 60000\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n5\r\nab"),
                Arguments.of("a create refused before its body (no deadline)", "POST /orders HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Length: 1000\r\n\r\nx"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadBodies")
    @DisplayName("220 requests whose bodies the servlet never reads, trickled: a normal create is answered within 2 s (the server does not swallow what it did not read)")
    void unreadBodiesHoldNoThreads(String what, String raw) throws Exception {
        List<Socket> abusers = new ArrayList<>();
        try {
            for (int i = 0; i < 220; i++) {
                abusers.add(open(raw));
            }
            Thread.sleep(500);
            long start = System.nanoTime();
            HttpResponse<String> created = Wire.send(server.baseUri(), "POST", "/orders", CREATE_BODY, "X-Deadline-Ms", "5000");
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(created.statusCode()).as(what + ": " + created.body()).isEqualTo(201);
            assertThat(tookMillis).as(what + ": a create among 220 unread bodies, ms").isLessThan(CREATE_BOUND_MILLIS);
        } finally {
            for (Socket s : abusers) {
                s.close();
            }
        }
    }

    @Test
    @DisplayName("a body that arrives after the request's deadline, however late the container's time-out fires, is answered 408 and never reaches the port")
    void aBodyJustPastItsDeadlineIsNotServed() throws Exception {
        int callsBefore = port.calls.get();
        try (Socket s = open("POST /orders HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 50\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + CREATE_BODY.length() + "\r\n\r\n")) {
            Thread.sleep(300); // past the deadline, before the container's once-a-second time-out check, most of the time
            s.getOutputStream().write(CREATE_BODY.getBytes(StandardCharsets.ISO_8859_1));
            s.setSoTimeout(3_000);
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).as("silence is a failure").startsWith("HTTP/1.1 408");
        }
        assertThat(port.calls.get()).as("the create did not run").isEqualTo(callsBefore);
    }

    @Test
    @DisplayName("a body that has not arrived by the request's deadline is answered 408 with a JSON error, the connection closed, the port never called")
    void aBodyPastItsDeadlineIs408() throws Exception {
        int callsBefore = port.calls.get();
        String answer = rawUntilClosed("POST /orders HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 300\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + CREATE_BODY.length() + "\r\n\r\n{\"cus", 5_000);
        assertThat(answer).as("silence is a failure").startsWith("HTTP/1.1 408");
        assertThat(JSON.readTree(body(answer)).path("status").asInt()).as(answer).isEqualTo(408);
        assertThat(answer).containsIgnoringCase("Connection: close");
        assertThat(port.calls.get()).isEqualTo(callsBefore);
    }

    static Stream<Arguments> smuggling() {
        String second = "POST /orders HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 1000\r\nContent-Length: " + CREATE_BODY.length()
                + "\r\n\r\n" + CREATE_BODY;
        return Stream.of(
                // read by Content-Length the body is "0\r\n\r\n" + nothing; read as chunked it ends at once and the
                // bytes after it are a second request
                Arguments.of("Content-Length and Transfer-Encoding: chunked together", "POST /orders HTTP/1.1\r\nHost: x\r\n"
                        + "X-Deadline-Ms: 1000\r\nContent-Length: " + (5 + second.length()) + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\n" + second, 400),
                Arguments.of("two different Content-Lengths", "POST /orders HTTP/1.1\r\nHost: x\r\nX-Deadline-Ms: 1000\r\n"
                        + "Content-Length: 0\r\nContent-Length: " + second.length() + "\r\n\r\n" + second, 400),
                Arguments.of("a header folded onto the next line (obs-fold)", "POST /orders HTTP/1.1\r\nHost: x\r\n"
                        + "X-Deadline-Ms: 1000\r\nContent-Length:\r\n " + second.length() + "\r\n\r\n" + second, 400),
                Arguments.of("a Transfer-Encoding the server does not know", "POST /orders HTTP/1.1\r\nHost: x\r\n"
                        + "X-Deadline-Ms: 1000\r\nTransfer-Encoding: xchunked\r\nContent-Length: " + second.length() + "\r\n\r\n" + second,
                        501));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("smuggling")
    @DisplayName("a framing that could hide a second request is refused (400, or 501 for a coding it does not know) with a JSON error and the connection closed: neither request reaches the port")
    void smuggledRequestsAreRefused(String what, String raw, int status) throws Exception {
        int callsBefore = port.calls.get();
        String answer = rawUntilClosed(raw, 3_000);
        assertThat(answer).as(what + ": silence is a failure").startsWith("HTTP/1.1 " + status);
        assertThat(JSON.readTree(body(answer)).path("status").asInt()).as(what + ": a JSON error: " + answer).isEqualTo(status);
        assertThat(answer.split("HTTP/1.1 ", -1)).as(what + ": one answer only: " + answer).hasSize(2);
        assertThat(port.calls.get()).as(what + ": no create ran").isEqualTo(callsBefore);
    }

    @Test
    @DisplayName("lines ended by a bare LF are one request, answered once: the create runs once and nothing else does")
    void bareLineFeedsAreOneRequest() throws Exception {
        int callsBefore = port.calls.get();
        String answer = rawUntilClosed("POST /orders HTTP/1.1\nHost: x\nX-Deadline-Ms: 1000\nConnection: close\nContent-Length: "
                + CREATE_BODY.length() + "\n\n" + CREATE_BODY, 3_000);
        assertThat(answer).as("silence is a failure").matches("(?s)HTTP/1\\.1 (201|400) .*");
        assertThat(answer.split("HTTP/1.1 ", -1)).as("one answer only: " + answer).hasSize(2);
        assertThat(port.calls.get() - callsBefore).as("at most the one create").isLessThanOrEqualTo(answer.startsWith("HTTP/1.1 201") ? 1 : 0)
                .isGreaterThanOrEqualTo(answer.startsWith("HTTP/1.1 201") ? 1 : 0);
    }

    private Socket open(String raw) throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        OutputStream out = s.getOutputStream();
        out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return s;
    }

    /** Writes {@code raw}, keeps the connection open for writing, and reads until the server closes it or {@code millis} pass. */
    private String rawUntilClosed(String raw, int millis) throws IOException {
        try (Socket s = open(raw)) {
            s.setSoTimeout(millis);
            InputStream in = s.getInputStream();
            StringBuilder got = new StringBuilder();
            byte[] buf = new byte[4096];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                }
            } catch (java.net.SocketTimeoutException e) {
                return got.toString(); // what came before the silence (the caller decides whether it is enough)
            }
            return got.toString();
        }
    }

    private static String body(String answer) {
        int at = answer.indexOf("\r\n\r\n");
        return at < 0 ? "" : answer.substring(at + 4);
    }
}
