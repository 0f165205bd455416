package archlab.order;

import archlab.house.HouseRules;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** This checkpoint's store against the house's rule on the database ({@link HouseRules#onlyTheStoreTouchesTheDatabase()}). */
class StoreHouseRulesTest {

    @Test
    @DisplayName("nothing of the checkpoint but its PostgreSQL store touches the database: the service and the in-memory table use no JDBC")
    void onlyTheStoreTouchesTheDatabase() {
        HouseRules.onlyTheStoreTouchesTheDatabase()
                .check(HouseRules.mainClassesOf(Path.of(System.getProperty("archlab.module.dir", "."))));
    }
}
