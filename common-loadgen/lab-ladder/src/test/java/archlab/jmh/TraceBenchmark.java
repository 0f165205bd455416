package archlab.jmh;

import archlab.ladder.compute.OrderView;
import archlab.ladder.compute.OrdersBody;
import archlab.ladder.monitor.RequestTracer;
import archlab.ladder.monitor.Tracing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The trap: <b>every request traced, its whole answer captured, each span exported on the request's thread</b> (the
 * article's monitoring: "监控埋点本身拖慢了接口"). Wrong: {@code everyRequestSync}, OpenTelemetry's SDK sampling every
 * trace, the answer serialised to JSON for an attribute, the simple span processor writing each of the seven spans to a file as it
 * ends. Right: {@code sampledBatched}, one trace in 100 by its id, key fields, the batch processor's queue. Both write
 * to {@code /dev/null}: every write is made, none kept; the ladder's {@code sampled-trace} rung is this change under
 * load, writing a real file.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TraceBenchmark {

    private static final List<String> STAGES = List.of("rows", "map", "tag", "encode", "log");

    /** One tracer per benchmark (one may be open in a JVM at a time, and JMH forks one per benchmark). */
    public abstract static class Traced {
        RequestTracer tracer;
        RequestTracer.Request request;

        abstract Tracing tracing();

        @Setup(Level.Trial)
        public void open() {
            tracer = new RequestTracer(tracing(), Path.of("/dev/null"), STAGES);
            List<OrderView> views = BusyMonth.views();
            OrdersBody.Page page = new OrdersBody.Page(1, "2026-05", views);
            long t = System.nanoTime();
            request = new RequestTracer.Request(1, YearMonth.of(2026, 5), views.size(), 20_000,
                    () -> new String(OrdersBody.json(page), StandardCharsets.UTF_8),
                    new long[] {t, t + 1_000, t + 2_000, t + 3_000, t + 4_000, t + 5_000, t + 6_000, t + 7_000, t + 8_000});
        }

        @TearDown(Level.Trial)
        public void close() {
            tracer.close();
        }
    }

    @State(Scope.Benchmark)
    public static class EveryRequest extends Traced {
        @Override
        Tracing tracing() {
            return Tracing.EVERY_REQUEST;
        }
    }

    @State(Scope.Benchmark)
    public static class Sampled extends Traced {
        @Override
        Tracing tracing() {
            return Tracing.SAMPLED;
        }
    }

    @Benchmark
    public void everyRequestSync(EveryRequest s) {
        s.tracer.trace(s.request);
    }

    @Benchmark
    public void sampledBatched(Sampled s) {
        s.tracer.trace(s.request);
    }
}
