package archlab.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import archlab.run.testing.StoreUnderTest;
import archlab.run.LabStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommitProbeTest {

    @ParameterizedTest(name = "schema \"{0}\"")
    @ValueSource(strings = {"", "public", "lab_", "lab_x; DROP TABLE t", "lab_X", "lab_a.b", "pg_catalog"})
    @DisplayName("a schema that is not a lab schema is refused before connecting")
    void notALabSchemaIsRefused(String schema) {
        assertThatIllegalArgumentException().isThrownBy(() -> CommitProbe.start("jdbc:postgresql://127.0.0.1:1/none", schema))
                .withMessageContaining("lab schema");
    }

    @Test
    @DisplayName("the disk kept pace only when the probe committed, never failed, and waited at most the share asked for")
    void keptPaceNeedsCommitsNoFailuresAndASmallShare() {
        CommitProbe.Figures fine = new CommitProbe.Figures(300_000, 5_000_000, 9_000_000, 290, 0.05, CommitProbe.Failures.NONE);
        assertThat(fine.keptPace(0.25)).isTrue();
        assertThat(new CommitProbe.Figures(30_000_000, 90_000_000, 900_000_000, 80, 0.74, CommitProbe.Failures.NONE).keptPace(0.25))
                .as("a disk that flushed slowly all along").isFalse();
        assertThat(new CommitProbe.Figures(300_000, 5_000_000, 9_000_000, 290, 0.05, new CommitProbe.Failures(1, "gone")).keptPace(0.25))
                .as("a probe that failed measured nothing it can vouch for").isFalse();
        assertThat(new CommitProbe.Figures(0, 0, 0, 0, 0, CommitProbe.Failures.NONE).keptPace(0.25)).as("no commit, no evidence").isFalse();
        assertThat(fine.line()).startsWith("one-row commit every 10ms on its own connection p50=0.300ms p99=5.000ms max=9.000ms n=290"
                + " wait_share=5.0% failures=0");
    }

    @Test
    @DisplayName("on the lab's PostgreSQL the probe commits a row every 10 ms until stopped, and counts exactly the rows it wrote")
    void probeCommitsUntilStopped() throws Exception {
        LabStore store = StoreUnderTest.postgres();
        String url = store.jdbcUrl().orElseThrow();
        String schema = "lab_probe_" + HexFormat.of().formatHex(new byte[] {(byte) ThreadLocalRandom.current().nextInt()});
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            try {
                CommitProbe probe = CommitProbe.start(url, schema);
                TimeUnit.MILLISECONDS.sleep(300); // a real server's real disk: nothing to fake here
                probe.stop();
                probe.stop(); // idempotent
                CommitProbe.Figures f = probe.figures();
                assertThat(f.commits()).isPositive();
                assertThat(f.failures()).isEqualTo(CommitProbe.Failures.NONE);
                assertThat(f.p50Nanos()).isPositive().isLessThanOrEqualTo(f.p99Nanos());
                assertThat(f.p99Nanos()).isLessThanOrEqualTo(f.maxNanos());
                assertThat(f.waitShare()).isBetween(0.0, 1.0);
                try (ResultSet rows = s.executeQuery("SELECT count(*) FROM " + schema + "." + CommitProbe.TABLE)) {
                    rows.next();
                    assertThat(rows.getLong(1)).as("rows the probe committed").isEqualTo(f.commits());
                }
            } finally {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }
}
