package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.http.Wrk;
import archlab.hyperfoil.HyperfoilRun;
import archlab.report.ReportWriter;
import archlab.run.WrkSideBySide;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * This checkpoint over HTTP, loaded open loop by the lab's runner, then closed loop by the lab's runner and by wrk,
 * then open model by Hyperfoil, one after the other against the same server for the same 3 s:
 * {@code mvn -pl <module> test -Dwrk} writes {@code target/reports/wrk.md} (+ .json) and Hyperfoil's benchmark
 * {@code target/reports/book-mix.hf.yaml}. Without wrk installed the wrk row is left out, saying how to install it.
 */
@EnabledIfSystemProperty(named = "wrk", matches = ".*", disabledReason = "3 s each of open loop, closed loop and wrk, then Hyperfoil (2 s warm-up, 3 s, and the time a slow checkpoint takes to answer): mvn test -Dwrk")
class WrkSideBySideTest {

    private static final Duration DURATION = Duration.ofSeconds(3);

    /**
     * The shape that holds on any machine: a closed loop that could not complete what the open loop offered (the
     * server fell behind the book's rate) reports a p99 below the open loop's, because the wait of the requests it
     * never sent is in none of its figures. Only ch12-1 must fall behind: its figures are printed, not asserted.
     */
    @Test
    @DisplayName("open loop, the lab's closed loop and wrk load one server for the same time; a closed loop that fell behind the offered load reports a lower p99 than the open loop (on ch12-1 it falls behind)")
    void openLoopBesideClosedLoops() throws Exception {
        WrkSideBySide.Table table = WrkSideBySide.run(BookLab::new, DURATION, ReportWriter.reportsDir(), System.out::println);
        String md = Files.readString(table.markdown());
        assertThat(md).contains("| open-loop runner |").contains("| lab closed loop |");
        assertThat(md.contains("| wrk (closed loop) |")).as("a wrk row exactly when wrk is installed (" + Wrk.INSTALL + ")")
                .isEqualTo(Wrk.find().isPresent());
        assertThat(md).contains("| Hyperfoil (open model) |").contains("Open loop beside Hyperfoil:");
        // the file beside the table is the benchmark Hyperfoil ran: its own parser reads it
        Path hfYaml = table.markdown().resolveSibling("book-mix.hf.yaml");
        assertThat(HyperfoilRun.parse(Files.readString(hfYaml)).phases()).hasSize(6);
        assertThat(table.hyperfoil().answers().requests()).as("Hyperfoil sent requests in its measured phases").isPositive();
        long offered = table.open().offered();
        boolean fellBehind = table.closedCompleted() < offered;
        if (Path.of(System.getProperty("archlab.module.dir", ".")).getFileName().toString().equals("ch12-1-baseline")) {
            assertThat(fellBehind).as("ch12-1's closed loop completes fewer than the %d requests offered in %s (completed %d)",
                    offered, DURATION, table.closedCompleted()).isTrue();
        }
        if (fellBehind) {
            assertThat(table.closed().latency().p99Micros()).as("closed-loop p99 (µs) below the open loop's")
                    .isLessThan(table.open().latency().p99Micros());
            table.wrk().ifPresent(w -> assertThat(w.latency().p99Millis()).as("wrk's p99 (ms) below the open loop's")
                    .isLessThan(table.open().latency().p99Micros() / 1e3));
        }
    }
}
