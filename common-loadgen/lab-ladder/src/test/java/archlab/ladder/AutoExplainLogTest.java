package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AutoExplainLogTest {

    /** Two entries of the interface, one of the lab's commit probe, and a line of another kind, as PostgreSQL 15 logs them. */
    static final String LOG = """
            2026-12-07 11:00:00.000 UTC [1234] LOG:  duration: 15.123 ms  plan:
            \tQuery Text: SELECT * FROM orders WHERE user_id = $1 AND to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM') = $2 ORDER BY create_time DESC
            \tSort  (cost=10.00..10.50 rows=20 width=200)
            \t  Sort Key: create_time DESC
            \t  ->  Bitmap Heap Scan on orders  (cost=4.00..9.00 rows=20 width=200)
            \t        Recheck Cond: (user_id = $1)
            \t        ->  Bitmap Index Scan on orders_user_time  (cost=0.00..4.00 rows=3000 width=0)
            2026-12-07 11:00:00.100 UTC [1235] LOG:  duration: 44.900 ms  plan:
            \tQuery Text: UPDATE users SET last_seen = now() WHERE user_id = $1
            \tUpdate on users  (cost=0.29..8.31 rows=0 width=0)
            2026-12-07 11:00:00.200 UTC [1236] LOG:  duration: 99.000 ms  plan:
            \tQuery Text: INSERT INTO archlab_commit_probe VALUES ($1)
            \tInsert on archlab_commit_probe  (cost=0.00..0.01 rows=0 width=0)
            2026-12-07 11:00:00.300 UTC [1237] LOG:  checkpoint starting: time
            """;

    @Test
    @DisplayName("the log's entries of the interface's statements are counted and the slowest kept with its first plan lines; the lab's own statements and other lines are not")
    void parses() {
        AutoExplainLog.Entries e = AutoExplainLog.parse(LOG, false);
        assertThat(e.count()).isEqualTo(2);
        AutoExplainLog.Entry slowest = e.slowest().orElseThrow();
        assertThat(slowest.durationMillis()).isEqualTo(44.9);
        assertThat(slowest.queryText()).startsWith("UPDATE users SET last_seen");
        assertThat(slowest.planLines()).containsExactly("Update on users  (cost=0.29..8.31 rows=0 width=0)");
        AutoExplainLog.Entries select = AutoExplainLog.parse(LOG.substring(0, LOG.indexOf("2026-12-07 11:00:00.100")), false);
        assertThat(select.slowest().orElseThrow().planLines()).hasSize(AutoExplainLog.PLAN_LINES)
                .first().asString().startsWith("Sort");
        assertThat(AutoExplainLog.parse("", false).count()).isZero();
    }

    @Test
    @DisplayName("a phase reads what the log gained after its mark, nothing before it")
    void readsFromTheMark(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("postgres.log");
        Files.writeString(log, LOG);
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo.resolve(".servers"));
        Files.createDirectories(repo.resolve("target/servers/postgres"));
        Files.writeString(repo.resolve(AutoExplainLog.PATH_FILE), log + "\n");
        AutoExplainLog found = AutoExplainLog.find(repo.resolve("module")).orElseThrow();
        long mark = found.mark();
        assertThat(found.since(mark).count()).isZero();
        Files.writeString(log, LOG, java.nio.file.StandardOpenOption.APPEND);
        assertThat(found.since(mark).count()).isEqualTo(2);
        assertThat(AutoExplainLog.find(dir.resolve("elsewhere"))).isEmpty();
    }
}
