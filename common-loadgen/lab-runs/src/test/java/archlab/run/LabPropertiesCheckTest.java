package archlab.run;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LabPropertiesCheckTest {

    @AfterEach
    void clear() {
        System.clearProperty("lab.rat");
        System.clearProperty("lab.rate");
    }

    @Test
    @DisplayName("the check at the start of a test JVM refuses an unknown -Dlab.* key, naming it, before any test runs")
    void unknownKeyStopsTheSession() {
        System.setProperty("lab.rat", "1000");
        assertThatThrownBy(() -> new LabPropertiesCheck().launcherSessionOpened(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lab.rat").hasMessageContaining("lab.rate");
    }

    @Test
    @DisplayName("the check lets known, well-formed -Dlab.* keys through")
    void knownKeysPass() {
        System.setProperty("lab.rate", "1000");
        assertThatCode(() -> new LabPropertiesCheck().launcherSessionOpened(null)).doesNotThrowAnyException();
    }
}
