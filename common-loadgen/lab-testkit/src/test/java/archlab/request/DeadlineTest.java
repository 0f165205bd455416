package archlab.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DeadlineTest {

    @Test
    @DisplayName("after(timeout) is the clock's reading plus the timeout")
    void afterIsNowPlusTimeout() {
        FakeClock clock = new FakeClock(5_000);
        assertThat(Deadline.after(clock, Duration.ofMillis(200)).atNanos()).isEqualTo(5_000 + 200_000_000L);
    }

    @Test
    @DisplayName("remaining shrinks exactly as the clock advances")
    void remainingShrinksWithTheClock() {
        FakeClock clock = new FakeClock(1_000);
        Deadline d = Deadline.after(clock, Duration.ofNanos(500));
        assertThat(d.remainingNanos(clock)).isEqualTo(500);
        clock.advance(120);
        assertThat(d.remainingNanos(clock)).isEqualTo(380);
        clock.advance(1_000);
        assertThat(d.remainingNanos(clock)).isEqualTo(-620);
    }

    @Test
    @DisplayName("a deadline is not expired one nanosecond before, and expired at and after its instant")
    void expiresAtItsInstant() {
        FakeClock clock = new FakeClock();
        Deadline d = Deadline.after(clock, Duration.ofMillis(10));
        clock.advance(Duration.ofMillis(10).toNanos() - 1);
        assertThat(d.isExpired(clock)).isFalse();
        clock.advance(1);
        assertThat(d.isExpired(clock)).isTrue();
        clock.advance(Duration.ofDays(1));
        assertThat(d.isExpired(clock)).isTrue();
    }

    @Test
    @DisplayName("a zero timeout is allowed and already expired")
    void zeroTimeoutIsExpiredAtOnce() {
        FakeClock clock = new FakeClock(42);
        assertThat(Deadline.after(clock, Duration.ZERO).isExpired(clock)).isTrue();
    }

    @Test
    @DisplayName("within takes the per-call budget when it ends earlier")
    void withinTakesTheEarlierBudget() {
        FakeClock clock = new FakeClock();
        Deadline request = Deadline.after(clock, Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(50));
        assertThat(request.within(clock, Duration.ofMillis(30)).atNanos()).isEqualTo(Duration.ofMillis(80).toNanos());
    }

    @Test
    @DisplayName("within keeps the request's deadline when the per-call budget would end later")
    void withinKeepsTheEarlierRequestDeadline() {
        FakeClock clock = new FakeClock();
        Deadline request = Deadline.after(clock, Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(150));
        assertThat(request.within(clock, Duration.ofMillis(100))).isEqualTo(request);
    }

    @Test
    @DisplayName("a negative timeout is refused, for after and within alike")
    void negativeTimeoutIsRefused() {
        FakeClock clock = new FakeClock();
        assertThatThrownBy(() -> Deadline.after(clock, Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> Deadline.NONE.within(clock, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
    }

    @Test
    @DisplayName("NONE never expires, whatever the clock reads")
    void noneNeverExpires() {
        for (long reading : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            FakeClock clock = new FakeClock(reading);
            assertThat(Deadline.NONE.isExpired(clock)).as("at %d", reading).isFalse();
            assertThat(Deadline.NONE.remainingNanos(clock)).isEqualTo(Long.MAX_VALUE);
        }
    }

    @Test
    @DisplayName("near Long.MAX_VALUE after() saturates instead of wrapping into the past")
    void afterSaturatesNearMaxValue() {
        FakeClock clock = new FakeClock(Long.MAX_VALUE - 10);
        Deadline d = Deadline.after(clock, Duration.ofSeconds(1));
        assertThat(d.atNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(d.isExpired(clock)).isFalse();
    }

    @Test
    @DisplayName("a timeout beyond Duration.toNanos() (about 292 years) saturates instead of throwing")
    void hugeTimeoutSaturates() {
        FakeClock clock = new FakeClock(123);
        assertThat(Deadline.after(clock, ChronoUnit.FOREVER.getDuration()).atNanos()).isEqualTo(Long.MAX_VALUE);
        Deadline d = Deadline.after(clock, Duration.ofMillis(5));
        assertThat(d.within(clock, ChronoUnit.FOREVER.getDuration())).isEqualTo(d);
    }

    @Test
    @DisplayName("remaining saturates instead of overflowing when deadline and clock are more than Long.MAX_VALUE apart")
    void remainingSaturates() {
        FakeClock clock = new FakeClock(-10); // System.nanoTime() may be negative
        Deadline farAway = new Deadline(Long.MAX_VALUE - 1);
        assertThat(farAway.remainingNanos(clock)).isEqualTo(Long.MAX_VALUE);
        assertThat(farAway.isExpired(clock)).isFalse();

        FakeClock late = new FakeClock(10);
        Deadline longPast = new Deadline(Long.MIN_VALUE + 1);
        assertThat(longPast.remainingNanos(late)).isEqualTo(Long.MIN_VALUE);
        assertThat(longPast.isExpired(late)).isTrue();
    }
}
