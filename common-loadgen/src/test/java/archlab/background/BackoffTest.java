package archlab.background;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    @DisplayName("base × 2^(n − 1), capped at max; n below 1 counts as 1; a huge n neither overflows nor passes the cap")
    void doublesUpToTheCap() {
        Duration base = Duration.ofMillis(5);
        Duration max = Duration.ofMillis(500);
        assertThat(Backoff.exponential(base, max, 1)).isEqualTo(Duration.ofMillis(5));
        assertThat(Backoff.exponential(base, max, 2)).isEqualTo(Duration.ofMillis(10));
        assertThat(Backoff.exponential(base, max, 7)).isEqualTo(Duration.ofMillis(320));
        assertThat(Backoff.exponential(base, max, 8)).isEqualTo(max);
        assertThat(Backoff.exponential(base, max, 0)).isEqualTo(base);
        assertThat(Backoff.exponential(base, max, Integer.MAX_VALUE)).isEqualTo(max);
        assertThat(Backoff.exponential(Duration.ZERO, max, 5)).isEqualTo(Duration.ZERO);
    }
}
