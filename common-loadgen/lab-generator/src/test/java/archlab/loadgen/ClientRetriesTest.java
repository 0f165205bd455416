package archlab.loadgen;

import archlab.loadgen.testing.MultiSecondCheck;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.testing.FakeClock;
import archlab.timeline.TimelineSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The runner's callers that retry, on a fake clock: how attempts are counted apart from planned requests, where a
 * request's latency starts, and how a budget bounds the retries when every attempt fails.
 */
@MultiSecondCheck
class ClientRetriesTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);

    /** Moves 0.2 ms per reading, so that the generator's schedule (1 ms apart at 1,000/s) passes in a few readings. */
    private final FakeClock clock = new FakeClock().setAutoIncrementStep(Duration.ofNanos(200_000));

    private static LoadSpec spec(int rate, long millis, ClientRetryPolicy retries) {
        return LoadSpec.builder().ratePerSecond(rate).duration(Duration.ofMillis(millis)).timeout(TIMEOUT).traceEvery(0)
                .retries(retries).build();
    }

    /** The runner on the fake clock, no timeline, back-offs waited out by moving the fake clock. */
    private OpenLoopRunner runner() {
        return new OpenLoopRunner(clock, TimelineSettings.OFF, clock::advance);
    }

    private static Workload workload(Body body) {
        return new Workload() {
            @Override
            public String operationOf(long sequence) {
                return "op";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) throws Exception {
                body.run(sequence, ctx);
            }
        };
    }

    @FunctionalInterface
    private interface Body {
        void run(long sequence, RequestContext ctx) throws Exception;
    }

    @Test
    @DisplayName("a request that times out, then fails, then completes is one completed request of three attempts, its latency counted from its first planned start")
    void attemptsAreCountedApartAndLatencyRunsFromTheFirstStart() {
        Map<Long, Integer> attemptsBySequence = new ConcurrentHashMap<>();
        Map<Integer, Long> plannedStartByAttempt = new ConcurrentHashMap<>();
        RunResult r = runner().run(spec(1, 1_000, ClientRetryPolicy.immediately(3)), workload((seq, ctx) -> {
            int attempt = attemptsBySequence.merge(seq, 1, Integer::sum);
            plannedStartByAttempt.put(attempt, ctx.plannedStartNanos());
            switch (attempt) {
                case 1 -> clock.advance(Duration.ofMillis(300)); // answers after its deadline: timed out
                case 2 -> throw new IllegalStateException("refused"); // fails before its deadline
                default -> { } // completes
            }
        }));

        assertThat(r.offered()).isEqualTo(1);
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(r.amplification()).isEqualTo(3.0);
        assertThat(r.completed()).isEqualTo(1);
        assertThat(r.timedOut() + r.failed()).isZero();
        assertThat(r.latency().maxMicros()).as("first planned start to final answer").isGreaterThanOrEqualTo(300_000);
        assertThat(plannedStartByAttempt.get(2)).as("a retry carries a deadline of its own, from its own start")
                .isGreaterThan(plannedStartByAttempt.get(1) + TIMEOUT.toNanos());
        assertThat(r.maxOverrunNanos()).as("attempt 1 answered 100 ms past its deadline").isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
    }

    @Test
    @DisplayName("without a budget every failing request is sent maxAttempts times: amplification = maxAttempts")
    void withoutBudgetEveryFailureIsRetried() {
        RunResult r = runner().run(spec(1_000, 100, ClientRetryPolicy.immediately(4)), workload((seq, ctx) -> {
            throw new IllegalStateException("down");
        }));

        assertThat(r.offered()).isEqualTo(100);
        assertThat(r.attempts()).isEqualTo(400);
        assertThat(r.amplification()).isEqualTo(4.0);
        assertThat(r.failed()).isEqualTo(100);
        assertThat(r.retriesDenied()).isZero();
    }

    @Test
    @DisplayName("a 10% budget with a reserve of 5 lets at most 5 + 10% of first attempts through as retries, however many fail")
    void budgetBoundsTheRetries() {
        RunResult r = runner().run(spec(1_000, 100, ClientRetryPolicy.immediately(4).withBudget(new RetryBudget.BudgetSettings(0.10, 5))),
                workload((seq, ctx) -> {
                    throw new IllegalStateException("down");
                }));

        long retries = r.attempts() - r.offered();
        assertThat(retries).isPositive().isLessThanOrEqualTo(5 + 10);
        assertThat(r.retriesDenied()).as("requests that ended by a refused retry").isPositive()
                .isGreaterThanOrEqualTo(r.offered() - retries);
        assertThat(r.failed()).isEqualTo(100);
        assertThat(r.amplification()).isLessThanOrEqualTo(1.15);
    }

    @Test
    @DisplayName("a request that completes at once is sent once: the runner's figures are those of a run without retries")
    void successIsNotRetried() {
        RunResult r = runner().run(spec(1_000, 100, ClientRetryPolicy.immediately(3)), workload((seq, ctx) -> { }));
        assertThat(r.attempts()).isEqualTo(r.offered()).isEqualTo(100);
        assertThat(r.completed()).isEqualTo(100);
        assertThat(r.abandoned()).isZero();
    }

    @Test
    @DisplayName("a caller stops waiting at its attempt's deadline and retries while the service still works on the first attempt; the run waits for both")
    void callerAbandonsAHungAttempt() {
        Map<Long, Integer> attemptsBySequence = new ConcurrentHashMap<>();
        RunResult r = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.OFF).run(
                LoadSpec.builder().ratePerSecond(1).duration(Duration.ofSeconds(1)).timeout(Duration.ofMillis(20))
                        .traceEvery(0).retries(ClientRetryPolicy.immediately(2)).build(),
                workload((seq, ctx) -> {
                    if (attemptsBySequence.merge(seq, 1, Integer::sum) == 1) {
                        Thread.sleep(120); // the service holds the first attempt well past its 20 ms deadline
                    }
                }));

        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.abandoned()).isEqualTo(1);
        assertThat(r.completed()).isEqualTo(1);
        assertThat(r.latency().maxMicros()).as("the caller's view: about 20 ms, not 120").isLessThan(100_000);
        assertThat(r.maxOverrunNanos()).as("the service's view: the first attempt answered ~100 ms late").isGreaterThan(Duration.ofMillis(50).toNanos());
        assertThat(r.unfinished()).isZero();
    }

    @Test
    @DisplayName("back-off: zero when retrying immediately; else full jitter within min(cap, base·2^(n-1)), the same for the same request on every run")
    void backoffIsBoundedAndSeeded() {
        assertThat(ClientRetryPolicy.immediately(3).backoffNanos(2, 7)).isZero();
        ClientRetryPolicy p = ClientRetryPolicy.jitteredBackoff(5, Duration.ofMillis(10), Duration.ofMillis(40), 42);
        for (long seq = 1; seq <= 500; seq++) {
            assertThat(p.backoffNanos(1, seq)).isBetween(0L, Duration.ofMillis(10).toNanos());
            assertThat(p.backoffNanos(2, seq)).isBetween(0L, Duration.ofMillis(20).toNanos());
            assertThat(p.backoffNanos(4, seq)).isBetween(0L, Duration.ofMillis(40).toNanos());
            assertThat(p.backoffNanos(3, seq)).isEqualTo(p.backoffNanos(3, seq));
        }
        long distinct = java.util.stream.LongStream.rangeClosed(1, 100).map(seq -> p.backoffNanos(1, seq)).distinct().count();
        assertThat(distinct).as("jittered, not one wave").isGreaterThan(90);
        assertThatThrownBy(() -> p.backoffNanos(0, 1)).hasMessageContaining("retry counts from 1");
    }

    @Test
    @DisplayName("a budget starts full, earns ratio per first attempt up to its reserve, and refuses a retry it cannot pay for")
    void budgetAccounting() {
        RetryBudget b = new RetryBudget(new RetryBudget.BudgetSettings(0.5, 2));
        assertThat(b.tryRetry()).isTrue();
        assertThat(b.tryRetry()).isTrue();
        assertThat(b.tryRetry()).isFalse();
        b.firstAttempt();
        assertThat(b.tryRetry()).as("half a retry is not one").isFalse();
        b.firstAttempt();
        assertThat(b.tryRetry()).isTrue();
        for (int i = 0; i < 100; i++) {
            b.firstAttempt();
        }
        assertThat(b.balance()).as("never above the reserve").isEqualTo(2.0);
        assertThat(b.granted()).isEqualTo(3);
        assertThat(b.denied()).isEqualTo(2);
        assertThatThrownBy(() -> new RetryBudget.BudgetSettings(1.5, 1)).hasMessageContaining("ratio must be in [0, 1], was 1.5");
        assertThatThrownBy(() -> new RetryBudget.BudgetSettings(0.1, 0)).hasMessageContaining("reserve must be at least 1, was 0");
    }

    @Test
    @DisplayName("jittered back-off goes through the runner: every retry waits the policy's seeded back-off (on the fake clock) before it is sent")
    void backoffIsWaitedBeforeEachRetry() {
        ClientRetryPolicy policy = ClientRetryPolicy.jitteredBackoff(3, Duration.ofMillis(10), Duration.ofMillis(40), 7);
        java.util.List<Long> waited = new java.util.concurrent.CopyOnWriteArrayList<>();
        OpenLoopRunner runner = new OpenLoopRunner(clock, TimelineSettings.OFF, nanos -> {
            waited.add(nanos);
            clock.advance(nanos);
        });
        RunResult r = runner.run(spec(1, 1_000, policy), workload((seq, ctx) -> {
            throw new IllegalStateException("down");
        }));
        assertThat(r.attempts()).isEqualTo(3);
        assertThat(waited).containsExactly(policy.backoffNanos(1, 1), policy.backoffNanos(2, 1));
    }

    @Test
    @DisplayName("the timeline counts the retries apart: the run's intervals add up to attempts - planned")
    void timelineCountsRetries() {
        RunResult r = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.DEFAULT).run(
                LoadSpec.builder().ratePerSecond(500).duration(Duration.ofMillis(200)).timeout(TIMEOUT).traceEvery(0)
                        .retries(ClientRetryPolicy.immediately(3)).build(),
                workload((seq, ctx) -> {
                    throw new IllegalStateException("down");
                }));
        long retried = r.timeline().phase(archlab.timeline.Interval.RUN).stream().mapToLong(archlab.timeline.Interval::retried).sum();
        assertThat(r.attempts()).isEqualTo(3 * r.offered());
        assertThat(retried).isEqualTo(r.attempts() - r.offered());
    }

    @Test
    @DisplayName("an attempt the caller gave up on is its own failure cause, not the service's DeadlineExceededException")
    void givingUpIsItsOwnCause() {
        RunResult r = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.OFF).run(
                LoadSpec.builder().ratePerSecond(1).duration(Duration.ofSeconds(1)).timeout(Duration.ofMillis(20))
                        .traceEvery(0).retries(ClientRetryPolicy.immediately(2)).build(),
                workload((seq, ctx) -> Thread.sleep(60)));
        assertThat(r.timedOut()).isEqualTo(1);
        assertThat(r.failureCauses()).containsOnlyKeys("CallerGaveUp");
        assertThat(r.abandoned()).isEqualTo(2);
        assertThat(r.unfinished()).as("requests").isZero();
        assertThat(r.attemptsStillRunning()).isZero();
    }

    @Test
    @DisplayName("a back-off that would overflow saturates at the cap; a cap past an hour is refused")
    void backoffSaturates() {
        ClientRetryPolicy p = ClientRetryPolicy.jitteredBackoff(100, Duration.ofSeconds(10), Duration.ofHours(1), 3);
        for (int retry = 1; retry < 100; retry++) {
            assertThat(p.backoffNanos(retry, 5)).isBetween(0L, Duration.ofHours(1).toNanos());
        }
        assertThatThrownBy(() -> ClientRetryPolicy.jitteredBackoff(3, Duration.ofMillis(1), Duration.ofHours(2), 3))
                .hasMessageContaining("at most PT1H");
    }
}
