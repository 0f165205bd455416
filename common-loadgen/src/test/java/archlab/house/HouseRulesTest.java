package archlab.house;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The harness's own house rules, on {@code common-loadgen}'s main classes. */
class HouseRulesTest {

    private static final JavaClasses HARNESS = HouseRules.mainClassesOf(Path.of(System.getProperty("archlab.module.dir", ".")));

    @Test
    @DisplayName("no class of the harness depends on a checkpoint, the claims or the book")
    void harnessKnowsNoCheckpoint() {
        HouseRules.harnessKnowsNoCheckpoint().check(HARNESS);
    }

    @Test
    @DisplayName("in the harness only archlab.db touches the database (JDBC, the pool, the driver, the migrations)")
    void onlyArchlabDbTouchesTheDatabase() {
        HouseRules.onlyArchlabDbTouchesTheDatabase().check(HARNESS);
    }

    @Test
    @DisplayName("the harness's packages have no cycle between them")
    void harnessFreeOfCycles() {
        HouseRules.harnessFreeOfCycles().check(HARNESS);
    }
}
