package archlab.http;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.OrderTarget;
import archlab.request.RequestContext;
import archlab.loadgen.testing.MultiSecondCheck;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A read over the wire says the order's status when the port says it ({@link OrderTarget#status}), and only then. */
@MultiSecondCheck
class OrderStatusOverTheWireTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] DEADLINE = {"X-Deadline-Ms", "500"};

    /** The fake port's create, get and pay; a test overrides what the target says of an order. */
    private static class OverFake implements OrderTarget {
        final FakeOrders fake;

        OverFake(FakeOrders fake) {
            this.fake = fake;
        }

        @Override
        public String create(RequestContext ctx) {
            return fake.create(ctx);
        }

        @Override
        public void get(RequestContext ctx, String orderId) {
            fake.get(ctx, orderId);
        }

        @Override
        public void pay(RequestContext ctx, String orderId) {
            fake.pay(ctx, orderId);
        }
    }

    /** The fake port, saying every order it has is PAID. */
    private static OrderTarget saying(FakeOrders fake) {
        return new OverFake(fake) {
            @Override
            public Optional<String> status(RequestContext ctx, String orderId) {
                fake.get(ctx, orderId);
                return Optional.of("PAID");
            }
        };
    }

    private static JsonNode read(OrderHttpServer server) throws Exception {
        HttpResponse<String> created = Wire.send(server.baseUri(), "POST", "/orders", "{\"customer\":\"cust\"}", DEADLINE);
        String id = JSON.readTree(created.body()).get("id").asText();
        HttpResponse<String> got = Wire.send(server.baseUri(), "GET", "/orders/" + id, null, DEADLINE);
        assertThat(got.statusCode()).as(got.body()).isEqualTo(200);
        return JSON.readTree(got.body());
    }

    @Test
    @DisplayName("GET /orders/{id} answers {id, status} when the port says the status, and {id} alone when it does not (the default)")
    void statusWhenThePortSaysIt() throws Exception {
        try (OrderHttpServer withStatus = OrderHttpServer.start(saying(new FakeOrders()), ServerThreads.PLATFORM);
             OrderHttpServer without = OrderHttpServer.start(new FakeOrders(), ServerThreads.PLATFORM)) {
            JsonNode said = read(withStatus);
            assertThat(said.get("status").asText()).isEqualTo("PAID");
            JsonNode unsaid = read(without);
            assertThat(unsaid.has("status")).as(unsaid.toString()).isFalse();
            assertThat(unsaid.get("id").asText()).isNotBlank();
        }
    }

    @Test
    @DisplayName("GET /orders/{id} answers the order whole when the port reads it whole: id, status, totalCents and version, in that order")
    void theOrderWholeWhenThePortReadsIt() throws Exception {
        OrderTarget whole = new OverFake(new FakeOrders()) {
            @Override
            public Optional<OrderSnapshot> order(RequestContext ctx, String orderId) {
                fake.get(ctx, orderId);
                return Optional.of(new OrderSnapshot(orderId, "PAID", 1999, 1));
            }
        };
        try (OrderHttpServer server = OrderHttpServer.start(whole, ServerThreads.PLATFORM)) {
            JsonNode order = read(server);
            assertThat(order.toString()).matches("\\{\"id\":\"o-1\",\"status\":\"PAID\",\"totalCents\":1999,\"version\":1}");
            HttpResponse<String> missing = Wire.send(server.baseUri(), "GET", "/orders/o-404", null, DEADLINE);
            assertThat(missing.statusCode()).as("an unknown order is still a 404: " + missing.body()).isEqualTo(404);
        }
    }
}
