package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Per-interval maxima of a few gauges, fed by events and by a sampler (the server's and the pool's timelines). */
class IntervalMaximaTest {

    @Test
    @DisplayName("events keep the largest value of each 100 ms interval from the start, per gauge; none before the start")
    void eventsKeepEachIntervalsMaximum() {
        IntervalMaxima m = new IntervalMaxima("test", Duration.ofHours(1), List.of(
                new IntervalMaxima.Gauge("a", null), new IntervalMaxima.Gauge("b", null)));
        m.record(0, System.nanoTime(), 99); // before the start: dropped
        m.start();
        long t0 = System.nanoTime();
        long interval = IntervalMaxima.INTERVAL.toNanos();
        m.record(0, t0, 3);
        m.record(0, t0 + 1, 7);
        m.record(0, t0 + 2, 5);
        m.record(1, t0 + 2 * interval + interval / 2, 4);
        m.stop();

        assertThat(m.maxima(0)).containsExactly(7L, 0L, 0L);
        assertThat(m.maxima(1)).containsExactly(0L, 0L, 4L);
        assertThat(IntervalMaxima.join(m.maxima(0))).isEqualTo("7,0,0");
        assertThat(IntervalMaxima.millis(List.of(1_250_000L, 50_000L))).containsExactly(1.3, 0.1);
    }

    @Test
    @DisplayName("the sampler reads each gauge while nothing happens, so a state that lasts shows in its intervals")
    void theSamplerSeesAStateThatLasts() throws InterruptedException {
        AtomicLong waiting = new AtomicLong(5);
        IntervalMaxima m = new IntervalMaxima("test", Duration.ofMillis(1), List.of(new IntervalMaxima.Gauge("waiting", waiting::get)));
        m.start();
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (m.maxima(0).isEmpty() && System.nanoTime() < until) {
            Thread.sleep(1);
        }
        m.stop();
        assertThat(m.maxima(0)).isNotEmpty().contains(5L);
    }

    @Test
    @DisplayName("no gauge or a sample period that is not positive is refused")
    void badSettingsAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new IntervalMaxima("t", Duration.ofMillis(5), List.of()));
        assertThatIllegalArgumentException().isThrownBy(() -> new IntervalMaxima("t", Duration.ZERO,
                List.of(new IntervalMaxima.Gauge("a", null))));
    }
}
