package archlab.order;

import archlab.house.HouseRules;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** This checkpoint's main code against the house's rules ({@link HouseRules}). */
class HouseRulesTest {

    @Test
    @DisplayName("the checkpoint's code uses only the harness's service side: ports, request context and deadline, spans, the profiled lock, the background loop")
    void usesServiceSideOnly() {
        HouseRules.checkpointUsesServiceSideOnly()
                .check(HouseRules.mainClassesOf(Path.of(System.getProperty("archlab.module.dir", "."))));
    }
}
