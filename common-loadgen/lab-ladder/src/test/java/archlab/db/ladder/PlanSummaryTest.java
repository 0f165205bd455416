package archlab.db.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PlanSummaryTest {

    /** PostgreSQL 15's EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the start rung's query, trimmed to the fields read. */
    static final String FILTERED = """
            [{"Plan": {"Node Type": "Sort", "Actual Rows": 246, "Sort Method": "quicksort", "Shared Hit Blocks": 3000,
              "Shared Read Blocks": 17, "Plans": [{"Node Type": "Bitmap Heap Scan", "Relation Name": "orders",
              "Actual Rows": 246, "Rows Removed by Filter": 2757, "Plans": [{"Node Type": "Bitmap Index Scan",
              "Index Name": "orders_user_time", "Actual Rows": 3003}]}]}, "Planning Time": 0.2, "Execution Time": 6.652}]
            """;
    static final String INDEX_ONLY = """
            [{"Plan": {"Node Type": "Index Only Scan", "Scan Direction": "Backward", "Index Name": "orders_user_time",
              "Relation Name": "orders", "Actual Rows": 246, "Heap Fetches": 0, "Shared Hit Blocks": 6},
              "Planning Time": 0.1, "Execution Time": 0.125}]
            """;

    @Test
    @DisplayName("a plan that filters after the table: its nodes outermost first, rows removed by the filter, the sort's method, no heap-fetch figure")
    void filtered() {
        PlanSummary p = PlanSummary.parse(FILTERED);
        assertThat(p.nodes()).containsExactly("Sort", "Bitmap Heap Scan on orders", "Bitmap Index Scan using orders_user_time");
        assertThat(p.rows()).isEqualTo(246);
        assertThat(p.removedByFilter()).isEqualTo(2757);
        assertThat(p.heapFetches()).isEqualTo(-1);
        assertThat(p.buffers()).isEqualTo(3017);
        assertThat(p.sortMethod()).isEqualTo("quicksort");
        assertThat(p.indexOnly()).isFalse();
        assertThat(p.line()).contains("removed_by_filter=2757").contains("sort=quicksort").doesNotContain("heap_fetches");
    }

    @Test
    @DisplayName("an index-only scan: named with its direction and index, its heap fetches counted")
    void indexOnly() {
        PlanSummary p = PlanSummary.parse(INDEX_ONLY);
        assertThat(p.nodes()).containsExactly("Index Only Scan Backward using orders_user_time on orders");
        assertThat(p.indexOnly()).isTrue();
        assertThat(p.heapFetches()).isZero();
        assertThat(p.line()).contains("heap_fetches=0").contains("execution=0.125ms");
    }

    @Test
    @DisplayName("text that is not EXPLAIN ANALYZE's JSON is refused with a one-line message")
    void notAPlan() {
        assertThatThrownBy(() -> PlanSummary.parse("Seq Scan on orders")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not JSON");
        assertThatThrownBy(() -> PlanSummary.parse("[{\"Plan\": {}}]")).hasMessageContaining("not the JSON of EXPLAIN");
    }
}
