package archlab.jmh;

import archlab.http.wire.WireRequest;
import archlab.http.wire.WireTally;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
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
 * The trap: <b>a load generator that builds each request</b>. What the event-loop generator
 * ({@link archlab.http.wire.WireOpenLoop}) spends on a request besides the kernel: writing the request into its
 * connection's buffer with its deadline ({@link WireRequest#encodeInto}), and counting its start and its answer
 * ({@link WireTally}). Both must allocate nothing per request ({@code gc.alloc.rate.norm} = 0 B/op): the generator's
 * figures are the service's, not its own garbage collector's. Netty's response decoder, which does allocate (an
 * {@code HttpResponse} and its headers), is not here: its bytes per request are measured in the run itself
 * ({@code -Dgenerator}'s "B per request").
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WireBenchmark {

    /** A connection's buffer and the requests it sends. */
    @State(Scope.Thread)
    public static class Connection {
        final WireRequest noop = WireRequest.get("noop", "127.0.0.1:8080", "/noop");
        final WireRequest create = WireRequest.post("create", "127.0.0.1:8080", "/orders", "{\"customer\":\"cust-1\"}");
        ByteBuf buffer;
        long deadline;

        @Setup(Level.Trial)
        public void setUp() {
            buffer = PooledByteBufAllocator.DEFAULT.directBuffer(256);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            buffer.release();
        }
    }

    /** The phase's counters, with latencies that vary per request. */
    @State(Scope.Thread)
    public static class Counters {
        final WireTally tally = new WireTally(TimeUnit.SECONDS.toNanos(1));
        long i;
    }

    @Benchmark
    @AllocatesNothing
    public ByteBuf encodeGet(Connection c) {
        c.noop.encodeInto(c.buffer, 1 + (c.deadline++ & 1023));
        return c.buffer;
    }

    @Benchmark
    @AllocatesNothing
    public ByteBuf encodePost(Connection c) {
        c.create.encodeInto(c.buffer, 1 + (c.deadline++ & 1023));
        return c.buffer;
    }

    @Benchmark
    @AllocatesNothing
    public WireTally recordStartAndAnswer(Counters k) {
        long n = k.i++;
        k.tally.started(1_000 + (n & 0xFFFF));
        k.tally.answered(204, 100_000 + (n & 0xFFFFF) * 10);
        return k.tally;
    }
}
