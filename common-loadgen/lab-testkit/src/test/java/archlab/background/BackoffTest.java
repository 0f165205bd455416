package archlab.background;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
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

    @Test
    @DisplayName("full jitter draws within [0, cap], spreads over the cap, repeats for the same seed, and waits 0 for a zero cap")
    void fullJitterStaysUnderTheCapAndRepeats() {
        Duration cap = Duration.ofMillis(100);
        SplittableRandom random = new SplittableRandom(7);
        long below = 0;
        for (int i = 0; i < 1_000; i++) {
            Duration wait = Backoff.fullJitter(cap, random);
            assertThat(wait).isBetween(Duration.ZERO, cap);
            below += wait.compareTo(cap.dividedBy(2)) < 0 ? 1 : 0;
        }
        assertThat(below).as("about half below the middle: spread, not bunched at the cap").isBetween(400L, 600L);
        assertThat(Backoff.fullJitter(cap, new SplittableRandom(3))).isEqualTo(Backoff.fullJitter(cap, new SplittableRandom(3)));
        assertThat(Backoff.fullJitter(Duration.ZERO, new SplittableRandom(3))).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> Backoff.fullJitter(Duration.ofMillis(-1), new SplittableRandom(3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cap");
    }
}
