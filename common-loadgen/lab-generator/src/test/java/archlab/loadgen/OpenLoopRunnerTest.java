package archlab.loadgen;

import archlab.clock.NanoClock;
import archlab.request.PoolExhaustedException;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.trace.SegmentTable.SegmentRow;
import archlab.trace.Span;
import archlab.trace.Trace;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real-time runs, kept small (at most 1,000 req/s for 300 ms). Timeouts are generous (5 s) wherever a
 * test needs requests to finish in time, so that a stalled, shared machine cannot change an outcome;
 * where a test needs a request to time out, the request sleeps past a short timeout, which holds anywhere.
 */
class OpenLoopRunnerTest {

    private static final Duration GENEROUS = Duration.ofSeconds(5);
    private static final long MS = 1_000_000L;

    @FunctionalInterface
    interface Body {
        void run(long sequence, String operation, RequestContext ctx) throws Exception;
    }

    private static Workload workload(LongFunction<String> operationOf, Body body) {
        return new Workload() {
            @Override
            public String operationOf(long sequence) {
                return operationOf.apply(sequence);
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) throws Exception {
                body.run(sequence, operation, ctx);
            }
        };
    }

    private static LoadSpec spec(int rate, long millis, Duration timeout) {
        return LoadSpec.builder().ratePerSecond(rate).duration(Duration.ofMillis(millis)).timeout(timeout).traceEvery(0)
                .build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(ThreadKind.class)
    @DisplayName("offered equals rate × duration exactly, and every offered request starts and completes, on both thread kinds")
    void offeredIsRateTimesDuration(ThreadKind kind) {
        Queue<Boolean> virtual = new ConcurrentLinkedQueue<>();
        LoadSpec spec = spec(1_000, 200, GENEROUS).withThreads(kind);

        RunResult r = new OpenLoopRunner().run(spec,
                workload(seq -> "noop", (seq, op, ctx) -> virtual.add(Thread.currentThread().isVirtual())));

        assertThat(r.offered()).isEqualTo(200);
        assertThat(r.started()).isEqualTo(200);
        assertThat(r.notStarted()).isZero();
        assertThat(r.completed()).isEqualTo(200);
        assertThat(r.unfinished()).isZero();
        assertThat(r.latency().count()).isEqualTo(200);
        assertThat(r.sendLag().count()).isEqualTo(200);
        assertThat(virtual).hasSize(200).containsOnly(kind == ThreadKind.VIRTUAL);
    }

    /**
     * The run's clock, which jumps 150 ms ahead at the generator's 50th reading: to the generator it looks
     * as if it had stalled (a GC pause, a descheduled core) for 150 ms, about 150 planned starts.
     */
    static final class StallingClock implements NanoClock {
        static final long STALL_NANOS = 150 * MS;
        private final Thread generator = Thread.currentThread();
        private final AtomicInteger generatorReads = new AtomicInteger();
        private volatile long offset;

        @Override
        public long nanoTime() {
            if (Thread.currentThread() == generator && generatorReads.incrementAndGet() == 50) {
                offset = STALL_NANOS;
            }
            return System.nanoTime() + offset;
        }
    }

    /** One run of no-op requests at 1,000 req/s for 300 ms whose generator stalls 150 ms ({@link StallingClock}). */
    private static RunResult stalledRun;

    @BeforeAll
    static void runWithAStalledGenerator() {
        stalledRun = new OpenLoopRunner(new StallingClock()).run(spec(1_000, 300, GENEROUS),
                workload(seq -> "noop", (seq, op, ctx) -> { }));
    }

    @Test
    @DisplayName("offered equals rate × duration even when the generator falls behind: late requests start at once, none is skipped")
    void offeredIsExactEvenWhenTheGeneratorFallsBehind() {
        RunResult r = stalledRun;

        assertThat(r.offered()).isEqualTo(300);
        assertThat(r.started()).isEqualTo(300);
        assertThat(r.completed()).isEqualTo(300);
        // the request the generator was waiting for at the stall started at least 149 ms late
        assertThat(r.sendLag().maxMicros()).isGreaterThanOrEqualTo(140_000.0);
    }

    @Test
    @DisplayName("latency counts from the planned start: a request the generator started late is charged for the wait")
    void latencyIncludesTheGeneratorsLateness() {
        RunResult r = stalledRun;

        // the tasks do nothing, yet the worst latency is at least the stall
        assertThat(r.latency().maxMicros()).isGreaterThanOrEqualTo(140_000.0);
        assertThat(r.latency().maxMicros()).isGreaterThanOrEqualTo(r.sendLag().maxMicros());
        assertThat(r.latency().meanMicros()).isGreaterThanOrEqualTo(r.sendLag().meanMicros());
    }

    @Test
    @DisplayName("open loop, no cap: requests slower than the interval overlap and every one of them is still started")
    void slowRequestsOverlapAndAllStart() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();

        RunResult r = new OpenLoopRunner().run(spec(500, 200, GENEROUS), workload(seq -> "slow", (seq, op, ctx) -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                sleep(100); // 50 intervals of 2 ms
            } finally {
                inFlight.decrementAndGet();
            }
        }));

        assertThat(r.offered()).isEqualTo(100);
        assertThat(r.started()).isEqualTo(100);
        assertThat(r.completed()).isEqualTo(100);
        assertThat(maxInFlight.get()).isGreaterThan(1);
    }

    @Test
    @DisplayName("every request's latency is at least the time its task took")
    void latencyIsAtLeastTheTasksOwnTime() {
        RunResult r = new OpenLoopRunner().run(spec(500, 100, GENEROUS), workload(seq -> "slow", (seq, op, ctx) -> sleep(30)));

        Histogram micros = LatencyHistogram.decode(r.latency().hdrBase64());
        assertThat(micros.getTotalCount()).isEqualTo(50);
        assertThat(micros.getMinValue()).isGreaterThanOrEqualTo(micros.lowestEquivalentValue(30_000));
        assertThat(r.latency().meanMicros()).isGreaterThanOrEqualTo(30_000.0);
    }

    @Test
    @DisplayName("a request that ends past its timeout is timed out, with or without an error, and its cause is counted")
    void pastTheTimeoutIsTimedOut() {
        RunResult r = new OpenLoopRunner().run(spec(1_000, 100, Duration.ofMillis(20)), workload(seq -> "slow", (seq, op, ctx) -> {
            sleep(40);
            if (seq % 2 == 1) {
                throw new IllegalStateException("late and wrong");
            }
        }));

        assertThat(r.offered()).isEqualTo(100);
        assertThat(r.timedOut()).isEqualTo(100);
        assertThat(r.completed()).isZero();
        assertThat(r.failed()).isZero();
        assertThat(r.failureCauses()).containsExactlyInAnyOrderEntriesOf(Map.of("none", 50L, "IllegalStateException", 50L));
        assertThat(r.latency().count()).isEqualTo(100);
        assertThat(r.maxOverrunNanos()).isGreaterThanOrEqualTo(20 * MS); // slept 40 ms against 20 ms
    }

    /** The system clock, except on a thread that froze its own reading (each request has a thread of its own). */
    static final class FreezableClock implements NanoClock {
        private final ThreadLocal<Long> frozen = new ThreadLocal<>();

        void freezeThisThreadAt(long nanos) {
            frozen.set(nanos);
        }

        @Override
        public long nanoTime() {
            Long f = frozen.get();
            return f != null ? f : System.nanoTime();
        }
    }

    @Test
    @DisplayName("the timeout boundary is the deadline's: ending exactly at planned start + timeout is timed out, 1 ns earlier is not")
    void timeoutBoundaryMatchesTheDeadline() {
        FreezableClock clock = new FreezableClock();
        RunResult r = new OpenLoopRunner(clock).run(spec(1_000, 100, GENEROUS), workload(seq -> "op", (seq, op, ctx) -> {
            if (seq % 2 == 1) {
                clock.freezeThisThreadAt(ctx.deadline().atNanos());
                ctx.checkDeadline("payments.charge"); // expired: throws DeadlineExceededException
            } else {
                clock.freezeThisThreadAt(ctx.deadline().atNanos() - 1);
                ctx.checkDeadline("payments.charge"); // 1 ns left: passes
                throw new IllegalStateException("a plain error, just in time");
            }
        }));

        assertThat(r.timedOut()).isEqualTo(50);
        assertThat(r.failed()).isEqualTo(50);
        assertThat(r.failureCauses()).containsExactlyInAnyOrderEntriesOf(
                Map.of("DeadlineExceededException", 50L, "IllegalStateException", 50L));
        assertThat(r.maxOverrunNanos()).isZero();
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @DisplayName("one run of four kinds of request (ok, failing, rejected, nothing to send), 50 each, all well before the timeout")
    class Outcomes {

        RunResult r;

        @BeforeAll
        void run() {
            String[] kinds = {"ok", "boom", "reject", "empty"};
            r = new OpenLoopRunner().run(spec(1_000, 200, GENEROUS), workload(seq -> kinds[(int) (seq % 4)], (seq, op, ctx) -> {
                switch (op) {
                    case "boom" -> throw new IllegalStateException("invalid state");
                    case "reject" -> throw new RequestRejectedException("rate limited", Duration.ofMillis(5));
                    case "empty" -> throw new PoolExhaustedException("no order left");
                    default -> { }
                }
            }));
        }

        @Test
        @DisplayName("a RuntimeException before the timeout is failed, and failureCauses names its class")
        void exceptionBeforeTimeoutIsFailed() {
            assertThat(r.failed()).isEqualTo(50);
            assertThat(r.operations().get("boom").failed()).isEqualTo(50);
            assertThat(r.failureCauses()).containsExactlyInAnyOrderEntriesOf(Map.of("IllegalStateException", 50L));
        }

        @Test
        @DisplayName("RequestRejectedException is rejected, not failed, and stays out of the latency histogram")
        void rejectedIsItsOwnOutcome() {
            assertThat(r.rejected()).isEqualTo(50);
            assertThat(r.operations().get("reject").rejected()).isEqualTo(50);
            assertThat(r.operations().get("reject").latency().count()).isZero();
        }

        @Test
        @DisplayName("PoolExhaustedException is pool-exhausted, not a success, and stays out of the latency histogram")
        void poolExhaustedIsItsOwnOutcome() {
            assertThat(r.poolExhausted()).isEqualTo(50);
            assertThat(r.operations().get("empty").poolExhausted()).isEqualTo(50);
            assertThat(r.operations().get("empty").latency().count()).isZero();
        }

        @Test
        @DisplayName("the latency histogram holds exactly the completed, timed-out and failed requests")
        void latencyHoldsCompletedTimedOutAndFailed() {
            assertThat(r.completed()).isEqualTo(50);
            assertThat(r.timedOut()).isZero();
            assertThat(r.latency().count()).isEqualTo(r.completed() + r.timedOut() + r.failed()).isEqualTo(100);
        }

        @Test
        @DisplayName("per-operation counts add up to the totals, and each operation's outcomes to its offered")
        void perOperationCountsAddUp() {
            Map<String, RunResult.OperationResult> ops = r.operations();
            assertThat(ops).containsOnlyKeys("ok", "boom", "reject", "empty");
            assertThat(ops.values().stream().mapToLong(RunResult.OperationResult::offered).sum()).isEqualTo(r.offered()).isEqualTo(200);
            assertThat(ops.values().stream().mapToLong(RunResult.OperationResult::completed).sum()).isEqualTo(r.completed());
            assertThat(ops.values().stream().mapToLong(RunResult.OperationResult::timedOut).sum()).isEqualTo(r.timedOut());
            assertThat(ops.values().stream().mapToLong(RunResult.OperationResult::failed).sum()).isEqualTo(r.failed());
            assertThat(ops.values().stream().mapToLong(RunResult.OperationResult::rejected).sum()).isEqualTo(r.rejected());
            assertThat(ops.values().stream().mapToLong(RunResult.OperationResult::poolExhausted).sum()).isEqualTo(r.poolExhausted());
            assertThat(ops.values().stream().mapToLong(o -> o.latency().count()).sum()).isEqualTo(r.latency().count());
            ops.values().forEach(o -> assertThat(o.completed() + o.timedOut() + o.failed() + o.rejected() + o.poolExhausted())
                    .as(o.operation()).isEqualTo(o.offered()).isEqualTo(50));
        }
    }

    @Test
    @DisplayName("each request's deadline is its planned start + timeout, and planned starts follow the arrival plan exactly")
    void deadlineIsPlannedStartPlusTimeout() {
        Queue<RequestContext> contexts = new ConcurrentLinkedQueue<>();
        NanoClock clock = System::nanoTime;
        Duration timeout = Duration.ofMillis(200);

        RunResult r = new OpenLoopRunner(clock).run(spec(1_000, 100, timeout), workload(seq -> "op", (seq, op, ctx) -> contexts.add(ctx)));

        assertThat(r.offered()).isEqualTo(100);
        Map<Long, RequestContext> bySequence = contexts.stream().collect(Collectors.toMap(RequestContext::sequence, c -> c));
        assertThat(bySequence.keySet()).isEqualTo(LongStream.rangeClosed(1, 100).boxed().collect(Collectors.toSet()));
        long firstPlanned = bySequence.get(1L).plannedStartNanos();
        bySequence.forEach((seq, ctx) -> {
            assertThat(ctx.deadline().atNanos()).as("seq %d", seq).isEqualTo(ctx.plannedStartNanos() + timeout.toNanos());
            assertThat(ctx.plannedStartNanos() - firstPlanned).as("seq %d", seq).isEqualTo((seq - 1) * MS);
            assertThat(ctx.clock()).isSameAs(clock);
        });
    }

    @Test
    @DisplayName("with traceEvery 0 no request is traced: tracedRequests 0, no segments, every trace is Trace.OFF")
    void traceEveryZeroTracesNothing() {
        Queue<Trace> traces = new ConcurrentLinkedQueue<>();
        RunResult r = new OpenLoopRunner().run(spec(1_000, 100, GENEROUS), workload(seq -> "op", (seq, op, ctx) -> {
            traces.add(ctx.trace());
            try (Span s = ctx.span("work")) {
                // nothing
            }
        }));

        assertThat(r.tracedRequests()).isZero();
        assertThat(r.segments()).isEmpty();
        assertThat(traces).hasSize(100).containsOnly(Trace.OFF);
    }

    @Test
    @DisplayName("traceEvery N traces exactly the requests whose sequence is divisible by N")
    void traceEveryNTracesMultiplesOfN() {
        Queue<Long> tracedSequences = new ConcurrentLinkedQueue<>();
        RunResult r = new OpenLoopRunner().run(spec(1_000, 200, GENEROUS).withTraceEvery(7), workload(seq -> "op", (seq, op, ctx) -> {
            if (ctx.trace().isRecording()) {
                tracedSequences.add(seq);
            }
        }));

        Set<Long> multiplesOf7 = LongStream.rangeClosed(1, 200).filter(s -> s % 7 == 0).boxed().collect(Collectors.toSet());
        assertThat(tracedSequences).containsExactlyInAnyOrderElementsOf(multiplesOf7);
        assertThat(r.tracedRequests()).isEqualTo(28);
        assertThat(r.segments()).isNotEmpty().allSatisfy(row -> assertThat(row.operationRequests()).isEqualTo(28));
    }

    @Test
    @DisplayName("with every request traced, each operation's segment shares add up to 100%")
    void tracedRunSharesAddUpTo100() {
        RunResult r = new OpenLoopRunner().run(spec(1_000, 100, GENEROUS).withTraceEvery(1),
                workload(seq -> seq % 2 == 0 ? "even" : "odd", (seq, op, ctx) -> {
                    try (Span outer = ctx.span("work")) {
                        try (Span inner = ctx.span("lock.wait")) {
                            Thread.onSpinWait();
                        }
                    }
                }));

        assertThat(r.tracedRequests()).isEqualTo(100);
        Map<String, Double> shares = r.segments().stream()
                .collect(Collectors.groupingBy(SegmentRow::operation, Collectors.summingDouble(SegmentRow::sharePercent)));
        assertThat(shares).containsOnlyKeys("even", "odd");
        shares.forEach((op, share) -> assertThat(share).as(op).isCloseTo(100.0, org.assertj.core.api.Assertions.within(1e-6)));
        List<String> segments = r.segments().stream().map(SegmentRow::segment).distinct().toList();
        assertThat(segments).contains("work", "lock.wait", archlab.trace.Segments.SCHEDULING, archlab.trace.Segments.UNMARKED);
    }

    @Test
    @DisplayName("warm-up requests run first and are excluded: offered and latency count only the measured run")
    void warmupIsExcluded() {
        AtomicInteger executions = new AtomicInteger();
        Queue<Long> sequences = new ConcurrentLinkedQueue<>();
        LoadSpec spec = spec(1_000, 100, GENEROUS).withWarmup(Duration.ofMillis(50));

        RunResult r = new OpenLoopRunner().run(spec, workload(seq -> "op", (seq, op, ctx) -> {
            executions.incrementAndGet();
            sequences.add(seq);
        }));

        assertThat(r.warmupRequests()).isEqualTo(50);
        assertThat(r.offered()).isEqualTo(100);
        assertThat(r.started()).isEqualTo(100);
        assertThat(r.latency().count()).isEqualTo(100);
        assertThat(r.operations().get("op").offered()).isEqualTo(100);
        assertThat(executions).hasValue(150);
        // the measured run continues the warm-up's sequence numbers: 1..50 warm-up, 51..150 measured
        assertThat(sequences).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 150).boxed().toList());
    }
}
