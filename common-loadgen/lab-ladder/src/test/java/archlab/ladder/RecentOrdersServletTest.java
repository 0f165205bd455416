package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.db.ladder.OrdersSource;
import archlab.db.ladder.RecentOrdersQuery;
import archlab.http.HttpErrors;
import archlab.ladder.compute.Compute;
import archlab.ladder.compute.OrdersPage;
import archlab.ladder.monitor.Tracing;
import archlab.loopback.LoopbackTomcat;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecentOrdersServletTest {

    @TempDir
    Path logs;
    private OrdersPage page;

    @BeforeEach
    void page() {
        page = new OrdersPage(Compute.SLOW, Tracing.EVERY_REQUEST, "servlet-test", logs);
    }

    @AfterEach
    void closePage() {
        page.close();
    }

    @org.junit.jupiter.api.Test
    @DisplayName("the fast business code answers the same page as protobuf, smaller, its ETag the JSON's page hash marked as another representation")
    void protobufAnswer() throws Exception {
        OrdersSource source = (c, m) -> new OrdersSource.Read(List.of(
                Map.of("order_id", 7L, "status", "PAID", "total_cents", 1999L, "create_time", "2026-06-01T10:00:00Z"),
                Map.of("order_id", 8L, "status", "CREATED", "total_cents", 5L, "create_time", "2026-06-02T10:00:00Z")), 0, 0);
        String path = "/users/3/orders?month=2026-06";
        HttpResponse<String> json;
        try (LoopbackTomcat tomcat = LoopbackTomcat.serving(new RecentOrdersServlet(source, new ServerSegments(), page),
                HttpErrors::body).start()) {
            json = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tomcat.baseUri() + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        }
        page.close(); // one tracer open at a time
        assertThat(java.nio.file.Files.readString(logs.resolve("servlet-test.trace.log")))
                .as("the whole answer, serialised, in the slow page's trace").contains("PAID").contains("CREATED");
        try (OrdersPage fast = new OrdersPage(Compute.FAST, Tracing.SAMPLED, "servlet-test-fast", logs);
             LoopbackTomcat tomcat = LoopbackTomcat.serving(new RecentOrdersServlet(source, new ServerSegments(), fast),
                     HttpErrors::body).start()) {
            HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tomcat.baseUri() + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/x-protobuf"));
            archlab.ladder.compute.proto.OrdersPage parsed = archlab.ladder.compute.proto.OrdersPage.parseFrom(r.body());
            assertThat(parsed.getUserId()).isEqualTo(3);
            assertThat(parsed.getMonth()).isEqualTo("2026-06");
            assertThat(parsed.getOrdersList()).extracting(o -> o.getOrderId() + " " + o.getStatus() + " " + o.getTotalCents()
                    + " " + o.getCreateTime()).containsExactly("7 PAID 1999 2026-06-01T10:00:00Z", "8 CREATED 5 2026-06-02T10:00:00Z");
            assertThat(r.body().length).isLessThan(json.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
            String jsonTag = json.headers().firstValue("ETag").orElseThrow();
            String protobufTag = r.headers().firstValue("ETag").orElseThrow();
            assertThat(jsonTag).matches("\"[0-9a-f]+-json\"");
            assertThat(protobufTag).isEqualTo(jsonTag.replace("-json\"", "-protobuf\""));
        }
    }

    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvSource({
            "GET, /users/abc/orders?month=2026-06, 400",
            "GET, /users/0/orders?month=2026-06, 400",
            "GET, /users/-1/orders?month=2026-06, 400",
            "GET, /users/1234567890123456789/orders?month=2026-06, 400",
            "GET, /users/1/orders, 400",
            "GET, /users/1/orders?month=2026-13, 400",
            "GET, /users/1/orders?month=2026-6, 400",
            "GET, /users/1/orders?month=2026-06%27%3B%20DROP%20TABLE%20orders, 400",
            "GET, /users/1/orders/../../admin?month=2026-06, 400",
            "GET, /orders?month=2026-06, 400",
            "POST, /users/1/orders?month=2026-06, 405",
            "DELETE, /users/1/orders?month=2026-06, 405"})
    @DisplayName("bad input over the wire is answered 400 (405 for another method) with a one-line JSON error, and never reaches the database")
    void badInput(String method, String path, int status) throws Exception {
        AtomicInteger asked = new AtomicInteger();
        OrdersSource refusing = (customer, month) -> {
            asked.incrementAndGet();
            throw new AssertionError("the database is not to be asked");
        };
        try (LoopbackTomcat tomcat = LoopbackTomcat.serving(new RecentOrdersServlet(refusing, new ServerSegments(), page),
                HttpErrors::body).start()) {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(tomcat.baseUri() + path))
                    .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(status);
            if (status == 405) {
                assertThat(r.headers().firstValue("Allow")).contains("GET");
            }
            assertThat(r.body()).startsWith("{").contains("\"error\"").doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(r.body().lines().count()).isEqualTo(1);
            assertThat(asked).as("the database was asked").hasValue(0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"/users/1/orders?month=2026-06, 1, 2026-06", "/users/42/orders?month=0000-01, 42, 0000-01",
            "/users/999999999999999999/orders?month=9999-12, 999999999999999999, 9999-12"})
    @DisplayName("a good request is answered 200 with the customer's month and the source's orders as JSON, in one body, and its times are recorded")
    void answers(String path, long customer, String month) throws Exception {
        ServerSegments segments = new ServerSegments();
        OrdersSource source = (c, m) -> new OrdersSource.Read(List.of(Map.of("order_id", 7L, "status", "PAID")),
                2_000, 30_000);
        try (LoopbackTomcat tomcat = LoopbackTomcat.serving(new RecentOrdersServlet(source, segments, page), HttpErrors::body).start()) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tomcat.baseUri() + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
            assertThat(r.body()).contains("\"user_id\":" + customer).contains("\"month\":\"" + month + "\"")
                    .contains("\"order_id\":7");
            assertThat(segments.awaitIdle(Duration.ofSeconds(5))).isTrue();
            assertThat(segments.requests()).isEqualTo(1);
            assertThat(segments.connectionWaitMeanMicros()).isEqualTo(2.0);
            assertThat(segments.databaseMeanMicros()).isEqualTo(30.0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"/users/1/orders?month=2026-06", "/users/3/orders?month=2026-12"})
    @DisplayName("a database that refuses is a 503 with its one-line message, never a stack trace")
    void databaseRefuses(String path) throws Exception {
        DataSource refusing = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, m, args) -> {
                    throw new SQLException("connection refused\nsecond line");
                });
        OrdersSource orders = new RecentOrdersQuery(refusing, Rung.START.query());
        try (LoopbackTomcat tomcat = LoopbackTomcat.serving(new RecentOrdersServlet(orders, new ServerSegments(), page),
                HttpErrors::body).start()) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(tomcat.baseUri() + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.body()).contains("the database refused: connection refused").doesNotContain("second line");
        }
    }
}
