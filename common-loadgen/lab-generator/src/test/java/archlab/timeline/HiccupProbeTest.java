package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The probe's arithmetic on a scripted clock (each "sleep" moves the fake clock by a chosen amount: no real time, no
 * flakiness), then once for real: it runs, wakes and stops.
 */
class HiccupProbeTest {

    private static final long MS = 1_000_000L;
    private static final Duration PERIOD = Duration.ofMillis(1);

    /** A probe whose n-th sleep takes the n-th of {@code sleeps} (ns) on a fake clock. */
    private static HiccupProbe scripted(long... sleeps) throws InterruptedException {
        FakeClock clock = new FakeClock();
        Deque<Long> script = new ArrayDeque<>();
        for (long s : sleeps) {
            script.add(s);
        }
        HiccupProbe probe = new HiccupProbe(clock, nanos -> clock.advance(script.removeFirst()), PERIOD);
        for (int i = 0; i < sleeps.length; i++) {
            probe.step();
        }
        return probe;
    }

    @Test
    @DisplayName("a machine that wakes the probe on time shows no hiccup: every value 0, the worst 0")
    void steadyWakeUpsAreNoHiccups() throws InterruptedException {
        HiccupProbe probe = scripted(MS, MS, MS, MS);
        Histogram h = probe.intervalHistogram(null);
        assertThat(h.getTotalCount()).isEqualTo(4);
        assertThat(h.getMaxValue()).isLessThan(HiccupProbe.RESOLUTION_NANOS);
        assertThat(probe.worstNanos()).isZero();
        assertThat(probe.wakeUps()).isEqualTo(4);
    }

    @Test
    @DisplayName("the baseline is the shortest sleep so far: a timer that always oversleeps by 60 µs is not a hiccup")
    void constantOversleepIsTheBaseline() throws InterruptedException {
        HiccupProbe probe = scripted(MS + 60_000, MS + 60_000, MS + 60_000);
        assertThat(probe.worstNanos()).isZero();
    }

    @Test
    @DisplayName("a 50 ms stall is recorded as 50 ms plus the 49, 48 … 1 ms waits of the wake-ups it swallowed (jHiccup's correction): time-weighted")
    void aStallCountsTheWakeUpsItSwallowed() throws InterruptedException {
        HiccupProbe probe = scripted(MS, MS, 51 * MS, MS);
        Histogram h = probe.intervalHistogram(null);
        assertThat(probe.worstNanos()).isEqualTo(50 * MS);
        assertThat(h.getTotalCount()).as("4 wake-ups + 49 swallowed").isEqualTo(53);
        assertThat(h.getMaxValue()).isEqualTo(h.highestEquivalentValue(50 * MS));
        assertThat(h.getCountBetweenValues(MS, 50 * MS)).isEqualTo(50);
        assertThat(probe.stalledBeyond(Duration.ofMillis(49))).isTrue();
        assertThat(probe.stalledBeyond(Duration.ofMillis(50))).isFalse();
        assertThat(probe.describe()).isEqualTo("machine hiccup max 50.0 ms");
    }

    @Test
    @DisplayName("interval histograms hand over: what one interval took is not in the next")
    void intervalsDoNotOverlap() throws InterruptedException {
        FakeClock clock = new FakeClock();
        Deque<Long> script = new ArrayDeque<>(List.of(MS, 11 * MS, MS, MS));
        HiccupProbe probe = new HiccupProbe(clock, nanos -> clock.advance(script.removeFirst()), PERIOD);
        probe.step();
        probe.step();
        Histogram first = probe.intervalHistogram(null);
        probe.step();
        probe.step();
        Histogram second = probe.intervalHistogram(null);
        assertThat(first.getMaxValue()).isEqualTo(first.highestEquivalentValue(10 * MS));
        assertThat(second.getTotalCount()).isEqualTo(2);
        assertThat(second.getMaxValue()).isLessThan(HiccupProbe.RESOLUTION_NANOS);
    }

    @Test
    @DisplayName("a period under 1 µs is refused, naming it")
    void tooShortAPeriodIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> HiccupProbe.start(Duration.ofNanos(999))).withMessageContaining("PT0.000000999S");
    }

    @Test
    @DisplayName("a started probe runs on a daemon platform thread of its own, wakes, and its thread ends on close")
    void realProbeRunsAndStops() throws InterruptedException {
        HiccupProbe probe = HiccupProbe.start(Duration.ofMillis(1));
        try {
            Thread t = probe.thread();
            assertThat(t.isDaemon()).isTrue();
            assertThat(t.isVirtual()).isFalse();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos(); // generous: a busy machine wakes late
            while (probe.wakeUps() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(probe.wakeUps()).isGreaterThanOrEqualTo(3);
            assertThat(probe.intervalHistogram(null).getTotalCount()).isGreaterThanOrEqualTo(3);
        } finally {
            probe.close();
        }
        assertThat(probe.thread().isAlive()).isFalse();
    }
}
