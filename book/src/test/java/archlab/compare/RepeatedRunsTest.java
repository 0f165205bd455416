package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepeatedRunsTest {

    private static final Path ROOT = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
    private static final List<String> CHECKPOINTS = List.of("ch12-1-baseline", "ch12-2-cache-outbox-ratelimit", "ch12-3-fault-scenarios");

    @TempDir
    Path dir;

    private Path run(String name, long p99Micros, long completed, String extra) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, """
                {"run": {"completed": %d, "latency": {"p99Micros": %d}%s}, "money": {"paidOrders": 7}, "profile": {"x": 1}}
                """.formatted(completed, p99Micros, extra), StandardCharsets.UTF_8);
        return p;
    }

    @Test
    @DisplayName("each figure's median, lowest and highest over the runs, in the runs' own shape; a figure some run lacks is left out")
    void mediansMinimaAndMaxima() throws IOException {
        List<Path> runs = new ArrayList<>(List.of(run("a.json", 900, 4500, ", \"only\": 1"), run("b.json", 300, 4400, ""),
                run("c.json", 500, 4500, ""), run("d.json", 700, 4300, ""), run("e.json", 100, 4500, "")));
        JsonNode s = RepeatedRuns.summarise(runs);
        assertThat(s.path("runs").asInt()).isEqualTo(5);
        assertThat(s.at("/median/run/latency/p99Micros").asDouble()).isEqualTo(500);
        assertThat(s.at("/min/run/latency/p99Micros").asDouble()).isEqualTo(100);
        assertThat(s.at("/max/run/latency/p99Micros").asDouble()).isEqualTo(900);
        assertThat(s.at("/median/run/completed").asDouble()).isEqualTo(4500);
        assertThat(s.at("/median/money/paidOrders").asDouble()).isEqualTo(7);
        assertThat(s.at("/median/run/only").isMissingNode()).as("in one run only").isTrue();
        assertThat(s.at("/median/profile").isMissingNode()).as("profiles are not summarised").isTrue();
        assertThat(s.path("each").path("run.latency.p99Micros").toString()).isEqualTo("[900.0,300.0,500.0,700.0,100.0]");
        assertThat(RepeatedRuns.table(s)).contains("| p99 µs | 500 | 100–900 |").startsWith("Over 5 runs (a.json, b.json");
    }

    @Test
    @DisplayName("the median of an even number of runs is the mean of the middle two")
    void evenMedian() {
        assertThat(RepeatedRuns.median(new double[] {1, 2, 4, 10})).isEqualTo(3);
        assertThat(RepeatedRuns.median(new double[] {1, 2, 4})).isEqualTo(2);
    }

    @Test
    @DisplayName("fewer than 3 runs, or a file that is not a run report, is refused")
    void refusesTooFewRunsAndOtherFiles() throws IOException {
        Path a = run("a.json", 1, 1, "");
        assertThatIllegalArgumentException().isThrownBy(() -> RepeatedRuns.summarise(List.of(a, a))).withMessageContaining("fewer than 3");
        Path other = Files.writeString(dir.resolve("o.json"), "{\"rows\": []}", StandardCharsets.UTF_8);
        assertThatIllegalArgumentException().isThrownBy(() -> RepeatedRuns.summarise(List.of(a, a, other))).withMessageContaining("not a run report");
    }

    @Test
    @DisplayName("the book's saved medians (the book's load and each of the five scenarios) come from 5 runs or more of each checkpoint, and each headline's median, min and max are those of its runs")
    void savedMediansComeFromFiveRunsOrMore() throws IOException {
        List<String> kinds = List.of("baseline", "scenario-normal", "scenario-slow-downstream", "scenario-failing-downstream",
                "scenario-long-outage", "scenario-retry-storm");
        for (String m : CHECKPOINTS) {
            for (String kind : kinds) {
                savedMediansAreThoseOfTheirRuns(m, kind);
            }
        }
    }

    private static void savedMediansAreThoseOfTheirRuns(String module, String kind) throws IOException {
        String what = module + " " + kind;
        Path f = ROOT.resolve("book/results").resolve(module).resolve(kind + "-repeats.json");
        assertThat(f).as("written by bash book/repeats.sh").isRegularFile();
        JsonNode s = new ObjectMapper().readTree(f.toFile());
        assertThat(s.path("runs").asInt()).as(what + " runs").isGreaterThanOrEqualTo(5);
        for (String core : List.of("run.completed", "run.timedOut", "run.rejected", "run.maxOverrunNanos", "run.latency.p99Micros",
                "money.chargedButNotPaid")) {
            assertThat(s.path("each").path(core).size()).as(what + " " + core + " run by run (an older summariser left it out)")
                    .isEqualTo(s.path("runs").asInt());
        }
        for (String[] h : RepeatedRuns.HEADLINES) {
            String ptr = "/" + h[0].replace('.', '/');
            if (s.at("/median" + ptr).isMissingNode()) {
                continue; // a figure some run lacks has no median (summarise leaves it out), nor a list
            }
            JsonNode each = s.path("each").path(h[0]);
            assertThat(each.size()).as(what + " " + h[0] + " run by run").isEqualTo(s.path("runs").asInt());
            double[] v = new double[each.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = each.get(i).asDouble();
            }
            java.util.Arrays.sort(v);
            // the saved median, min and max are those of the runs the file lists, not numbers edited in by hand
            assertThat(s.at("/median" + ptr).asDouble()).as(what + " median " + h[0]).isEqualTo(RepeatedRuns.median(v));
            assertThat(s.at("/min" + ptr).asDouble()).as(what + " min " + h[0]).isEqualTo(v[0]);
            assertThat(s.at("/max" + ptr).asDouble()).as(what + " max " + h[0]).isEqualTo(v[v.length - 1]);
        }
    }
}
