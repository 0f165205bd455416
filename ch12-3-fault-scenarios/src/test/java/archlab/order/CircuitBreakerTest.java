package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.PaymentDeclinedException;
import archlab.downstream.PaymentReplyLostException;
import archlab.clock.NanoClock;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The breaker's three states on a fake clock: nothing here sleeps. */
class CircuitBreakerTest {

    private final FakeClock clock = new FakeClock();
    private final CircuitBreaker breaker = new CircuitBreaker("payments",
            new CircuitBreaker.Settings(10, 5, 0.5, Duration.ofMillis(100)), clock, DownstreamErrors::providerFailed);

    private void call(Throwable outcome) {
        breaker.acquire();
        breaker.record(outcome);
    }

    private static DownstreamException failure() {
        return new DownstreamException("payments", 0, "injected");
    }

    @Test
    @DisplayName("opens once the failure share of the recent calls reaches the threshold, then fails fast with a wait hint")
    void opensAndFailsFast() {
        for (int i = 0; i < 4; i++) {
            call(failure());
        }
        assertThat(breaker.state()).as("below minimumCalls").isEqualTo(CircuitBreaker.State.CLOSED);
        call(failure());
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);

        clock.advance(Duration.ofMillis(30));
        assertThatThrownBy(breaker::acquire).isInstanceOf(CircuitOpenException.class)
                .satisfies(e -> assertThat(((CircuitOpenException) e).retryAfter()).isEqualTo(Duration.ofMillis(70)));
        assertThat(breaker.rejected()).isEqualTo(1);
    }

    @Test
    @DisplayName("after the open duration one trial goes through: success closes the breaker, failure opens it again")
    void halfOpenTrial() {
        for (int i = 0; i < 5; i++) {
            call(failure());
        }
        clock.advance(Duration.ofMillis(100));
        breaker.acquire();
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
        assertThatThrownBy(breaker::acquire).as("only one trial at a time").isInstanceOf(CircuitOpenException.class);
        breaker.record(failure());
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(breaker.timesOpened()).isEqualTo(2);

        clock.advance(Duration.ofMillis(100));
        breaker.acquire();
        breaker.record(null);
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    @DisplayName("a clean decline is the provider working: it never opens the breaker")
    void declinesDoNotCount() {
        for (int i = 0; i < 20; i++) {
            call(new PaymentDeclinedException(i, "ord-000001"));
        }
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    @DisplayName("a lost reply is the provider working (it charged; a keyed retry is replayed): even every call's reply lost never opens the breaker")
    void lostRepliesDoNotCount() {
        for (int i = 0; i < 20; i++) {
            call(new PaymentReplyLostException(i, "ord-000001"));
        }
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    @DisplayName("a timeout the provider saw counts; a timeout on arrival (the caller's deadline passed before the call left) does not")
    void onlyTimeoutsTheProviderSawCount() {
        for (int i = 0; i < 20; i++) {
            call(new DownstreamTimeoutException("payments", i, true));
        }
        assertThat(breaker.state()).as("20 timeouts on arrival").isEqualTo(CircuitBreaker.State.CLOSED);
        for (int i = 0; i < 4; i++) {
            call(new DownstreamTimeoutException("payments", i, false));
        }
        assertThat(breaker.state()).as("4 of the last 10 timed out at the provider").isEqualTo(CircuitBreaker.State.CLOSED);
        call(new DownstreamTimeoutException("payments", 4, false));
        assertThat(breaker.state()).as("5 of the last 10: half").isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    @DisplayName("successes dilute failures: a failure share under the threshold keeps it closed")
    void belowThresholdStaysClosed() {
        for (int i = 0; i < 50; i++) {
            call(i % 3 == 0 ? failure() : null); // a third fail, threshold is a half
        }
        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    @DisplayName("bad settings are refused with a clear message")
    void badSettings() {
        assertThatThrownBy(() -> new CircuitBreaker.Settings(0, 1, 0.5, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minimumCalls");
        assertThatThrownBy(() -> new CircuitBreaker.Settings(10, 5, 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failureRateThreshold");
        assertThatThrownBy(() -> new CircuitBreaker.Settings(10, 5, 0.5, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("openDuration");
    }
}
