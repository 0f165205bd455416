package archlab.jmh;

import archlab.clock.NanoClock;
import archlab.loadgen.Arrival;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.loadgen.ThreadKind;
import archlab.loadgen.Workload;
import archlab.request.RequestContext;
import archlab.timeline.TimelineSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The trap: <b>a load generator slower than the load it claims to offer</b>. What the open-loop runner itself spends
 * per scheduled request — its schedule, a virtual thread started per request, the request's context and deadline, its
 * outcome and latency counted — with a service that does nothing.
 *
 * <p>One invocation is a whole run of {@value #REQUESTS} requests offered at 1,000,000 a second, the highest rate a
 * {@link LoadSpec} takes: one every microsecond, faster than the runner can start them here, so the generator falls
 * behind and starts the late ones at once (it never skips one). The time per operation is then the runner's own cost
 * per request on this machine's two cores (the requests' threads run beside the generator), with the run's fixed costs
 * (1 ms to get going, the drain) spread over the requests; its floor is the schedule's microsecond. Its inverse is the
 * highest rate the runner could offer here before it, and not the service, is what a report measures. The timeline is off: its cost per request
 * is {@link TimelineBenchmark}'s. Bytes per op are the runner's per request (a thread, a context): not zero by design.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RunnerBenchmark {

    static final int REQUESTS = 50_000;

    @State(Scope.Benchmark)
    public static class Runner {
        final OpenLoopRunner runner = new OpenLoopRunner(NanoClock.SYSTEM, TimelineSettings.OFF);
        final LoadSpec spec = LoadSpec.builder().ratePerSecond(1_000_000).duration(Duration.ofMillis(REQUESTS / 1_000))
                .timeout(Duration.ofSeconds(5)).arrival(Arrival.fixed()).threads(ThreadKind.VIRTUAL).warmup(Duration.ZERO)
                .traceEvery(0).build();
        final Workload noop = new Workload() {
            @Override
            public String operationOf(long sequence) {
                return "noop";
            }

            @Override
            public void execute(long sequence, String operation, RequestContext ctx) {
            }
        };
    }

    @Benchmark
    @OperationsPerInvocation(REQUESTS)
    public RunResult perScheduledRequest(Runner r) {
        return r.runner.run(r.spec, r.noop);
    }
}
