package archlab.ladder.compute;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each of the business code's four choices: the slow and the fast side give the same answer; what differs is cost. */
class ComputeChoicesTest {

    /** A busy customer's month on the full data set: about 250 orders. */
    static final int ORDERS = 250;

    static List<Map<String, Object>> rows(int n) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("order_id", 1_000_000L + i);
            row.put("user_id", 1L);
            row.put("status", i % 3 == 0 ? "PAID" : "CREATED");
            row.put("total_cents", 100L + 7L * i);
            row.put("create_time", "2026-05-" + String.format("%02d", 1 + i % 28) + "T10:00:00Z");
            row.put("address", "a long address line ".repeat(4));
            row.put("remark", "remark");
            rows.add(row);
        }
        return rows;
    }

    static List<OrderEntity> entities(int n) {
        return rows(n).stream().map(OrderEntity::of).toList();
    }

    @Test
    @DisplayName("Dozer's reflection and MapStruct's generated code map every order to the same view")
    void mappersAgree() {
        List<OrderView> slow = OrderMapping.views(entities(ORDERS), Compute.Mapping.REFLECTION);
        List<OrderView> fast = OrderMapping.views(entities(ORDERS), Compute.Mapping.GENERATED);
        assertThat(fast).hasSize(ORDERS);
        for (int i = 0; i < ORDERS; i++) {
            assertThat(fast.get(i)).usingRecursiveComparison().isEqualTo(slow.get(i));
        }
        assertThat(fast.get(3).getOrderId()).isEqualTo(1_000_003L);
        assertThat(fast.get(3).getCreateTime()).isEqualTo("2026-05-04T10:00:00Z");
    }

    @Test
    @DisplayName("the tag's text built by += in a loop and by one StringBuilder is the same, but += allocates at least 10× the bytes for a busy month")
    void tagTexts() {
        List<OrderView> views = OrderMapping.views(entities(ORDERS), Compute.Mapping.GENERATED);
        assertThat(PageTag.concatenated(views)).isEqualTo(PageTag.built(views));
        assertThat(PageTag.of(views, Compute.Text.CONCAT_IN_LOOP, Compute.Encoding.JSON)).isEqualTo(PageTag.of(views, Compute.Text.BUILDER, Compute.Encoding.JSON)).startsWith("\"");
        long concat = allocated(() -> PageTag.concatenated(views));
        long builder = allocated(() -> PageTag.built(views));
        assertThat(concat).as("+= allocated %d bytes, the builder %d", concat, builder).isGreaterThanOrEqualTo(10 * builder);
    }

    @Test
    @DisplayName("the protobuf body carries the same page as the JSON in fewer bytes")
    void bodies() throws Exception {
        List<OrderView> views = OrderMapping.views(entities(ORDERS), Compute.Mapping.GENERATED);
        YearMonth month = YearMonth.of(2026, 5);
        byte[] json = OrdersBody.encode(1, month, views, Compute.Encoding.JSON);
        byte[] proto = OrdersBody.encode(1, month, views, Compute.Encoding.PROTOBUF);
        archlab.ladder.compute.proto.OrdersPage parsed = archlab.ladder.compute.proto.OrdersPage.parseFrom(proto);
        assertThat(parsed.getOrdersCount()).isEqualTo(ORDERS);
        assertThat(parsed.getOrders(7).getTotalCents()).isEqualTo(views.get(7).getTotalCents());
        assertThat(new String(json, StandardCharsets.UTF_8)).startsWith("{\"user_id\":1,\"month\":\"2026-05\",\"orders\":[{\"order_id\":1000000,");
        assertThat(proto.length).as("protobuf %d bytes, JSON %d", proto.length, json.length).isLessThan(json.length * 3 / 4);
    }

    @Test
    @DisplayName("the synchronous log writes every request's whole answer; the sampled one writes about one request in 100, its key fields only")
    void requestLogs(@TempDir Path dir) throws Exception {
        List<OrderView> views = OrderMapping.views(entities(3), Compute.Mapping.GENERATED);
        OrdersBody.Page page = new OrdersBody.Page(9, "2026-05", views);
        RequestLog whole = RequestLog.in(dir, "whole", Compute.Logging.WHOLE_ANSWER_SYNC);
        assertThat(whole.asynchronous()).as("the whole answer: written by the caller").isFalse();
        for (int i = 0; i < 20; i++) {
            whole.answered(9, YearMonth.of(2026, 5), page, 123);
        }
        assertThat(Files.readAllLines(whole.file())).as("written by the request's thread, before close").hasSize(20)
                .allSatisfy(l -> assertThat(l).contains("INFO").contains("user=9").contains("\"create_time\":\"2026-05-01T10:00:00Z\""));
        whole.close();
        int calls = 20_000;
        RequestLog sampled = RequestLog.in(dir, "sampled", Compute.Logging.SAMPLED_KEYS_ASYNC);
        assertThat(sampled.asynchronous()).as("the sample: through an asynchronous appender").isTrue();
        for (int i = 0; i < calls; i++) {
            sampled.answered(9, YearMonth.of(2026, 5), page, 123);
        }
        sampled.close();
        List<String> lines = Files.readAllLines(sampled.file());
        // one in 100 drawn at random: 200 expected; 120..300 holds but for a 1-in-10^9 draw
        assertThat(lines).hasSizeBetween(120, 300)
                .allSatisfy(l -> assertThat(l).contains("user=9 month=2026-05 orders=3 bytes=123").doesNotContain("create_time"));
    }

    @Test
    @DisplayName("a request log that cannot open its file says so when it is made, instead of dropping every line")
    void unwritableLog(@TempDir Path dir) throws Exception {
        Path blocker = Files.writeString(dir.resolve("a-file"), "not a folder");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RequestLog("bad", blocker.resolve("x.log"),
                Compute.Logging.WHOLE_ANSWER_SYNC)).isInstanceOf(IllegalStateException.class).hasMessageContaining("x.log");
    }

    private static long allocated(Runnable r) {
        r.run(); // classes loaded, call sites linked
        long before = ComputeSegments.allocatedBytes();
        r.run();
        return ComputeSegments.allocatedBytes() - before;
    }
}
