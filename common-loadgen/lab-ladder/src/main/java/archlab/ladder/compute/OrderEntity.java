package archlab.ladder.compute;

import java.util.Map;

/**
 * One order as the data layer hands it over: a JavaBean with every column the query read (the wide {@code address} and
 * {@code remark} too when it read {@code SELECT *}), as a MyBatis or JPA mapping would fill it. A JavaBean, not a
 * record, because that is what a reflection mapper reads (getters by name).
 *
 * <p>Not thread-safe: one request's object.
 */
public final class OrderEntity {

    private long orderId;
    private long userId;
    private String status;
    private long totalCents;
    private String createTime;
    private String address;
    private String remark;

    /** @return the entity of one row of the query (column label to value, times as ISO-8601 text) */
    public static OrderEntity of(Map<String, Object> row) {
        OrderEntity e = new OrderEntity();
        e.orderId = number(row.get("order_id"));
        e.userId = number(row.get("user_id"));
        e.status = (String) row.get("status");
        e.totalCents = number(row.get("total_cents"));
        e.createTime = (String) row.get("create_time");
        e.address = (String) row.get("address");
        e.remark = (String) row.get("remark");
        return e;
    }

    private static long number(Object v) {
        return v instanceof Number n ? n.longValue() : 0;
    }

    public long getOrderId() { return orderId; }
    public void setOrderId(long orderId) { this.orderId = orderId; }
    public long getUserId() { return userId; }
    public void setUserId(long userId) { this.userId = userId; }
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
    public long getTotalCents() { return totalCents; }
    public void setTotalCents(long totalCents) { this.totalCents = totalCents; }
    public String getCreateTime() { return createTime; }
    public void setCreateTime(String createTime) { this.createTime = createTime; }
    public String getAddress() { return address; }
    public void setAddress(String address) { this.address = address; }
    public String getRemark() { return remark; }
    public void setRemark(String remark) { this.remark = remark; }
}
