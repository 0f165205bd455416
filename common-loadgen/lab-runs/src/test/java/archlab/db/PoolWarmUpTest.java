package archlab.db;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.run.LabStore;
import archlab.run.testing.StoreUnderTest;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The trap: a pool warmed with "a query on every table" whose backends still meet the service's own statements cold —
 * parsed, looked up in the catalog and planned in the load's first moments. The warm-up replays what the service had
 * the server prepare, read back from {@code pg_prepared_statements}, planning each on every idle connection and
 * executing none.
 */
class PoolWarmUpTest {

    private static final String LABEL = "warmtest";

    @Test
    @DisplayName("the statements one pool's service had the server prepare — and none of the lab's own — are planned on every idle connection of the next pool of its label, executed never; one the schema cannot plan is counted as refused")
    void theNextPoolPlansWhatTheLastOnePrepared() throws Exception {
        LabStore store = StoreUnderTest.postgres();
        String url = store.jdbcUrl().orElseThrow();
        byte[] suffix = new byte[6];
        ThreadLocalRandom.current().nextBytes(suffix);
        String schema = "lab_warm_" + HexFormat.of().formatHex(suffix);
        PreparedStatementsSeen.forget(LABEL);
        try (Connection admin = DriverManager.getConnection(url); Statement ddl = admin.createStatement()) {
            ddl.execute("CREATE SCHEMA " + schema);
            try {
                // no constraint: an executed INSERT of NULLs would add a row, and the count below would see it
                ddl.execute("CREATE TABLE " + schema + ".t (id text, n integer)");
                try (HikariDataSource first = pool(url, schema)) {
                    waitFull(first);
                    PoolWarmUp.warm(first, schema, List.of()); // the lab's own statements on this pool: never remembered
                    try (Connection c = first.getConnection()) {
                        for (int i = 0; i < 6; i++) {
                            try (PreparedStatement s = c.prepareStatement("INSERT INTO t (id, n) VALUES (?, ?)")) {
                                s.setString(1, "row-" + i);
                                s.setInt(2, i);
                                s.executeUpdate();
                            }
                        }
                    }
                    PreparedStatementsSeen.remember(LABEL, first);
                }
                List<PreparedStatementsSeen.Prepared> seen = PreparedStatementsSeen.of(LABEL);
                assertThat(seen).extracting(PreparedStatementsSeen.Prepared::sql).containsExactly("INSERT INTO t (id, n) VALUES ($1, $2)");
                assertThat(seen.get(0).parameterTypes()).containsExactly("character varying", "integer");
                List<PreparedStatementsSeen.Prepared> withOneItCannotPlan = new java.util.ArrayList<>(seen);
                withOneItCannotPlan.add(new PreparedStatementsSeen.Prepared("SELECT x FROM no_such_table WHERE x = $1", List.of("text")));

                try (HikariDataSource next = pool(url, schema)) {
                    waitFull(next);
                    PoolWarmUp.Warmed warmed = PoolWarmUp.warm(next, schema, withOneItCannotPlan);

                    assertThat(warmed.connections()).isEqualTo(3);
                    assertThat(warmed.statements()).isEqualTo(2);
                    assertThat(warmed.refused()).isEqualTo(1);
                    assertThat(warmed.line()).startsWith("connections=3 tables=1 statements=1 took=")
                            .contains("planned the 1 statements the warm-up's service prepared (1 more refused)");
                    try (Connection c = next.getConnection(); Statement s = c.createStatement();
                         ResultSet r = s.executeQuery("SHOW plan_cache_mode")) {
                        r.next();
                        assertThat(r.getString(1)).as("the session's planning is as before").isEqualTo("auto");
                        try (ResultSet left = s.executeQuery("SELECT count(*) FROM pg_prepared_statements WHERE from_sql")) {
                            left.next();
                            assertThat(left.getLong(1)).as("nothing left prepared").isZero();
                        }
                    }
                }
                try (ResultSet rows = ddl.executeQuery("SELECT count(*) FROM " + schema + ".t")) {
                    rows.next();
                    assertThat(rows.getLong(1)).as("planned, never executed: the first pool's six rows only").isEqualTo(6);
                }
            } finally {
                ddl.execute("DROP SCHEMA " + schema + " CASCADE");
                PreparedStatementsSeen.forget(LABEL);
            }
        }
    }

    private static HikariDataSource pool(String url, String schema) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setSchema(schema);
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(3);
        config.addDataSourceProperty("prepareThreshold", LabDatabase.PREPARE_THRESHOLD); // as the lab's pools
        return new HikariDataSource(config);
    }

    private static void waitFull(HikariDataSource pool) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (pool.getHikariPoolMXBean().getIdleConnections() < 3 && System.nanoTime() < until) {
            Thread.sleep(10); // a real server's connections: nothing to fake
        }
    }
}
