package archlab.jmh;

import archlab.ladder.compute.Compute;
import archlab.ladder.compute.OrderEntity;
import archlab.ladder.compute.OrderMapping;
import archlab.ladder.compute.OrderView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The compute benchmarks' input: one busy customer's month on the ladder's full data set, about 250 orders. */
final class BusyMonth {

    /** Orders in the month: a busy customer's 3,003 orders over 12 months. */
    static final int ORDERS = 250;

    private BusyMonth() {
    }

    /** @return the month's rows as the query hands them over (SELECT *: every column) */
    static List<OrderEntity> entities() {
        List<OrderEntity> entities = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("order_id", 1_000_000L + 37L * i);
            row.put("user_id", 1L);
            row.put("status", i % 3 == 0 ? "PAID" : "CREATED");
            row.put("total_cents", 100L + 7L * i);
            row.put("create_time", String.format("2026-05-%02dT10:%02d:00Z", 1 + i % 28, i % 60));
            row.put("address", "No. " + i + ", a long street name, a district, a city, a province");
            row.put("remark", "leave it at the door");
            entities.add(OrderEntity.of(row));
        }
        return entities;
    }

    /** @return the month's views */
    static List<OrderView> views() {
        return OrderMapping.views(entities(), Compute.Mapping.GENERATED);
    }
}
