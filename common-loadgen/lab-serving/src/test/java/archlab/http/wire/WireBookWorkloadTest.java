package archlab.http.wire;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.request.RequestContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WireBookWorkloadTest {

    /** Makes ids only: the pool is pre-created through it. */
    private static final class Ids implements OrderTarget {
        private final AtomicInteger next = new AtomicInteger();

        @Override
        public String create(RequestContext ctx) {
            return "ord-" + next.incrementAndGet();
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
        }
    }

    private static String line(WireRequest r) {
        ByteBuf b = Unpooled.buffer(r.length());
        r.encodeInto(b, 200);
        String text = b.toString(StandardCharsets.US_ASCII);
        return text.substring(0, text.indexOf("\r\n"));
    }

    @Test
    @DisplayName("request for request the in-process mix: the same operation per sequence, the same order read by a get, the pool's orders paid in turn, and a pay past the pool's end counted")
    void theBooksMixOnTheWire() throws Exception {
        BookWorkload book = BookWorkload.prepare(new Ids(), 5);
        WireBookWorkload wire = WireBookWorkload.of(book, URI.create("http://127.0.0.1:8080"));
        int pays = 0;
        for (long seq = 1; seq <= 200; seq++) {
            String line = line(wire.requestFor(seq));
            switch (book.operationOf(seq)) {
                case BookWorkload.CREATE -> assertThat(line).isEqualTo("POST /orders HTTP/1.1");
                case BookWorkload.GET -> assertThat(line).isEqualTo("GET /orders/"
                        + book.pool().get((int) (BookWorkload.mix(seq + 7) % 5)) + " HTTP/1.1");
                default -> {
                    assertThat(line).isEqualTo("POST /orders/" + book.pool().get(pays % 5) + "/pay HTTP/1.1");
                    pays++;
                }
            }
        }
        assertThat(pays).isGreaterThan(5);
        assertThat(wire.paysBeyondPool()).isEqualTo(pays - 5);
    }
}
