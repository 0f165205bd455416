package archlab.jmh;

import archlab.clock.NanoClock;
import archlab.request.Deadline;
import archlab.request.RequestContext;
import archlab.trace.RequestTrace;
import archlab.trace.SegmentTable;
import archlab.trace.Span;
import archlab.trace.Trace;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The trap: <b>the instrument's own cost</b>. What the segment trace adds to one request: three spans (a lock wait, the
 * lock held, a copy inside it, as ch12-1's get marks them), the trace's creation, its finish and its row in the
 * run's {@link SegmentTable}, as the runner does for a traced request.
 *
 * <p>Off: {@link Trace#OFF}, every span the shared no-op — what an untraced request pays, and it must allocate
 * nothing. On: a {@link RequestTrace} per request (its arrays are the bytes per op: the price of tracing every
 * request, which is why a run traces 1 in N), on one thread and on two at once sharing one table.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TraceBenchmark {

    private static final NanoClock CLOCK = NanoClock.SYSTEM;

    /** The run's segment table, shared by every request's thread. */
    @State(Scope.Benchmark)
    public static class Table {
        final SegmentTable table = new SegmentTable();
    }

    /** An untraced request's context, reused: the runner makes one per request, this measures the spans only. */
    @State(Scope.Thread)
    public static class Untraced {
        final RequestContext ctx = new RequestContext(1, CLOCK.nanoTime(), Deadline.NONE, CLOCK, Trace.OFF);
    }

    private static void threeSpans(Trace trace) {
        try (Span wait = trace.span("lock.wait")) {
            // acquired
        }
        try (Span held = trace.span("lock.held"); Span copy = trace.span("json.copy")) {
            // the work inside the lock
        }
    }

    @Benchmark
    @Threads(1)
    @AllocatesNothing
    public void off_1thread(Untraced u) {
        threeSpans(u.ctx.trace());
    }

    @Benchmark
    @Threads(1)
    public long traced_1thread(Table t) {
        return traced(t.table);
    }

    @Benchmark
    @Threads(2)
    public long traced_2threads(Table t) {
        return traced(t.table);
    }

    private static long traced(SegmentTable table) {
        long planned = CLOCK.nanoTime();
        RequestTrace trace = new RequestTrace(CLOCK, planned);
        trace.begin(planned);
        threeSpans(trace);
        trace.finish(CLOCK.nanoTime());
        table.record("get", trace);
        return trace.totalNanos();
    }
}
