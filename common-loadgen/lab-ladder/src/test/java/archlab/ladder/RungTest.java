package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.db.ladder.LadderQuery;
import archlab.ladder.compute.Compute;
import archlab.ladder.monitor.Tracing;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RungTest {

    private static List<Object> choices(Rung r) {
        List<Object> c = new ArrayList<>(List.of(r.query().timeFilter(), r.query().columns(), r.query().index(),
                r.query().lockOrder()));
        c.add(r.network().keepAlive());
        c.add(r.network().tcpNoDelay());
        c.addAll(List.of(r.compute().text(), r.compute().mapping(), r.compute().encoding(), r.compute().logging()));
        c.add(r.tracing());
        return c;
    }

    @Test
    @DisplayName("the ladder starts with every slow choice, changes exactly one choice per rung, never changes one back, and ends with every fast one")
    void oneChangePerRung() {
        assertThat(Rung.LADDER.get(0)).isEqualTo(Rung.START);
        assertThat(Rung.LADDER).hasSizeGreaterThanOrEqualTo(6);
        List<Object> changed = new ArrayList<>();
        for (int i = 1; i < Rung.LADDER.size(); i++) {
            List<Object> before = choices(Rung.LADDER.get(i - 1));
            List<Object> after = choices(Rung.LADDER.get(i));
            List<Integer> differing = new ArrayList<>();
            for (int k = 0; k < before.size(); k++) {
                if (!before.get(k).equals(after.get(k))) {
                    differing.add(k);
                }
            }
            assertThat(differing).as("rung %s", Rung.LADDER.get(i).name()).hasSize(1);
            assertThat(changed).as("a choice changed twice").doesNotContain(differing.get(0));
            changed.add(differing.get(0));
        }
        Rung last = Rung.LADDER.get(Rung.LADDER.size() - 1);
        assertThat(choices(last)).containsExactly(LadderQuery.TimeFilter.RANGE, LadderQuery.Columns.NEEDED,
                LadderQuery.OrdersIndex.COVERING, LadderQuery.LockOrder.QUERY_THEN_UPDATE, true, true,
                Compute.Text.BUILDER, Compute.Mapping.GENERATED, Compute.Encoding.PROTOBUF, Compute.Logging.SAMPLED_KEYS_ASYNC,
                Tracing.SAMPLED);
        assertThat(Rung.START.tracing()).isEqualTo(Tracing.EVERY_REQUEST);
        assertThat(Rung.START.compute()).isEqualTo(Compute.SLOW);
        assertThat(last.compute()).isEqualTo(Compute.FAST);
        assertThat(Rung.LADDER.stream().map(Rung::name).distinct()).hasSameSizeAs(Rung.LADDER);
    }

    @Test
    @DisplayName("the start's query wraps the time column in a function and selects every column; the range rung's reads an index range; the covering index includes the columns the page shows")
    void statements() {
        assertThat(Rung.START.query().querySql()).contains("SELECT *").contains("to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM') = ?");
        Rung range = Rung.named("range");
        assertThat(range.query().querySql()).contains("create_time >= ?").doesNotContain("to_char");
        assertThat(Rung.named("columns").query().querySql()).startsWith("SELECT " + LadderQuery.NEEDED_COLUMNS + " FROM orders");
        assertThat(Rung.START.query().indexDdl()).doesNotContain("INCLUDE");
        assertThat(Rung.named("covering").query().indexDdl()).endsWith("(user_id, create_time) INCLUDE (order_id, status, total_cents)");
        assertThatThrownBy(() -> Rung.named("nope")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("start").hasMessageContaining("tcp-nodelay");
    }
}
