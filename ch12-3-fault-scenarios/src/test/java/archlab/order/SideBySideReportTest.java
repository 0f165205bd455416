package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import archlab.report.SideBySide;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The last -Dbaseline test of this module: the side-by-side table of every run report found under the
 * sibling modules' {@code target/reports/} (ch12-1's baseline, this module's baseline, overload, ablations
 * and cache runs), printed, and saved as {@code target/reports/side-by-side.md} (+ .json). Run from the
 * root ({@code mvn test -Dbaseline}), every chapter module runs first under the identical load, so the
 * table compares fresh runs; the first row shows each report's time, so a stale one is visible.
 */
@EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "reads the load runs' reports: mvn test -Dbaseline")
@Order(Integer.MAX_VALUE)
class SideBySideReportTest {

    @Test
    @DisplayName("prints and saves the side-by-side table of every module's reports; this module's baseline is a column of it, with its own figures")
    void printsTheSideBySideTable() throws Exception {
        Path module = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();
        List<Path> reports = SideBySide.findReports(module.getParent(), System.getProperty("archlab.session", "adhoc"));
        Path ownBaseline = module.resolve("target/reports/baseline.json");
        assertThat(reports).as("reports found under " + module.getParent()).contains(ownBaseline);

        SideBySide table = SideBySide.of(reports);
        Path md = table.write(ReportWriter.reportsDir());

        System.out.println("=== side by side: " + reports.size() + " reports ===");
        System.out.print(table.markdown());
        System.out.println("table: " + md.toAbsolutePath() + " (+ .json)");
        JsonNode own = new ObjectMapper().readTree(ownBaseline.toFile());
        String column = BookLab.MODULE + "/baseline";
        assertThat(table.value("offered", column)).isEqualTo(own.path("run").path("offered").asDouble());
        assertThat(table.value("pay p99_ms", column))
                .isEqualTo(own.path("run").path("operations").path("pay").path("latency").path("p99Micros").asDouble() / 1e3);
    }
}
