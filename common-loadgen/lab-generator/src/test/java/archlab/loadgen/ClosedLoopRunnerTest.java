package archlab.loadgen;

import archlab.request.RequestOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClosedLoopRunnerTest {

    /** A service that answers each request after {@code millis}, counting how many are in flight at once. */
    private static final class Slow implements Workload {
        final long millis;
        final AtomicInteger inFlight = new AtomicInteger();
        final LongAccumulator mostInFlight = new LongAccumulator(Math::max, 0);
        final ConcurrentHashMap<Long, Boolean> sequences = new ConcurrentHashMap<>();

        Slow(long millis) {
            this.millis = millis;
        }

        @Override
        public String operationOf(long sequence) {
            return sequence % 5 == 0 ? "refused" : "ok";
        }

        @Override
        public void execute(long sequence, String operation, RequestContext ctx) throws Exception {
            sequences.put(sequence, Boolean.TRUE);
            mostInFlight.accumulate(inFlight.incrementAndGet());
            try {
                Thread.sleep(millis);
            } finally {
                inFlight.decrementAndGet();
            }
            if (operation.equals("refused")) {
                throw new RequestRejectedException("no", Duration.ofMillis(1));
            }
        }
    }

    @Test
    @DisplayName("a closed loop keeps at most one request per connection in flight, numbers them on from firstSequence, and counts latency from each send")
    void oneOutstandingPerConnection() throws Exception {
        Slow slow = new Slow(20);
        ClosedLoopRunner.ClosedLoopResult r = new ClosedLoopRunner(NanoClock.SYSTEM)
                .run(slow, 4, Duration.ofMillis(300), Duration.ofSeconds(1), 1000, ThreadKind.PLATFORM);
        assertThat(slow.mostInFlight.get()).isBetween(1L, 4L);
        assertThat(slow.sequences.keySet()).allSatisfy(n -> assertThat(n).isGreaterThan(1000L));
        assertThat(r.answered()).isEqualTo(slow.sequences.size());
        assertThat(r.count(RequestOutcome.REJECTED)).isPositive();
        assertThat(r.count(RequestOutcome.COMPLETED) + r.count(RequestOutcome.REJECTED)).isEqualTo(r.answered());
        // latency from the send: about the service's 20 ms, never the run's length
        assertThat(r.latency().p50Micros()).isBetween(20_000L, 250_000L);
        assertThat(r.latency().count()).isEqualTo(r.count(RequestOutcome.COMPLETED));
        assertThat(r.completedPerSecond()).isEqualTo(r.count(RequestOutcome.COMPLETED) / r.seconds());
    }

    @Test
    @DisplayName("a request answered at or past its deadline (its send + the timeout) is timed out, as in the open loop")
    void lateAnswerIsTimedOut() throws Exception {
        ClosedLoopRunner.ClosedLoopResult r = new ClosedLoopRunner(NanoClock.SYSTEM)
                .run(new Slow(30), 2, Duration.ofMillis(300), Duration.ofMillis(10), 0, ThreadKind.VIRTUAL);
        assertThat(r.count(RequestOutcome.TIMED_OUT)).isEqualTo(r.answered()).isPositive();
    }

    @Test
    @DisplayName("no connection, no duration or no timeout is refused")
    void badArgumentsAreRefused() {
        ClosedLoopRunner runner = new ClosedLoopRunner(NanoClock.SYSTEM);
        Slow w = new Slow(1);
        assertThatIllegalArgumentException().isThrownBy(() -> runner.run(w, 0, Duration.ofMillis(10), Duration.ofMillis(10), 0, ThreadKind.PLATFORM));
        assertThatIllegalArgumentException().isThrownBy(() -> runner.run(w, 1, Duration.ZERO, Duration.ofMillis(10), 0, ThreadKind.PLATFORM));
        assertThatIllegalArgumentException().isThrownBy(() -> runner.run(w, 1, Duration.ofMillis(10), Duration.ZERO, 0, ThreadKind.PLATFORM));
    }
}
