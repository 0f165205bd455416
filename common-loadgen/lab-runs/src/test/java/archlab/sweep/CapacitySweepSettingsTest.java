package archlab.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.LoadSpec;
import archlab.run.CapacitySweep;
import archlab.run.LabProperties;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sweep's settings and their -D overrides: checked before anything runs, with messages naming the property. */
class CapacitySweepSettingsTest {

    private static CapacitySweep sweep() {
        return CapacitySweep.of("m", LoadSpec.book(), 8_000_000L);
    }

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    @DisplayName("by default the sweep offers 250 … 8,000 req/s for 3 s each")
    void defaults() {
        assertThat(sweep().rates()).containsExactly(250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000, 8000);
        assertThat(sweep().duration()).isEqualTo(Duration.ofSeconds(3));
        assertThat(sweep().warmup()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    @DisplayName("-Dlab.sweep.rates, -Dlab.sweep.duration and -Dlab.sweep.warmup replace the defaults; rates are swept ascending")
    void overrides() {
        CapacitySweep s = sweep().withOverrides(props("lab.sweep.rates", "750, 250,1_000", "lab.sweep.duration", "2s",
                "lab.sweep.warmup", "0s"));
        assertThat(s.rates()).containsExactly(250, 750, 1000);
        assertThat(s.duration()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.warmup()).isZero();
    }

    @Test
    @DisplayName("a rate that is not a whole number is refused with the property and the bad entry named")
    void badRate() {
        assertThatThrownBy(() -> sweep().withOverrides(props("lab.sweep.rates", "250,fast")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lab.sweep.rates").hasMessageContaining("'fast'");
        assertThatThrownBy(() -> sweep().withOverrides(props("lab.sweep.rates", "250,,500")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lab.sweep.rates");
    }

    @Test
    @DisplayName("a zero rate, a duplicate rate or a load that plans no request is refused")
    void invalidLoads() {
        assertThatThrownBy(() -> sweep().withOverrides(props("lab.sweep.rates", "0,250")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lab.sweep.rates")
                .hasMessageContaining("ratePerSecond");
        assertThatThrownBy(() -> sweep().withOverrides(props("lab.sweep.rates", "250,250")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
        assertThatThrownBy(() -> sweep().withOverrides(props("lab.sweep.rates", "1", "lab.sweep.duration", "10ms")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plan");
    }

    @Test
    @DisplayName("a duration that is not one is refused with the property named, and leaves the sweep unchanged")
    void badDurationAllOrNothing() {
        CapacitySweep s = sweep();
        assertThatThrownBy(() -> s.withOverrides(props("lab.sweep.rates", "100", "lab.sweep.duration", "soon")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lab.sweep.duration");
        assertThat(s.rates()).isEqualTo(CapacitySweep.DEFAULT_RATES);
        assertThat(s.duration()).isEqualTo(CapacitySweep.DEFAULT_DURATION);
    }

    @Test
    @DisplayName("an unknown lab.* key stops the sweep, naming the key and the known keys, and changes nothing")
    void unknownKeyIsRefused() {
        CapacitySweep s = sweep();
        assertThatThrownBy(() -> s.withOverrides(props("lab.sweep.rate", "250", "lab.sweep.duration", "2s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown property -Dlab.sweep.rate=250 (did you mean lab.sweep.rates?); known: ")
                .hasMessageContaining(LabProperties.knownKeys());
        assertThat(s.rates()).isEqualTo(CapacitySweep.DEFAULT_RATES);
        assertThat(s.duration()).isEqualTo(CapacitySweep.DEFAULT_DURATION);
    }

    @Test
    @DisplayName("the load run's keys are known to the sweep too, and the sweep's own keys still apply")
    void loadKeysAreKnown() {
        CapacitySweep s = sweep().withOverrides(props("lab.rate", "1000", "lab.repeat", "3", "lab.sweep.duration", "2s",
                "lab.sweep.attempts", "1"));
        assertThat(s.duration()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.rates()).isEqualTo(CapacitySweep.DEFAULT_RATES);
    }

    @ParameterizedTest(name = "-D{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "lab.sweep.rates    | 250,fast | lab.sweep.rates must be whole numbers of req/s separated by commas (e.g. 250,500,750); 'fast' in '250,fast' is not one",
        "lab.sweep.duration | soon     | lab.sweep.duration must be a duration such as 3s, 200ms or PT3S, was 'soon'",
        "lab.sweep.warmup   | PT-3S    | lab.sweep.warmup must be zero or positive, was PT-3S",
        "lab.sweep.attempts | 0        | lab.sweep.attempts must be 1..10 runs of one rate, was 0",
        "lab.sweep.attempts | three    | lab.sweep.attempts must be a whole number of runs, was 'three'"})
    @DisplayName("a bad value's message is the one readers know: the property, the value as typed, what is wanted")
    void badValueMessageIsUnchanged(String key, String value, String message) {
        assertThatThrownBy(() -> sweep().withOverrides(props(key, value)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    @DisplayName("CapacitySweep.name refuses the report names LabRun.named refuses, and accepts the ones it accepts")
    void nameFollowsTheReportNameRule() {
        for (String bad : new String[] {"a/b", "../escape", "with space", ""}) {
            assertThatThrownBy(() -> sweep().name(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("report name must be letters, digits, '.', '_' or '-', was " + bad);
        }
        assertThatThrownBy(() -> sweep().name(null)).isInstanceOf(IllegalArgumentException.class);
        sweep().name("sweep-limiter-lifted_v2.1");
    }

    @Test
    @DisplayName("an empty rate list is refused")
    void emptyRates() {
        assertThatThrownBy(() -> sweep().rates(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one rate");
    }
}
