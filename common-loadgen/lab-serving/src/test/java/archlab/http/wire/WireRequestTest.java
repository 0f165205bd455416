package archlab.http.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WireRequestTest {

    private static String encoded(WireRequest r, long deadlineMillis) {
        ByteBuf buf = Unpooled.buffer(16);
        try {
            r.encodeInto(buf, deadlineMillis);
            return buf.toString(StandardCharsets.UTF_8);
        } finally {
            buf.release();
        }
    }

    @Test
    @DisplayName("a GET is encoded once as an HTTP/1.1 request with its Host and the deadline in a fixed-width field, written per send")
    void getWithDeadline() {
        WireRequest r = WireRequest.get("noop", "127.0.0.1:8080", "/noop");
        assertThat(encoded(r, 999)).isEqualTo("GET /noop HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Deadline-Ms: 00999\r\n\r\n");
        assertThat(encoded(r, 1000)).contains("X-Deadline-Ms: 01000\r\n");
        assertThat(r.length()).isEqualTo(encoded(r, 1).length());
        assertThat(r).hasToString("noop: GET /noop HTTP/1.1");
    }

    @Test
    @DisplayName("the deadline field is clamped to 1..60,000 ms, what the server takes: never 0, never past its limit")
    void deadlineClamped() {
        WireRequest r = WireRequest.get("noop", "h", "/noop");
        assertThat(encoded(r, 0)).contains("X-Deadline-Ms: 00001\r\n");
        assertThat(encoded(r, -5)).contains("X-Deadline-Ms: 00001\r\n");
        assertThat(encoded(r, 1_000_000)).contains("X-Deadline-Ms: 60000\r\n");
    }

    @Test
    @DisplayName("a POST carries its JSON body with the body's length in bytes (UTF-8), and an empty one Content-Length: 0")
    void postBody() {
        String body = "{\"customer\":\"ü\"}";
        String text = encoded(WireRequest.post("create", "h", "/orders", body), 5);
        assertThat(text).startsWith("POST /orders HTTP/1.1\r\n").contains("Content-Type: application/json\r\n")
                .contains("Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n").endsWith("\r\n\r\n" + body);
        assertThat(encoded(WireRequest.post("pay", "h", "/orders/1/pay", null), 5)).contains("Content-Length: 0\r\n")
                .endsWith("\r\n\r\n");
    }

    @Test
    @DisplayName("a path, host or name that would not make one well-formed request is refused before the run, with a message")
    void badInput() {
        assertThatThrownBy(() -> WireRequest.get("noop", "h", "noop")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("path");
        assertThatThrownBy(() -> WireRequest.get("noop", "h", "/a b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("path");
        assertThatThrownBy(() -> WireRequest.get("noop", "h", "/a\r\nX-Evil: 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WireRequest.get("noop", "h\r\nX: 1", "/a")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host");
        assertThatThrownBy(() -> WireRequest.get("no op", "h", "/a")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("operation");
        assertThatThrownBy(() -> WireRequest.get(null, "h", "/a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("the tally counts a 2xx before the deadline completed, any other status failed, an answer at or past the deadline timed out")
    void tally() {
        WireTally t = new WireTally(1_000_000);
        t.started(10);
        t.answered(204, 999_999);
        t.answered(500, 10);
        t.answered(204, 1_000_000);
        t.noAnswer(1_000_500);
        t.connectionLost(5);
        t.notStarted();
        assertThat(t.completed()).isEqualTo(1);
        assertThat(t.failed()).isEqualTo(2);
        assertThat(t.timedOut()).isEqualTo(2);
        assertThat(t.notStartedCount()).isEqualTo(1);
        assertThat(t.ended()).isEqualTo(6);
        assertThat(t.statuses()).containsEntry(204, 2L).containsEntry(500, 1L).hasSize(2);
        assertThat(t.latency().summary().count()).isEqualTo(5);
    }
}
