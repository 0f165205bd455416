package archlab.db.ladder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What PostgreSQL's {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)} said of one execution, in the terms the article's
 * 10 ms rule reads (MySQL's {@code type}, {@code rows}, {@code Extra} have these counterparts): the plan's nodes
 * ({@code Index Only Scan} vs {@code Index Scan} vs {@code Seq Scan}; a {@code Sort} is MySQL's "Using filesort"), the
 * rows returned and the rows read and thrown away by a filter, the table pages an index-only scan still had to visit
 * (heap fetches), the buffers touched, and the execution time.
 *
 * @param nodes           the plan's nodes, outermost first, e.g. {@code Index Only Scan Backward using orders_user_time on orders}
 * @param counts          its rows, filtered rows, heap fetches and buffers
 * @param sortMethod      the sort's method, e.g. {@code quicksort}; empty when nothing was sorted
 * @param executionMillis the server's execution time, ms
 */
public record PlanSummary(List<String> nodes, Counts counts, String sortMethod, double executionMillis) {

    /**
     * @param rows            rows the plan returned
     * @param removedByFilter rows read, then thrown away by a filter (summed over the nodes)
     * @param heapFetches     the table visits of the index-only scans; -1 when the plan has none
     * @param buffers         shared buffers hit or read (the plan's total)
     */
    public record Counts(long rows, long removedByFilter, long heapFetches, long buffers) {
    }

    /** @return rows the plan returned */
    public long rows() {
        return counts.rows();
    }

    /** @return rows read, then thrown away by a filter */
    public long removedByFilter() {
        return counts.removedByFilter();
    }

    /** @return the index-only scans' table visits; -1 when the plan has none */
    public long heapFetches() {
        return counts.heapFetches();
    }

    /** @return shared buffers hit or read */
    public long buffers() {
        return counts.buffers();
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public PlanSummary {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a plan has at least one node");
        }
    }

    /** @return whether some node is an index-only scan */
    public boolean indexOnly() {
        return nodes.stream().anyMatch(n -> n.startsWith("Index Only Scan"));
    }

    /**
     * @return the plan in a few words, for a table cell: the node that reads the table or the index (the first, outermost
     *         first, that names a relation), then what the 10 ms rule looks at — rows thrown away by a filter, an
     *         index-only scan's heap fetches, a sort
     */
    public String headline() {
        String reader = nodes.stream().filter(n -> n.contains(" on ")).findFirst().orElse(nodes.get(nodes.size() - 1));
        StringBuilder b = new StringBuilder(reader);
        if (removedByFilter() > 0) {
            b.append(", ").append(removedByFilter()).append(" rows filtered out");
        }
        if (heapFetches() >= 0) {
            b.append(", ").append(heapFetches()).append(" heap fetches");
        }
        if (!sortMethod.isEmpty()) {
            b.append(", then a sort");
        }
        return b.toString();
    }

    /** @return one line: the nodes, then the figures */
    public String line() {
        return String.join(" → ", nodes) + "; rows=" + rows() + " removed_by_filter=" + removedByFilter()
                + (heapFetches() >= 0 ? " heap_fetches=" + heapFetches() : "") + " buffers=" + buffers()
                + (sortMethod.isEmpty() ? "" : " sort=" + sortMethod) + String.format(" execution=%.3fms", executionMillis);
    }

    /**
     * Runs {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)} of {@code sql} with its parameters bound by {@code bind}.
     * Analyze executes the statement: give it a query.
     */
    static PlanSummary explain(Connection c, String sql, Binder bind) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)) {
            bind.bind(s);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return parse(r.getString(1));
            }
        }
    }

    /** Binds a statement's parameters. */
    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement s) throws SQLException;
    }

    /**
     * @param json EXPLAIN's JSON output
     * @throws IllegalArgumentException when it is not an EXPLAIN ANALYZE plan
     */
    public static PlanSummary parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        JsonNode top = root.path(0);
        JsonNode plan = top.path("Plan");
        if (!plan.isObject() || !top.path("Execution Time").isNumber()) {
            throw new IllegalArgumentException("not the JSON of EXPLAIN (ANALYZE, FORMAT JSON): " + abbreviate(json));
        }
        List<String> nodes = new ArrayList<>();
        long[] sums = new long[2]; // removed by filter, heap fetches
        boolean[] indexOnly = {false};
        String[] sort = {""};
        walk(plan, nodes, sums, indexOnly, sort);
        long buffers = plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong();
        Counts counts = new Counts(plan.path("Actual Rows").asLong(), sums[0], indexOnly[0] ? sums[1] : -1, buffers);
        return new PlanSummary(nodes, counts, sort[0], top.path("Execution Time").asDouble());
    }

    private static void walk(JsonNode node, List<String> nodes, long[] sums, boolean[] indexOnly, String[] sort) {
        String type = node.path("Node Type").asText();
        StringBuilder name = new StringBuilder(type);
        if ("Backward".equals(node.path("Scan Direction").asText())) {
            name.append(" Backward");
        }
        if (node.has("Index Name")) {
            name.append(" using ").append(node.path("Index Name").asText());
        }
        if (node.has("Relation Name")) {
            name.append(" on ").append(node.path("Relation Name").asText());
        }
        nodes.add(name.toString());
        sums[0] += node.path("Rows Removed by Filter").asLong();
        if ("Index Only Scan".equals(type)) {
            indexOnly[0] = true;
            sums[1] += node.path("Heap Fetches").asLong();
        }
        if (node.has("Sort Method")) {
            sort[0] = node.path("Sort Method").asText();
        }
        for (JsonNode child : node.path("Plans")) {
            walk(child, nodes, sums, indexOnly, sort);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
}
