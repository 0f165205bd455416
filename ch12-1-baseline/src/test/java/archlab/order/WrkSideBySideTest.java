package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import archlab.http.Wrk;
import archlab.report.ReportWriter;
import archlab.run.WrkSideBySide;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * This checkpoint over HTTP, loaded open loop by the lab's runner and closed loop by wrk, one after the other against
 * the same server for the same 3 s: {@code mvn -pl <module> test -Dwrk} writes {@code target/reports/wrk.md} (+ .json).
 * Without wrk installed it is skipped, saying how to install it.
 */
@EnabledIfSystemProperty(named = "wrk", matches = ".*", disabledReason = "3 s of open loop and 3 s of wrk: mvn test -Dwrk")
class WrkSideBySideTest {

    @Test
    @DisplayName("the open-loop runner and wrk load the same server for the same time, and wrk.md has a row for each")
    void openLoopBesideWrk() throws Exception {
        Optional<Path> md = WrkSideBySide.run(BookLab::new, Duration.ofSeconds(3), ReportWriter.reportsDir(),
                System.out::println);
        assumeThat(md).as("wrk is installed: " + Wrk.INSTALL).isPresent();
        assertThat(Files.readString(md.orElseThrow())).contains("| open-loop runner |").contains("| wrk (closed loop) |");
    }
}
