package archlab.ladder.compute;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One order as the answer shows it: the four fields the page needs, with the JSON names the interface has always used.
 * A JavaBean with setters, because a reflection mapper (Dozer) fills its target through them; the generated mapper
 * uses the same setters.
 *
 * <p>Not thread-safe: one request's object.
 */
@JsonPropertyOrder({"order_id", "status", "total_cents", "create_time"})
public final class OrderView {

    private long orderId;
    private String status;
    private long totalCents;
    private String createTime;

    @JsonProperty("order_id")
    public long getOrderId() { return orderId; }
    public void setOrderId(long orderId) { this.orderId = orderId; }
    @JsonProperty("status")
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
    @JsonProperty("total_cents")
    public long getTotalCents() { return totalCents; }
    public void setTotalCents(long totalCents) { this.totalCents = totalCents; }
    @JsonProperty("create_time")
    public String getCreateTime() { return createTime; }
    public void setCreateTime(String createTime) { this.createTime = createTime; }
}
