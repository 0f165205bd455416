package archlab.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ChaosPropertiesTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    @DisplayName("nothing given runs seeds 1..default; -Dchaos.seeds=N runs 1..N; -Dchaos.seed=S replays S alone; -Dchaos itself and other properties are not read")
    void seedsToRun() {
        assertThat(ChaosProperties.read(props("chaos", "", "lab.rate", "1000"), 3).seedsToRun()).containsExactly(1L, 2L, 3L);
        assertThat(ChaosProperties.read(props("chaos.seeds", "5"), 3).seedsToRun()).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(ChaosProperties.read(props("chaos.seed", "-42"), 3).seedsToRun()).isEqualTo(List.of(-42L));
        assertThat(ChaosProperties.read(props("chaos.seeds", "1_000"), 3).seeds()).isEqualTo(1_000);
    }

    @Test
    @DisplayName("a bad value, an unknown chaos.* key or both keys at once stop the check with a message naming the property and the value")
    void badInputIsAClearError() {
        assertThatThrownBy(() -> ChaosProperties.read(props("chaos.seeds", "many"), 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chaos.seeds").hasMessageContaining("'many'");
        assertThatThrownBy(() -> ChaosProperties.read(props("chaos.seeds", "0"), 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..10000").hasMessageContaining("'0'");
        assertThatThrownBy(() -> ChaosProperties.read(props("chaos.seeds", "99999999999"), 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chaos.seeds");
        assertThatThrownBy(() -> ChaosProperties.read(props("chaos.seed", "1.5"), 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chaos.seed must be a whole number, was '1.5'");
        assertThatThrownBy(() -> ChaosProperties.read(props("chaos.sed", "17"), 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown property -Dchaos.sed=17")
                .hasMessageContaining("chaos.seed").hasMessageContaining("chaos.seeds");
        assertThatThrownBy(() -> ChaosProperties.read(props("chaos.seed", "17", "chaos.seeds", "5"), 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
    }
}
