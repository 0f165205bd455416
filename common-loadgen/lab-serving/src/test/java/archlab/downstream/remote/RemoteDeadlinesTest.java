package archlab.downstream.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.downstream.ChargeRequest;
import archlab.downstream.Downstream;
import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamSettings;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.Notification;
import archlab.request.RequestContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The clients' deadline contract: a call waits no longer than its deadline; no answer in time, or a connection lost
 * mid-call, is a timeout whose outcome is unknown; no connection at all is a DownstreamException, nothing sent.
 * Bounds on time are loose (a noisy machine): each only tells "at the deadline" from "after the stub's latency".
 */
class RemoteDeadlinesTest {

    /** Far longer than any deadline below: a call that waited for it would be plain. */
    private static final Duration SLOW = Duration.ofSeconds(20);
    private static final Duration DEADLINE = Duration.ofMillis(150);

    private static RequestContext withDeadline(Duration timeout) {
        return RequestContext.withTimeout(NanoClock.SYSTEM, timeout);
    }

    @Test
    @DisplayName("a call whose deadline is shorter than the stub's latency times out on the client at its deadline (outcome unknown), and the stub's effect stays in the serving JVM")
    void deadlineShorterThanLatencyTimesOut() {
        Downstream served = Downstream.create(DownstreamSettings.builder()
                .inventoryLatency(SLOW).paymentLatency(SLOW).notifyLatency(SLOW).build());
        try (DownstreamServer server = DownstreamServer.start(served)) {
            RemoteDownstream remote = RemoteDownstream.connect(server.baseUri());
            long begin = System.nanoTime();
            assertThatThrownBy(() -> remote.payments().charge(withDeadline(DEADLINE), ChargeRequest.withoutKey("o-1", 100)))
                    .isInstanceOfSatisfying(DownstreamTimeoutException.class, e -> assertThat(e.passedOnArrival()).isFalse());
            assertThatThrownBy(() -> remote.inventory().reserve(withDeadline(DEADLINE), "sku", 2))
                    .isInstanceOfSatisfying(DownstreamTimeoutException.class, e -> assertThat(e.passedOnArrival()).isFalse());
            assertThatThrownBy(() -> remote.notifier().notify(withDeadline(DEADLINE), Notification.orderPaid("o-1")))
                    .isInstanceOfSatisfying(DownstreamTimeoutException.class, e -> assertThat(e.passedOnArrival()).isFalse());
            assertThat(Duration.ofNanos(System.nanoTime() - begin)).as("three calls, each cut at its deadline")
                    .isLessThan(SLOW.dividedBy(2));
        }
        assertThat(served.ledger().chargesFor("o-1")).as("the charge a timed-out call made stays").hasSize(1);
        assertThat(served.inventory().reservedUnits("sku")).isEqualTo(2);
        assertThat(served.notifier().deliveries()).isEqualTo(1);
    }

    @Test
    @DisplayName("a call whose deadline passed before it was sent is a timeout passed on arrival, and the server never sees it")
    void deadlinePassedBeforeSending() {
        Downstream served = Downstream.instant();
        try (DownstreamServer server = DownstreamServer.start(served)) {
            RemoteDownstream remote = RemoteDownstream.connect(server.baseUri());
            assertThatThrownBy(() -> remote.inventory().reserve(withDeadline(Duration.ZERO), "sku", 1))
                    .isInstanceOfSatisfying(DownstreamTimeoutException.class, e -> assertThat(e.passedOnArrival()).isTrue())
                    .hasMessageContaining("nothing sent");
        }
        assertThat(served.inventory().counters().calls()).isZero();
    }

    @Test
    @DisplayName("the server counts the caller's remaining deadline from the call's arrival: zero left is the stub's own timeout passed on arrival, counted, nothing reserved")
    void serverRunsTheStubToTheHeadersDeadline() throws Exception {
        Downstream served = Downstream.instant();
        try (DownstreamServer server = DownstreamServer.start(served);
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(server.baseUri().resolve(DownstreamWire.RESERVE))
                    .header(DownstreamWire.DEADLINE_HEADER, "0").timeout(Duration.ofSeconds(5))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"sku\":\"sku\",\"quantity\":1}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(504);
            JsonNode body = new ObjectMapper().readTree(answer.body());
            assertThat(body.path("error").asText()).isEqualTo("timeout");
            assertThat(body.path("passedOnArrival").asBoolean()).isTrue();
            assertThat(body.path("stub").asText()).isEqualTo("inventory");
        }
        assertThat(served.inventory().counters().calls()).isEqualTo(1);
        assertThat(served.inventory().counters().timeouts()).isEqualTo(1);
        assertThat(served.inventory().reservedUnits("sku")).isZero();
    }

    @Test
    @DisplayName("a server that accepts the call and never answers: DownstreamTimeoutException at the deadline, outcome unknown")
    void silentServerTimesOut() throws Exception {
        try (SilentServer silent = new SilentServer(false)) {
            RemoteDownstream remote = RemoteDownstream.connect(silent.uri());
            long begin = System.nanoTime();
            assertThatThrownBy(() -> remote.payments().charge(withDeadline(DEADLINE), ChargeRequest.withoutKey("o-1", 100)))
                    .isInstanceOfSatisfying(DownstreamTimeoutException.class, e -> {
                        assertThat(e.passedOnArrival()).isFalse();
                        assertThat(e.callIndex()).isEqualTo(-1);
                    })
                    .hasMessageContaining("may have taken effect");
            assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(SLOW.dividedBy(2));
        }
    }

    @Test
    @DisplayName("a connection that fails mid-call (the server reads the call and hangs up): DownstreamTimeoutException, outcome unknown")
    void connectionLostMidCallIsATimeout() throws Exception {
        try (SilentServer hangsUp = new SilentServer(true)) {
            RemoteDownstream remote = RemoteDownstream.connect(hangsUp.uri());
            assertThatThrownBy(() -> remote.notifier().notify(withDeadline(Duration.ofSeconds(5)), Notification.orderPaid("o-1")))
                    .isInstanceOfSatisfying(DownstreamTimeoutException.class, e -> assertThat(e.passedOnArrival()).isFalse())
                    .hasMessageContaining("may have taken effect");
        }
    }

    @Test
    @DisplayName("no server listening: DownstreamException (not a timeout), nothing sent")
    void noServerIsADownstreamException() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        RemoteDownstream remote = RemoteDownstream.connect(URI.create("http://127.0.0.1:" + port));
        assertThatThrownBy(() -> remote.inventory().release(withDeadline(Duration.ofSeconds(5)), "sku", 1))
                .isExactlyInstanceOf(DownstreamException.class)
                .hasMessageContaining("could not connect").hasMessageContaining("nothing sent");
        assertThatThrownBy(() -> remote.payments().findByIdempotencyKey("k"))
                .isExactlyInstanceOf(DownstreamException.class).hasMessageContaining("could not connect");
    }

    /** A socket on 127.0.0.1 that accepts connections and reads, then never answers or hangs up. */
    private static final class SilentServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> accepted = new ArrayList<>();
        private final Thread acceptor;

        SilentServer(boolean hangUpAfterReading) throws IOException {
            acceptor = Thread.ofVirtual().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        synchronized (accepted) {
                            accepted.add(s);
                        }
                        if (hangUpAfterReading) {
                            InputStream in = s.getInputStream();
                            in.read(new byte[4096]); // the call's bytes arrived: then the connection drops
                            s.close();
                        }
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        @Override
        public void close() throws Exception {
            socket.close();
            synchronized (accepted) {
                for (Socket s : accepted) {
                    s.close();
                }
            }
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
        }
    }
}
