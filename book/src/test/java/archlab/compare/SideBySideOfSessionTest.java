package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The end of a root {@code mvn test -Dbaseline}: the side-by-side table of every run report the checkpoints wrote
 * in this Maven session (a module that did not run in it shows its saved baseline, whose session row says so),
 * printed and saved as the root's {@code target/reports/side-by-side.md} (+ .json). The book module is last in the
 * reactor, so every checkpoint has run by now; it reads reports, it never runs a service.
 */
@EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "reads the load runs' reports: mvn test -Dbaseline")
class SideBySideOfSessionTest {

    @Test
    @DisplayName("prints and saves the side-by-side table of this session's reports; every column holds its own report's figures")
    void printsTheSideBySideTable() {
        List<Path> reports = SideBySide.findReports(ThisSession.root(), ThisSession.id());
        assertThat(reports).as("run reports under " + ThisSession.root() + "/*/target/reports: run `mvn test -Dbaseline` at the root,"
                + " or `mvn -pl <checkpoint>,book test -Dbaseline`").isNotEmpty();

        SideBySide table = SideBySide.of(reports);
        Path md = table.write(ThisSession.rootReports());
        System.out.println("=== side by side: " + reports.size() + " reports of session " + ThisSession.id() + " ===");
        System.out.print(table.markdown());
        System.out.println("table: " + md + " (+ .json)");

        for (Path report : reports) {
            JsonNode json = SavedReports.readOrMissing(report);
            String column = json.path("module").asText() + "/" + json.path("name").asText();
            assertThat(table.value("offered", column)).as(column + " offered").isEqualTo(json.path("run").path("offered").asDouble());
        }
    }
}
