package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.downstream.DownstreamException;
import archlab.request.Deadline;
import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import archlab.trace.Trace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Bounded, jittered, deadline-aware retries, on a fake clock whose sleeper advances it. */
class RetryPolicyTest {

    private final FakeClock clock = new FakeClock();
    private final List<Long> slept = new ArrayList<>();
    private final RetryPolicy.Sleeper sleeper = nanos -> {
        slept.add(nanos);
        clock.advance(nanos);
    };
    private final RetryPolicy policy = new RetryPolicy(4, Duration.ofMillis(10), Duration.ofMillis(40),
            Duration.ofMillis(50), 7);

    private RequestContext ctx(Duration timeout) {
        return new RequestContext(1, clock.nanoTime(), new Deadline(clock.nanoTime() + timeout.toNanos()), clock, Trace.OFF);
    }

    @Test
    @DisplayName("a transient failure is retried until it succeeds, each backoff within its exponential cap")
    void retriesUntilSuccess() {
        AtomicInteger calls = new AtomicInteger();
        LongAdder retries = new LongAdder();
        String result = policy.run(ctx(Duration.ofSeconds(10)), c -> {
            if (calls.incrementAndGet() < 3) {
                throw new DownstreamException("payments", calls.get(), "transient");
            }
            return "ok";
        }, e -> true, sleeper, retries);

        assertThat(result).isEqualTo("ok");
        assertThat(calls).hasValue(3);
        assertThat(retries.sum()).isEqualTo(2);
        assertThat(slept).hasSize(2);
        assertThat(slept.get(0)).isBetween(0L, Duration.ofMillis(10).toNanos());
        assertThat(slept.get(1)).isBetween(0L, Duration.ofMillis(20).toNanos());
    }

    @Test
    @DisplayName("retries stop after maxAttempts and rethrow the last error")
    void boundedAttempts() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> policy.run(ctx(Duration.ofSeconds(10)), c -> {
            throw new DownstreamException("payments", calls.incrementAndGet(), "down");
        }, e -> true, sleeper, null)).isInstanceOf(DownstreamException.class);
        assertThat(calls).hasValue(4);
    }

    @Test
    @DisplayName("a non-retryable error is thrown at once")
    void notRetryable() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> policy.run(ctx(Duration.ofSeconds(10)), c -> {
            calls.incrementAndGet();
            throw new IllegalStateException("declined");
        }, e -> e instanceof DownstreamException, sleeper, null)).isInstanceOf(IllegalStateException.class);
        assertThat(calls).hasValue(1);
    }

    @Test
    @DisplayName("never retries past the deadline: a backoff that would end after it is not slept")
    void neverPastTheDeadline() {
        AtomicInteger calls = new AtomicInteger();
        RequestContext ctx = ctx(Duration.ofMillis(15));
        assertThatThrownBy(() -> policy.run(ctx, c -> {
            calls.incrementAndGet();
            clock.advance(Duration.ofMillis(6)); // each attempt takes 6 ms
            throw new DownstreamException("payments", calls.get(), "slow");
        }, e -> true, sleeper, null)).isInstanceOf(DownstreamException.class);
        assertThat(clock.nanoTime()).as("time spent, ns").isLessThanOrEqualTo(ctx.deadline().atNanos());
        assertThat(calls.get()).isLessThan(4);
    }

    @Test
    @DisplayName("each attempt gets a per-call deadline carved out of the request's: never later than the request's own")
    void perCallBudget() {
        RequestContext ctx = ctx(Duration.ofSeconds(10));
        List<Deadline> seen = new ArrayList<>();
        policy.run(ctx, c -> {
            seen.add(c.deadline());
            return null;
        }, e -> true, sleeper, null);
        assertThat(seen.get(0).atNanos()).isEqualTo(clock.nanoTime() + Duration.ofMillis(50).toNanos());
        RequestContext tight = ctx(Duration.ofMillis(20));
        policy.run(tight, c -> {
            seen.add(c.deadline());
            return null;
        }, e -> true, sleeper, null);
        assertThat(seen.get(1)).isEqualTo(tight.deadline());
    }

    @Test
    @DisplayName("the jitter is seeded: the same request sleeps the same backoffs on every run")
    void seededJitter() {
        List<Long> first = backoffs();
        slept.clear();
        assertThat(backoffs()).isEqualTo(first);
    }

    private List<Long> backoffs() {
        try {
            policy.run(ctx(Duration.ofSeconds(10)), c -> {
                throw new DownstreamException("payments", 0, "down");
            }, e -> true, sleeper, null);
        } catch (DownstreamException expected) {
            // all attempts failed
        }
        return List.copyOf(slept);
    }

    @Test
    @DisplayName("bad settings are refused with a clear message")
    void badSettings() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ofMillis(1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofMillis(-1), Duration.ZERO, Duration.ofMillis(1), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ZERO, Duration.ZERO, Duration.ZERO, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("perCallBudget");
    }
}
