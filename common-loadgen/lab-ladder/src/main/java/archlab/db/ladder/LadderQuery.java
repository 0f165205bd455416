package archlab.db.ladder;

import java.util.Objects;

/**
 * The storage layer's choices of one rung of the ladder, and the SQL they make: how the month is selected, which
 * columns are read, the orders index, and where the customer's {@code last_seen} stamp is written
 * ({@code archlab.ladder.Rung} says what each trap costs and its fix).
 *
 * @param timeFilter how the month is selected
 * @param columns    which columns are read
 * @param index      the orders table's index beside its primary key
 * @param lockOrder  where the customer's stamp is written
 *
 * <p>Immutable.
 */
public record LadderQuery(TimeFilter timeFilter, Columns columns, OrdersIndex index, LockOrder lockOrder) {

    /** How the month is selected. */
    public enum TimeFilter { FUNCTION_OF_COLUMN, RANGE }

    /** Which columns are read. */
    public enum Columns { ALL, NEEDED }

    /** The orders table's index beside its primary key. */
    public enum OrdersIndex { COMPOSITE, COVERING }

    /** Where the customer's {@code last_seen} stamp is written. */
    public enum LockOrder { UPDATE_THEN_QUERY, QUERY_THEN_UPDATE }

    /** The four columns the page shows. */
    public static final String NEEDED_COLUMNS = "order_id, status, total_cents, create_time";

    public LadderQuery {
        Objects.requireNonNull(timeFilter, "timeFilter");
        Objects.requireNonNull(columns, "columns");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(lockOrder, "lockOrder");
    }

    /** @return these choices with {@code t} instead */
    /** @return these choices with {@code t} instead */
    public LadderQuery with(TimeFilter t) { return new LadderQuery(t, columns, index, lockOrder); }

    /** @return these choices with {@code c} instead */
    public LadderQuery with(Columns c) { return new LadderQuery(timeFilter, c, index, lockOrder); }

    /** @return these choices with {@code i} instead */
    public LadderQuery with(OrdersIndex i) { return new LadderQuery(timeFilter, columns, i, lockOrder); }

    /** @return these choices with {@code l} instead */
    public LadderQuery with(LockOrder l) { return new LadderQuery(timeFilter, columns, index, l); }

    // tag::queries[]
    /**
     * @return the query. Its parameters: the customer's id, then the month — a {@code YYYY-MM} text for
     *         {@link TimeFilter#FUNCTION_OF_COLUMN}, the month's first instant and the next month's for
     *         {@link TimeFilter#RANGE} (both in UTC, bound by the caller, so the session's time zone plays no part in
     *         either form)
     */
    public String querySql() {
        String select = columns == Columns.ALL ? "*" : NEEDED_COLUMNS;
        String month = timeFilter == TimeFilter.FUNCTION_OF_COLUMN
                ? "to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM') = ?"
                : "create_time >= ? AND create_time < ?";
        return "SELECT " + select + QUERY_MARK + "user_id = ? AND " + month + " ORDER BY create_time DESC";
    }
    // end::queries[]

    /** How the stamp's text begins, as the server reports it (pg_stat_statements, auto_explain's log). */
    public static final String STAMP_PREFIX = "UPDATE users SET last_seen";
    /** What every form of the query's text holds, as the server reports it. */
    public static final String QUERY_MARK = " FROM orders WHERE ";

    /** @return the stamp of the customer's visit, one parameter: the customer's id */
    public static String stampSql() {
        return STAMP_PREFIX + " = now() WHERE user_id = ?";
    }

    /** @return whether {@code text}, a statement as the server reports it, is the customer's stamp */
    public static boolean isStamp(String text) {
        return text.startsWith(STAMP_PREFIX);
    }

    /**
     * @return whether {@code text}, a statement as the server reports it, is one of the interface's (its query or its
     *         stamp), not the lab's own (the commit probe, the pool's warm-up)
     */
    public static boolean isInterfaces(String text) {
        return isStamp(text) || (text.startsWith("SELECT ") && text.contains(QUERY_MARK));
    }

    /** @return the orders index's definition (its name: {@value LadderDataSet#ORDERS_INDEX}) */
    public String indexDdl() {
        return "CREATE INDEX " + LadderDataSet.ORDERS_INDEX + " ON orders (user_id, create_time)"
                + (index == OrdersIndex.COVERING ? " INCLUDE (order_id, status, total_cents)" : "");
    }
}
