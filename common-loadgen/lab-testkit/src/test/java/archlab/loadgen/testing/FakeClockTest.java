package archlab.loadgen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FakeClockTest {

    @Test
    @DisplayName("stands still at its start until advanced, by nanoseconds or by a Duration")
    void movesOnlyWhenAdvanced() {
        FakeClock clock = new FakeClock(1_000);
        assertThat(clock.nanoTime()).isEqualTo(1_000).isEqualTo(clock.nanoTime());

        assertThat(clock.advance(5)).isSameAs(clock);
        assertThat(clock.nanoTime()).isEqualTo(1_005);
        clock.advance(Duration.ofMillis(2)).advance(0);
        assertThat(clock.nanoTime()).isEqualTo(2_001_005);
        assertThat(new FakeClock().nanoTime()).isZero();
    }

    @Test
    @DisplayName("never goes backwards: a negative advance or step is rejected and leaves the reading as it was")
    void neverBackwards() {
        FakeClock clock = new FakeClock(-10);
        assertThatThrownBy(() -> clock.advance(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> clock.advance(Duration.ofNanos(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> clock.setAutoIncrementStep(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(clock.nanoTime()).isEqualTo(-10);
    }

    @Test
    @DisplayName("with an auto-increment step each reading returns the time, then moves on by the step; ZERO stops it")
    void autoIncrement() {
        FakeClock clock = new FakeClock(100).setAutoIncrementStep(Duration.ofNanos(7));
        assertThat(clock.nanoTime()).isEqualTo(100);
        assertThat(clock.nanoTime()).isEqualTo(107);
        clock.advance(3);
        assertThat(clock.nanoTime()).isEqualTo(117);
        clock.setAutoIncrementStep(Duration.ZERO);
        assertThat(clock.nanoTime()).isEqualTo(124).isEqualTo(clock.nanoTime());
    }

    @Test
    @DisplayName("concurrent advances from many threads all add up")
    void concurrentAdvancesAddUp() throws Exception {
        FakeClock clock = new FakeClock();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        clock.advance(1);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(clock.nanoTime()).isEqualTo(40_000);
    }

    @Test
    @DisplayName("throwing() fails the test on its first reading")
    void throwingClock() {
        NanoClock clock = FakeClock.throwing();
        assertThatThrownBy(clock::nanoTime).isInstanceOf(AssertionError.class).hasMessage("the clock was read");
    }
}
