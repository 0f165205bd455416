package archlab.ladder;

import archlab.db.ladder.LadderQuery;
import archlab.db.ladder.LadderQuery.Columns;
import archlab.db.ladder.LadderQuery.LockOrder;
import archlab.db.ladder.LadderQuery.OrdersIndex;
import archlab.db.ladder.LadderQuery.TimeFilter;
import archlab.ladder.compute.Compute;
import archlab.ladder.monitor.Tracing;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One rung of the source article's ladder: the recent-orders query of one customer's month, served over HTTP from
 * PostgreSQL, in one combination of the article's slow and fast choices. {@link #LADDER} starts with every slow choice
 * and makes one change per rung — the storage layer's in the order the article lists them, then the network's, then
 * the business code's ({@link Compute}: the tag's text, the mapper, the body's format, the request log), then the
 * monitoring's ({@link Tracing}) — so each rung's figures differ from the rung before by that change alone. The
 * network's come after the storage's (the article made them first) because on loopback Nagle's stall hides behind the
 * missing keep-alive: a new connection's first answer is ACKed at once (Linux starts a connection in quick-ACK mode),
 * so only once keep-alive is on does the stall appear, and TCP_NODELAY then removes it.
 *
 * <p>The traps, each beside its fix:
 * <ul>
 * <li>{@link LadderQuery.TimeFilter#FUNCTION_OF_COLUMN} — {@code to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM') = ?}: the index on
 *     {@code (user_id, create_time)} can only find the customer; every order of theirs is read from the table and the
 *     function is evaluated on it. {@link LadderQuery.TimeFilter#RANGE}: {@code create_time >= ? AND create_time < ?}, an index
 *     range.</li>
 * <li>{@link LadderQuery.Columns#ALL} — {@code SELECT *}, every column (the wide {@code address} and {@code remark} too), from the
 *     table. {@link LadderQuery.Columns#NEEDED}: the four the page shows.</li>
 * <li>{@link LadderQuery.OrdersIndex#COMPOSITE} — {@code (user_id, create_time)}: finds the rows, then visits the table for each.
 *     {@link LadderQuery.OrdersIndex#COVERING}: {@code (user_id, create_time) INCLUDE (order_id, status, total_cents)}, an Index
 *     Only Scan that visits the table only for pages the visibility map does not vouch for (heap fetches).</li>
 * <li>{@link LadderQuery.LockOrder#UPDATE_THEN_QUERY} — one transaction stamps the customer's {@code last_seen} first, then runs
 *     the query: the customer's row stays locked through the query and the commit's flush, so a busy customer's
 *     requests queue on it. {@link LadderQuery.LockOrder#QUERY_THEN_UPDATE}: the query first, outside any lock, then the stamp
 *     as a statement of its own.</li>
 * <li>keep-alive off — every request a new TCP connection (Tomcat closes each after one answer). On: connections
 *     kept.</li>
 * <li>Nagle on — the answer is written in two parts (headers flushed, then the body) with {@code TCP_NODELAY} off: the
 *     kernel holds the body until the client acknowledges the headers, and the client, having nothing to send, delays
 *     that ACK. {@code TCP_NODELAY} on: the body leaves at once.</li>
 * <li>the business code's four, each in {@link Compute}: {@code +=} in a loop beside a {@link StringBuilder}, Dozer's
 *     reflection beside MapStruct's generated code, JSON beside protobuf, the whole answer logged synchronously beside
 *     a sample's key fields queued for an asynchronous appender.</li>
 * <li>{@link Tracing#EVERY_REQUEST} — every request traced with its whole answer, each span exported on the request's
 *     thread. {@link Tracing#SAMPLED}: one trace in a hundred, key fields, exported in batches.</li>
 * </ul>
 *
 * @param name    a short label, unique in the ladder
 * @param change  what this rung changed from the one before (the start: "the slow start")
 * @param query   the storage layer's choices (its SQL: {@link LadderQuery})
 * @param network the network layer's choices
 * @param compute the business code's choices
 * @param tracing how the requests are traced
 */
public record Rung(String name, String change, LadderQuery query, Network network, Compute compute, Tracing tracing) {

    /**
     * The network layer's choices.
     *
     * @param keepAlive  whether a connection carries more than one request
     * @param tcpNoDelay whether the server's sockets send small writes at once (false: Nagle's algorithm on, and the
     *                   answer written in two parts)
     */
    public record Network(boolean keepAlive, boolean tcpNoDelay) {
    }

    /** Every slow choice at once. */
    public static final Rung START = new Rung("start", "the slow start", new LadderQuery(TimeFilter.FUNCTION_OF_COLUMN,
            Columns.ALL, OrdersIndex.COMPOSITE, LockOrder.UPDATE_THEN_QUERY), new Network(false, false), Compute.SLOW,
            Tracing.EVERY_REQUEST);

    /** The start, then one change per rung: the storage layer's, the network's, the business code's, the monitoring's. */
    public static final List<Rung> LADDER = ladder();

    public Rung {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(compute, "compute");
        Objects.requireNonNull(tracing, "tracing");
    }

    private static List<Rung> ladder() {
        List<Rung> rungs = new ArrayList<>();
        rungs.add(START);
        Rung r = START;
        r = add(rungs, new Rung("range", "to_char(create_time) = month → create_time in [month, next month)",
                r.query.with(TimeFilter.RANGE), r.network, r.compute, r.tracing));
        r = add(rungs, new Rung("columns", "SELECT * → the four columns shown", r.query.with(Columns.NEEDED), r.network, r.compute, r.tracing));
        r = add(rungs, new Rung("covering", "index (user_id, create_time) → the same INCLUDE (order_id, status, total_cents)",
                r.query.with(OrdersIndex.COVERING), r.network, r.compute, r.tracing));
        r = add(rungs, new Rung("lock-order", "update-then-query in one transaction → query, then the stamp on its own",
                r.query.with(LockOrder.QUERY_THEN_UPDATE), r.network, r.compute, r.tracing));
        r = add(rungs, new Rung("keep-alive", "keep-alive on: connections kept between requests", r.query,
                new Network(true, r.network.tcpNoDelay()), r.compute, r.tracing));
        r = add(rungs, new Rung("tcp-nodelay", "TCP_NODELAY on: the answer's second write leaves at once", r.query,
                new Network(r.network.keepAlive(), true), r.compute, r.tracing));
        r = add(rungs, new Rung("string-builder", "the tag's text: += in a loop → one StringBuilder", r.query, r.network,
                r.compute.with(Compute.Text.BUILDER), r.tracing));
        r = add(rungs, new Rung("mapstruct", "rows to views: Dozer (reflection) → MapStruct (generated at compile time)",
                r.query, r.network, r.compute.with(Compute.Mapping.GENERATED), r.tracing));
        r = add(rungs, new Rung("protobuf", "the body: JSON (Jackson) → protobuf", r.query, r.network,
                r.compute.with(Compute.Encoding.PROTOBUF), r.tracing));
        r = add(rungs, new Rung("sampled-log", "the request log: whole answer, INFO, synchronous → 1 in 100, key fields, asynchronous",
                r.query, r.network, r.compute.with(Compute.Logging.SAMPLED_KEYS_ASYNC), r.tracing));
        add(rungs, new Rung("sampled-trace", "tracing: every request, whole answer, exported on its thread → 1 in 100, key fields, batched",
                r.query, r.network, r.compute, Tracing.SAMPLED));
        return List.copyOf(rungs);
    }

    private static Rung add(List<Rung> rungs, Rung r) {
        rungs.add(r);
        return r;
    }

    /** @return the rung called {@code name}; IllegalArgumentException naming the ladder's rungs otherwise */
    public static Rung named(String name) {
        return LADDER.stream().filter(r -> r.name.equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no rung '" + name + "': the ladder's rungs are " + LADDER.stream().map(Rung::name).toList()));
    }
}
