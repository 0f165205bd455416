package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where a run happened, as every report prints it. */
class EnvironmentTest {

    @Test
    @DisplayName("current() describes this JVM: its version, its processors, its heap and an ISO-8601 instant")
    void currentDescribesThisJvm() {
        Environment env = Environment.current();
        assertThat(env.machine().jdk()).isEqualTo(Runtime.version().toString());
        assertThat(env.machine().cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(env.machine().maxHeapMiB()).isEqualTo(Runtime.getRuntime().maxMemory() / (1024 * 1024));
        assertThat(env.machine().os()).contains(System.getProperty("os.name"));
        assertThat(Instant.parse(env.at())).isBeforeOrEqualTo(Instant.now());
    }

    @Test
    @DisplayName("the session is the archlab.session property, 'adhoc' without it")
    void sessionComesFromTheProperty() {
        String before = System.getProperty("archlab.session");
        try {
            System.setProperty("archlab.session", "20260102T030405.678");
            assertThat(Environment.current().session()).isEqualTo("20260102T030405.678");
            System.clearProperty("archlab.session");
            assertThat(Environment.current().session()).isEqualTo("adhoc");
        } finally {
            if (before == null) {
                System.clearProperty("archlab.session");
            } else {
                System.setProperty("archlab.session", before);
            }
        }
    }
}
