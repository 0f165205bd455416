package archlab.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.testing.FakeClock;
import archlab.trace.Span;
import archlab.trace.Trace;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RequestContextTest {

    @Test
    @DisplayName("withTimeout's deadline is its planned start plus the timeout, even on a clock that moves between readings")
    void withTimeoutDeadlineIsPlannedStartPlusTimeout() {
        FakeClock ticking = new FakeClock().setAutoIncrementStep(Duration.ofNanos(1_000)); // every reading 1 µs later
        RequestContext ctx = RequestContext.withTimeout(ticking, Duration.ofMillis(50));

        assertThat(ctx.deadline().atNanos()).isEqualTo(ctx.plannedStartNanos() + 50_000_000L);
        assertThat(ctx.sequence()).isZero();
        assertThat(ctx.trace()).isSameAs(Trace.OFF);
    }

    @Test
    @DisplayName("remainingNanos and checkDeadline follow the context's own clock")
    void checkDeadlineFollowsTheClock() {
        FakeClock clock = new FakeClock(1_000);
        RequestContext ctx = RequestContext.withTimeout(clock, Duration.ofNanos(300));
        clock.advance(299);
        assertThat(ctx.remainingNanos()).isEqualTo(1);
        ctx.checkDeadline("still in time");

        clock.advance(1);
        assertThatThrownBy(() -> ctx.checkDeadline("payments.charge"))
                .isInstanceOf(DeadlineExceededException.class)
                .hasMessage("payments.charge: deadline exceeded");
    }

    @Test
    @DisplayName("background has no deadline and no trace")
    void backgroundHasNoDeadline() {
        RequestContext ctx = RequestContext.background();
        assertThat(ctx.deadline()).isEqualTo(Deadline.NONE);
        assertThat(ctx.trace()).isSameAs(Trace.OFF);
        ctx.checkDeadline("never");
    }

    @Test
    @DisplayName("an untraced context hands out Span.NOOP and never reads its clock")
    void untracedSpanReadsNoClock() {
        RequestContext ctx = new RequestContext(1, 0, Deadline.NONE, FakeClock.throwing(), Trace.OFF);
        try (Span s = ctx.span("payment")) {
            assertThat(s).isSameAs(Span.NOOP);
        }
    }

    @Test
    @DisplayName("deadline, clock and trace are required")
    void partsAreRequired() {
        FakeClock clock = new FakeClock();
        assertThatThrownBy(() -> new RequestContext(1, 0, null, clock, Trace.OFF)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RequestContext(1, 0, Deadline.NONE, null, Trace.OFF)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RequestContext(1, 0, Deadline.NONE, clock, null)).isInstanceOf(IllegalArgumentException.class);
    }
}
