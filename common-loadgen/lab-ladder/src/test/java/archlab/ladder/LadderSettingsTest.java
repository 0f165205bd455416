package archlab.ladder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LadderSettingsTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    @DisplayName("by default the whole ladder on a million orders at 400 req/s for 3 s; -Dladder.rungs picks rungs in the ladder's order")
    void defaults() {
        LadderSettings s = LadderSettings.from(props("ladder", ""));
        assertThat(s.orders()).isEqualTo(1_000_000);
        assertThat(s.rungs()).isEqualTo(Rung.LADDER);
        assertThat(s.rebuild()).isFalse();
        LadderSettings some = LadderSettings.from(props("ladder.rungs", "tcp-nodelay, start", "ladder.rebuild", ""));
        assertThat(some.rungs()).extracting(Rung::name).containsExactly("start", "tcp-nodelay");
        assertThat(some.rebuild()).isTrue();
    }

    @Test
    @DisplayName("a bad or unknown -Dladder.* property stops the run with its name and what it accepts")
    void badInput() {
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.orders", "lots"))).hasMessageContaining("-Dladder.orders");
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.orders", "10"))).hasMessageContaining("10000..10000000");
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.rate", "0"))).hasMessageContaining("ladder.rate");
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.seconds", "0"))).hasMessageContaining("ladder.seconds");
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.rungs", "fast"))).hasMessageContaining("no rung 'fast'");
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.rebuild", "no"))).hasMessageContaining("-Dladder.rebuild");
        assertThatThrownBy(() -> LadderSettings.from(props("ladder.order", "5"))).hasMessageContaining("unknown property -Dladder.order");
    }
}
