package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.db.LabDatabase;
import archlab.run.testing.StoreUnderTest;
import archlab.request.RequestContext;
import archlab.run.LabStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The order table's contract ({@link OrderTableContract}) on the PostgreSQL table, each test on a fresh schema of the
 * lab's server ({@code bash .servers/postgres.sh start}, or {@code -Dlab.jdbc.url}); skipped, saying so, without one.
 * Plus what only a database does: a unit of work that fails is rolled back.
 */
class PostgresOrderTableTest extends OrderTableContract {

    private LabStore store;
    private LabDatabase database;

    @BeforeEach
    void server() {
        store = StoreUnderTest.postgres();
    }

    @Override
    OrderTable freshTable() {
        if (database != null) {
            database.close();
        }
        database = LabDatabase.open(store.jdbcUrl().orElseThrow(), "contract", 2);
        return new PostgresOrderTable(database.dataSource());
    }

    @AfterEach
    void dropTheSchema() {
        if (database != null) {
            database.close();
            database = null;
        }
    }

    @Test
    @DisplayName("a unit of work that throws is rolled back: an order marked PAID inside it is CREATED again for the next")
    void aFailedUnitOfWorkIsRolledBack() {
        OrderTable table = freshTable();
        RequestContext ctx = RequestContext.background();
        String id = table.locked(ctx, rows -> rows.insert("cust", List.of(new Item("sku-a", 1, 100)), 100).id());
        IllegalStateException late = new IllegalStateException("failed after the update");

        assertThatThrownBy(() -> table.locked(ctx, rows -> {
            rows.markPaid(rows.find(id));
            throw late;
        })).isSameAs(late);

        Order after = table.locked(ctx, rows -> rows.find(id));
        assertThat(after).extracting(Order::status, Order::version).containsExactly(OrderStatus.CREATED, 0);
        assertThat(table.isPaid(id)).isFalse();
    }
}
