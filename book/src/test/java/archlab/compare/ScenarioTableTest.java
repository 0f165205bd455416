package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario table's two retry-storm columns, read from hand-made saved reports. */
class ScenarioTableTest {

    /** A saved scenario report: 30 intervals of 100 ms offering 150 each, completing {@code completed[k]}. */
    private static String report(String scenario, long attempts, int[] completed) {
        StringBuilder intervals = new StringBuilder();
        for (int k = 0; k < completed.length; k++) {
            intervals.append(k == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"phase\":\"run\",\"startMillis\":%d.0,\"lengthMillis\":100.0,\"offered\":150,\"started\":150,\"completed\":%d,"
                            + "\"timedOut\":0,\"failed\":0,\"rejected\":0,\"poolExhausted\":0,\"p50Micros\":1,\"p99Micros\":2,"
                            + "\"maxMicros\":3,\"sendLagP99Micros\":1,\"hiccupMaxMicros\":100,\"retried\":0}", k * 100, completed[k]));
        }
        return "{\"module\":\"ch-x\",\"name\":\"scenario-" + scenario + "\",\"run\":{\"offered\":4500,\"started\":4500,"
                + (attempts < 0 ? "" : "\"attempts\":" + attempts + ",")
                + "\"completed\":4000,\"wallNanos\":3000000000,\"latency\":{},\"timeline\":{\"interval\":\"PT0.1S\",\"intervals\":["
                + intervals + "]}},\"money\":{\"charges\":1}}";
    }

    private static int[] dipUntil(int k) {
        int[] c = new int[30];
        for (int i = 0; i < 30; i++) {
            c[i] = i >= 10 && i < k ? 40 : 150;
        }
        return c;
    }

    @Test
    @DisplayName("retry-storm: amplification = attempts / offered; recovered from the saved timeline, with the interval it stayed back from")
    void retryStormColumns(@TempDir Path dir) throws Exception {
        Path back = Files.writeString(dir.resolve("a.json"), report("retry-storm", 9_000, dipUntil(21)));
        Path down = Files.writeString(dir.resolve("b.json"), report("retry-storm", 5_000, dipUntil(30)));

        ScenarioTable.Row r = ScenarioTable.read(back);
        assertThat(r.resilience().amplification()).isEqualTo(2.0);
        assertThat(r.resilience().recovered()).isEqualTo("yes");
        assertThat(r.resilience().recoveredAtMillis()).isEqualTo(2_100);
        assertThat(r.resilience().shareBeforeTrigger()).isEqualTo(1.0);
        assertThat(r.resilience().recoveredWithinBound()).isEqualTo(1);
        ScenarioTable.Row d = ScenarioTable.read(down);
        assertThat(d.resilience().recovered()).isEqualTo("no");
        assertThat(d.resilience().recoveredAtMillis()).isEqualTo(ScenarioTable.NEVER);
        assertThat(d.resilience().recoveredWithinBound()).isZero();
        assertThat(ScenarioTable.markdown(List.of(r, d))).contains("| 2.00 |", "| yes (back from 2.1 s) |", "| no |");
    }

    @Test
    @DisplayName("a scenario without a trigger reads '-'; a report saved before attempts were counted reads amplification 1.00")
    void noTriggerAndOldReports(@TempDir Path dir) throws Exception {
        ScenarioTable.Row r = ScenarioTable.read(Files.writeString(dir.resolve("n.json"), report("normal", -1, dipUntil(0))));
        assertThat(r.resilience().amplification()).isEqualTo(1.0);
        assertThat(r.resilience().recovered()).isEqualTo(ScenarioTable.NO_TRIGGER);
        assertThat(r.resilience().recoveredWithinBound()).isZero();
    }
}
