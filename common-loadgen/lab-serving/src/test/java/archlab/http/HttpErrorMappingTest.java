package archlab.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.request.DeadlineExceededException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** What the port's exceptions become on the wire, and back in the runner's hands through {@link HttpOrderTarget}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpErrorMappingTest {

    private final FakeOrders port = new FakeOrders();
    private OrderHttpServer server;
    private HttpOrderTarget client;

    @BeforeAll
    void start() {
        server = OrderHttpServer.start(port, ServerThreads.VIRTUAL);
        client = new HttpOrderTarget(server.baseUri());
    }

    @AfterAll
    void stop() {
        client.close();
        server.close();
    }

    private static RequestContext ctx() {
        return RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofMillis(200));
    }

    @Test
    @DisplayName("create, get and pay cross the wire, and the caller's remaining deadline arrives in the service's context")
    void roundTripCarriesTheDeadline() throws Exception {
        String id = client.create(ctx());
        assertThat(port.lastRemainingNanos.get()).as("at most the 200 ms the caller had left, and some of it")
                .isPositive().isLessThanOrEqualTo(Duration.ofMillis(200).toNanos());
        client.get(ctx(), id);
        client.pay(ctx(), id);
        assertThat(port.paid).containsEntry(id, true);
    }

    @Test
    @DisplayName("not found 404, invalid state 409, downstream failure 503, a charge without an answer 504, a breaker that opened"
            + " mid-pay 503, a store that failed or stalled 503 without its message, anything unexpected 500 without its message")
    void failuresMapToTheirStatus() throws Exception {
        String id = client.create(ctx());
        client.pay(ctx(), id);
        assertThatThrownBy(() -> client.get(ctx(), "nope")).isInstanceOf(HttpStatusException.class)
                .satisfies(e -> assertThat(((HttpStatusException) e).status()).isEqualTo(404));
        assertThatThrownBy(() -> client.pay(ctx(), id)).isInstanceOf(HttpStatusException.class)
                .satisfies(e -> assertThat(((HttpStatusException) e).status()).isEqualTo(409));
        assertThatThrownBy(() -> client.pay(ctx(), "down")).isInstanceOf(HttpStatusException.class)
                .satisfies(e -> assertThat(((HttpStatusException) e).status()).isEqualTo(503));
        assertThatThrownBy(() -> client.pay(ctx(), "unknown")).isInstanceOf(DeadlineExceededException.class);
        assertThatThrownBy(() -> client.pay(ctx(), "opened")).isInstanceOf(HttpStatusException.class)
                .satisfies(e -> assertThat(((HttpStatusException) e).status()).isEqualTo(503));
        assertThatThrownBy(() -> client.pay(ctx(), "stalled")).isInstanceOf(HttpStatusException.class)
                .hasMessageNotContaining("secret")
                .satisfies(e -> assertThat(((HttpStatusException) e).status()).isEqualTo(503));
        assertThatThrownBy(() -> client.get(ctx(), "boom")).isInstanceOf(HttpStatusException.class)
                .hasMessageNotContaining("secret")
                .satisfies(e -> assertThat(((HttpStatusException) e).status()).isEqualTo(500));
    }

    @Test
    @DisplayName("a limiter's refusal is 429 with Retry-After in whole seconds, rounded up, and the runner sees a rejection")
    void rejectedIs429WithRetryAfter() throws Exception {
        HttpResponse<String> raw = Wire.send(server.baseUri(), "POST", "/orders/limited/pay", null, "X-Deadline-Ms", "200");
        assertThat(raw.statusCode()).isEqualTo(429);
        assertThat(raw.headers().firstValue("Retry-After")).contains("2");
        BadInputOverTheWireTest.assertJsonError("429", raw.statusCode(),
                raw.headers().firstValue("Content-Type").orElse(""), raw.body(), 429);
        assertThatThrownBy(() -> client.pay(ctx(), "limited")).isInstanceOf(RequestRejectedException.class)
                .satisfies(e -> assertThat(((RequestRejectedException) e).retryAfter()).isEqualTo(Duration.ofSeconds(2)));
    }

    @Test
    @DisplayName("a passed deadline in the service is 504, and the runner sees a deadline exceeded; a spent one is never sent")
    void deadlineIs504() {
        assertThatThrownBy(() -> client.pay(ctx(), "late")).isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("http pay");
        int before = port.calls.get();
        RequestContext spent = RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ZERO);
        assertThatThrownBy(() -> client.get(spent, "o-1")).isInstanceOf(DeadlineExceededException.class)
                .hasMessageContaining("not sent");
        assertThat(port.calls.get()).isEqualTo(before);
    }
}
