package archlab.http.wire;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.request.RequestContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import archlab.clock.NanoClock;
import java.net.URI;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WireBookWorkloadTest {

    /** Makes ids and records the last call as the request line it would be on the wire. */
    private static final class Recording implements OrderTarget {
        private final AtomicInteger next = new AtomicInteger();
        String last;

        @Override
        public String create(RequestContext ctx) {
            last = "POST /orders HTTP/1.1";
            return "ord-" + next.incrementAndGet();
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
            last = "GET /orders/" + orderId + " HTTP/1.1";
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
            last = "POST /orders/" + orderId + "/pay HTTP/1.1";
        }
    }

    private static String line(WireRequest r) {
        ByteBuf b = Unpooled.buffer(r.length());
        r.encodeInto(b, 200);
        String text = b.toString(StandardCharsets.US_ASCII);
        return text.substring(0, text.indexOf("\r\n"));
    }

    @Test
    @DisplayName("request for request what the in-process workload calls: the same operation per sequence, the same order read by a get, the pool's orders paid in turn; a pay past the pool's end, which in process is not sent, pays the first again and is counted")
    void theBooksMixOnTheWire() throws Exception {
        Recording target = new Recording();
        BookWorkload book = BookWorkload.prepare(target, 5);
        WireBookWorkload wire = WireBookWorkload.of(book, URI.create("http://127.0.0.1:8080"));
        int pays = 0;
        for (long seq = 1; seq <= 200; seq++) {
            String line = line(wire.requestFor(seq));
            String op = book.operationOf(seq);
            if (op.equals(BookWorkload.PAY) && pays >= 5) {
                assertThat(line).isEqualTo("POST /orders/" + book.pool().get(pays % 5) + "/pay HTTP/1.1");
                pays++;
                continue;
            }
            book.execute(seq, op, RequestContext.withTimeout(NanoClock.SYSTEM, Duration.ofSeconds(1)));
            assertThat(line).as("request %d (%s)", seq, op).isEqualTo(target.last);
            if (op.equals(BookWorkload.PAY)) {
                pays++;
            }
        }
        assertThat(pays).isGreaterThan(5);
        assertThat(wire.paysBeyondPool()).isEqualTo(pays - 5);
    }
}
