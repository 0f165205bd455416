package archlab.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The allocation gate CI's JMH smoke relies on, on a JSON shaped as JMH writes it (no JMH run). */
class JmhRunGateTest {

    /** Stands in for a benchmark class: one method that must allocate nothing, one that may. */
    public static class Fake {
        @AllocatesNothing
        public void mustNot() {
        }

        public void may() {
        }
    }

    private static String row(String method, String norm) {
        String secondary = norm == null ? "{}" : "{\"gc.alloc.rate.norm\":{\"score\":" + norm + ",\"scoreUnit\":\"B/op\"}}";
        return "{\"benchmark\":\"" + Fake.class.getName() + "." + method + "\",\"threads\":1,"
                + "\"primaryMetric\":{\"score\":12.5,\"scoreError\":0.5,\"scoreUnit\":\"ns/op\"},\"secondaryMetrics\":" + secondary + "}";
    }

    @Test
    @DisplayName("the JMH gate fails a benchmark marked @AllocatesNothing that allocated a byte or more per op, and one without gc.alloc.rate.norm; bytes elsewhere and a few thousandths pass")
    void gateReadsBytesPerOp(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("jmh.json");
        Files.writeString(json, "[" + row("mustNot", "0.004") + "," + row("may", "2360.0") + "]");
        assertThat(JmhRun.allocationFailures(json)).isEmpty();

        Files.writeString(json, "[" + row("mustNot", "24.0") + "," + row("may", null) + "]");
        assertThat(JmhRun.allocationFailures(json)).hasSize(2)
                .anyMatch(f -> f.contains("mustNot") && f.contains("24.000 bytes per operation"))
                .anyMatch(f -> f.contains("may") && f.contains("no gc.alloc.rate.norm"));
        assertThat(JmhRun.summary(json, true)).contains("JMH smoke").contains("mustNot");
    }
}
