package archlab.testreport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

class SkipReasonsListenerTest {

    /** Run on a launcher of its own by the test below; its tests are nested, so the module's run leaves them alone. */
    static class Fixture {
        @Test
        void needsAServer() {
            Assumptions.assumeTrue(false, "PostgreSQL not running: start it with bash .servers/postgres.sh start");
        }

        @Test
        @EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "a load run")
        void loadRun() {
        }

        @Test
        void runs() {
        }
    }

    @Test
    @DisplayName("a check skipped by an assumption says why on the console; one disabled by a run flag stays quiet")
    void printsTheReasonOfAnAssumption() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LauncherConfig config = LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false)
                .enableLauncherSessionListenerAutoRegistration(false).enablePostDiscoveryFilterAutoRegistration(false)
                .addTestExecutionListeners(new SkipReasonsListener(out)).build();
        LauncherFactory.create(config).execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Fixture.class)).build());
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "[skipped] needsAServer(): PostgreSQL not running: start it with bash .servers/postgres.sh start");
    }
}
