package archlab.ladder.compute;

import archlab.ladder.compute.proto.OrderLine;
import archlab.ladder.compute.proto.OrdersPage;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.time.YearMonth;
import java.util.List;

/**
 * The answer's body in the format a {@link Compute.Encoding} says, with the same fields either way: the customer, the
 * month, and each order's id, status, total and time.
 *
 * <p>Thread-safe (Jackson's mapper is, once configured; protobuf's builders are per call).
 */
public final class OrdersBody {

    /** The JSON's media type. */
    public static final String JSON_TYPE = "application/json";
    /** The protobuf's media type. */
    public static final String PROTOBUF_TYPE = "application/x-protobuf";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The page as JSON sees it (immutable; its views are the request's own).
     *
     * @param customer the customer whose page it is
     * @param month    the month, YYYY-MM
     * @param orders   the orders, newest first
     */
    public record Page(@com.fasterxml.jackson.annotation.JsonProperty("user_id") long customer, String month,
                       List<OrderView> orders) {
    }

    private OrdersBody() {
    }

    /** @return the media type of {@code encoding}'s body */
    public static String mediaType(Compute.Encoding encoding) {
        return encoding == Compute.Encoding.JSON ? JSON_TYPE : PROTOBUF_TYPE;
    }

    /** @return the body of {@code customer}'s page of {@code month} */
    public static byte[] encode(long customer, YearMonth month, List<OrderView> views, Compute.Encoding encoding) {
        return encoding == Compute.Encoding.JSON ? json(new Page(customer, month.toString(), views)) : protobuf(customer, month, views);
    }

    /** @return {@code page} as JSON text's bytes (Jackson, by reflection on the first call, then its cached serialisers) */
    public static byte[] json(Page page) {
        try {
            return JSON.writeValueAsBytes(page);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("the page could not be written as JSON", e);
        }
    }

    /** @return the same page as protobuf (code protoc generated: field tags and varints, no names) */
    static byte[] protobuf(long customer, YearMonth month, List<OrderView> views) {
        OrdersPage.Builder page = OrdersPage.newBuilder().setUserId(customer).setMonth(month.toString());
        for (OrderView v : views) {
            page.addOrders(OrderLine.newBuilder().setOrderId(v.getOrderId()).setStatus(v.getStatus())
                    .setTotalCents(v.getTotalCents()).setCreateTime(v.getCreateTime()));
        }
        return page.build().toByteArray();
    }
}
