package archlab.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.LoadSpec;
import archlab.report.CapacitySweep;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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
