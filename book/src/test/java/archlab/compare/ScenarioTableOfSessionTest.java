package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The end of {@code mvn test -Dscenarios}: chapter 12.3's table (scenario × checkpoint) of the scenario runs of this
 * Maven session, printed and saved as the root's {@code target/reports/scenarios.md} (+ .json). At the root it has
 * every checkpoint's rows; {@code mvn -pl ch12-3-fault-scenarios,book test -Dscenarios} gives that module's rows alone.
 */
@EnabledIfSystemProperty(named = "scenarios", matches = ".*", disabledReason = "reads the scenario runs' reports: mvn test -Dscenarios")
class ScenarioTableOfSessionTest {

    @Test
    @DisplayName("prints and saves the scenario table of this session's runs, one row per scenario and checkpoint that ran")
    void printsTheScenarioTable() {
        List<ScenarioTable.Row> rows = ScenarioTable.collect(ThisSession.root(), ThisSession.id());
        assertThat(rows).as("scenario reports of session " + ThisSession.id() + " under " + ThisSession.root()
                + "/*/target/reports: run `mvn test -Dscenarios` at the root, or `mvn -pl <checkpoint>,book test -Dscenarios`").isNotEmpty();

        Path md = ScenarioTable.write(ThisSession.rootReports(), rows);
        System.out.println(ScenarioTable.markdown(rows));
        System.out.println("scenario table: " + md + " (+ .json)");
        assertThat(rows.stream().map(r -> r.scenario() + "/" + r.module()).distinct().count())
                .as("one row per scenario and checkpoint").isEqualTo(rows.size());
    }
}
