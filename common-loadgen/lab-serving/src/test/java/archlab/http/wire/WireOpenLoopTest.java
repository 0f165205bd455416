package archlab.http.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.http.OrderHttpServer;
import archlab.http.ServerThreads;
import archlab.loadgen.Arrival;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.ClientRetryPolicy;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OrderTarget;
import archlab.request.RequestContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The event-loop generator against a real Tomcat and against servers that misbehave; short, slow-rate runs. */
class WireOpenLoopTest {

    private static final OrderTarget ORDERS = new OrderTarget() {
        @Override
        public String create(RequestContext ctx) {
            return "o1";
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
        }
    };

    private static LoadSpec spec(int rate, Duration duration, Duration timeout) {
        return LoadSpec.builder().ratePerSecond(rate).duration(duration).timeout(timeout).arrival(Arrival.fixed())
                .warmup(Duration.ZERO).traceEvery(0).build();
    }

    @Test
    @DisplayName("every planned request is written and answered: GETs and a POST with its JSON body, the deadline header accepted by the server")
    void answeredByTomcat() {
        try (OrderHttpServer server = OrderHttpServer.start(ORDERS, ServerThreads.PLATFORM);
             WireOpenLoop wire = new WireOpenLoop(server.baseUri(), 2)) {
            String host = server.baseUri().getAuthority();
            WireRequest noop = WireRequest.get("noop", host, OrderHttpServer.NOOP_PATH);
            WireRequest create = WireRequest.post("create", host, "/orders", "{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}");
            WireRun run = wire.run(spec(200, Duration.ofMillis(300), Duration.ofSeconds(2)), seq -> seq % 2 == 0 ? noop : create);
            assertThat(run.requests().offered()).isEqualTo(60);
            assertThat(run.requests().started()).isEqualTo(60);
            assertThat(run.requests().completed()).as("statuses %s", run.statuses()).isEqualTo(60);
            assertThat(run.requests().unfinished() + run.requests().timedOut() + run.requests().failed()).isZero();
            assertThat(run.statuses()).containsOnlyKeys(204, 201);
            assertThat(run.latency().count()).isEqualTo(60);
            assertThat(run.sendLag().count()).isEqualTo(60);
            assertThat(run.transport()).isIn("epoll", "nio");
        }
    }

    @Test
    @DisplayName("a server that never answers: each request is given up on at its deadline and counted timed out, none lost or failed")
    void neverAnswered() throws Exception {
        java.util.List<Socket> held = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             WireOpenLoop wire = new WireOpenLoop(URI.create("http://127.0.0.1:" + silent.getLocalPort()), 1)) {
            Thread.ofVirtual().start(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept()); // accepted, kept, never read: the request sits unanswered
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            WireRun run = wire.run(spec(50, Duration.ofMillis(200), Duration.ofMillis(100)),
                    WireWorkload.of(WireRequest.get("noop", "h", "/noop")));
            assertThat(run.requests().offered()).isEqualTo(10);
            assertThat(run.requests().timedOut()).isEqualTo(10);
            assertThat(run.requests().completed() + run.requests().failed()).isZero();
            assertThat(run.connections().lost()).isZero();
            assertThat(run.latency().p50Micros()).isGreaterThanOrEqualTo(100_000);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    @DisplayName("nothing listening: no request is started, each counted as never started once its deadline passed")
    void nothingListening() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (WireOpenLoop wire = new WireOpenLoop(URI.create("http://127.0.0.1:" + port), 1)) {
            WireRun run = wire.run(spec(50, Duration.ofMillis(100), Duration.ofMillis(50)),
                    WireWorkload.of(WireRequest.get("noop", "h", "/noop")));
            assertThat(run.requests().offered()).isEqualTo(5);
            assertThat(run.requests().started()).isZero();
            assertThat(run.requests().notStarted()).isEqualTo(5);
        }
    }

    @Test
    @DisplayName("a server that closes the connection after each answer, or answers with something that is not HTTP and keeps the connection open: the first counted completed on new connections, the second failed by the decoder, not by a lost connection, nothing thrown")
    void closingAndGarbage() throws Exception {
        for (String answer : new String[] {"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n", "garbage\r\n\r\n"}) {
            AtomicInteger accepted = new AtomicInteger();
            try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                 WireOpenLoop wire = new WireOpenLoop(URI.create("http://127.0.0.1:" + server.getLocalPort()), 1)) {
                Thread.ofVirtual().start(() -> answerEach(server, answer, answer.startsWith("HTTP"), accepted));
                WireRun run = wire.run(spec(100, Duration.ofMillis(200), Duration.ofSeconds(1)),
                        WireWorkload.of(WireRequest.get("noop", "h", "/noop")));
                assertThat(run.requests().offered()).isEqualTo(20);
                if (answer.startsWith("HTTP")) {
                    assertThat(run.requests().completed()).isEqualTo(20);
                    assertThat(accepted.get()).as("a connection per request").isGreaterThanOrEqualTo(20);
                } else {
                    assertThat(run.requests().failed()).isEqualTo(20);
                    assertThat(run.connections().lost()).as("failed by the decoder, each connection closed by the generator").isZero();
                }
            }
        }
    }

    /**
     * Answers the request on each accepted connection with {@code answer}, then closes the connection, or ({@code close}
     * false) waits for the client to close it.
     */
    private static void answerEach(ServerSocket server, String answer, boolean close, AtomicInteger accepted) {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                accepted.incrementAndGet();
                Thread.ofVirtual().start(() -> {
                    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                        int matched = 0;
                        int c;
                        while (matched < 4 && (c = in.read()) >= 0) { // to the end of the request's head
                            matched = (c == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (c == '\r' ? 1 : 0);
                        }
                        out.write(answer.getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        while (!close && in.read() >= 0) {
                            // until the generator closes it
                        }
                    } catch (IOException ignored) {
                        // the generator closed first: nothing to answer
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    @Test
    @DisplayName("a base that is not http://host:port, lanes out of range, or a spec with retries is refused with a message")
    void badInput() {
        assertThatThrownBy(() -> new WireOpenLoop(URI.create("https://127.0.0.1:1"), 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://host:port");
        assertThatThrownBy(() -> new WireOpenLoop(URI.create("http://127.0.0.1"), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WireOpenLoop(URI.create("http://127.0.0.1:1"), 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lanes");
        try (WireOpenLoop wire = new WireOpenLoop(URI.create("http://127.0.0.1:1"), 1)) {
            LoadSpec retrying = spec(10, Duration.ofMillis(100), Duration.ofMillis(50)).withRetries(ClientRetryPolicy.immediately(2));
            assertThatThrownBy(() -> wire.run(retrying, WireWorkload.of(WireRequest.get("noop", "h", "/noop"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry");
        }
    }
}
