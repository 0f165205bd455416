package archlab.ladder.gc;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.ladder.Rung;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CollectorRunsTest {

    @Test
    @DisplayName("a child JVM's command line selects its collector (ZGC generational on every release) and heap, logs GC to one unrotated file, names its parent, and carries no database URL")
    void command() {
        System.setProperty("lab.jdbc.url", "jdbc:postgresql://127.0.0.1:1/x?password=secret");
        try {
            List<String> c = CollectorRuns.command(Rung.named(CollectorRuns.RUNG),
                    new CollectorRuns.Setup(CollectorRuns.Collector.ZGC, 128), Path.of("r.json"), Path.of("/tmp/a b:c/gc.log"));
            assertThat(c).contains("-XX:+UseZGC", "-Xms128m", "-Xmx128m", "-XX:+ExitOnOutOfMemoryError",
                    "-Xlog:gc*:file=\"/tmp/a b:c/gc.log\":uptime,level,tags:filecount=0",
                    "-D" + CollectorRuns.PARENT_PROPERTY + "=" + ProcessHandle.current().pid());
            assertThat(c.get(1)).isEqualTo("-XX:+UseZGC");
            assertThat(c).noneMatch(a -> a.contains("secret"));
            assertThat(c.subList(c.size() - 4, c.size())).containsExactly("tcp-nodelay", "ZGC", "128", "r.json");
        } finally {
            System.clearProperty("lab.jdbc.url");
        }
        assertThat(CollectorRuns.Collector.ZGC.flags(21)).containsExactly("-XX:+UseZGC", "-XX:+ZGenerational");
        assertThat(CollectorRuns.Collector.ZGC.flags(25)).containsExactly("-XX:+UseZGC");
        assertThat(CollectorRuns.Collector.G1.flags(21)).containsExactly("-XX:+UseG1GC");
    }

    @Test
    @DisplayName("a child's result comes back through JSON unchanged: the setting, the latencies, the GC figures with every pause")
    void roundTrip() throws Exception {
        GcFigures gc = new GcFigures(new GcFigures.Jvm("ZGC Minor Cycles", 128L << 20), 3, GcFigures.Pauses.of(List.of(20_000L, 90_000L)),
                GcFigures.Pauses.of(List.of(20_000L)), new GcFigures.Stalls(35, 353_000_000L), new GcFigures.Allocation(1L << 30, 3_000_000_000L));
        CollectorRuns.Result r = new CollectorRuns.Result(new CollectorRuns.Setup(CollectorRuns.Collector.ZGC, 128), "tcp-nodelay",
                new CollectorRuns.Latency(1, 2, 3, 4, 5, 6), 7.5, gc, "ladder-gc-zgc-128m.log");
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readValue(json.writeValueAsString(r), CollectorRuns.Result.class)).isEqualTo(r);
    }
}
