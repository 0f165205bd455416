package archlab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The end of {@code mvn test -Dsweep}: one row per capacity sweep the checkpoints ran in this Maven session (knee,
 * rates, reruns), printed and saved as the root's {@code target/reports/sweeps.md} (+ .json). Each sweep's full
 * report stays in its own module ({@code sweep-<module>.txt}).
 */
@EnabledIfSystemProperty(named = "sweep", matches = ".*", disabledReason = "reads the sweeps' reports: mvn test -Dsweep")
class SweepTableOfSessionTest {

    @Test
    @DisplayName("prints and saves the table of this session's capacity sweeps, each with the rates it swept")
    void printsTheSweepTable() {
        SweepTable table = SweepTable.collect(ThisSession.root(), ThisSession.id());
        assertThat(table.rows()).as("sweep reports of session " + ThisSession.id() + " under " + ThisSession.root()
                + "/*/target/reports: run `mvn test -Dsweep` at the root, or `mvn -pl <checkpoint>,book test -Dsweep`").isNotEmpty();

        Path md = table.write(ThisSession.rootReports());
        System.out.print(table.markdown());
        System.out.println("sweep table: " + md + " (+ .json)");
        table.rows().forEach(r -> assertThat(r.swept().rates()).as(r.module() + "/" + r.name() + " rates swept").isPositive());
    }
}
