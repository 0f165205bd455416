package archlab.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The trap: <b>false sharing</b>. Two threads each increment a counter of their own — no value is shared — yet when
 * the two counters sit in one 64-byte cache line, every increment takes the whole line from the other core. The
 * article's experiment ("200 threads: 3 ms → 1.2 ms after padding to the cache line") at this machine's scale: two
 * threads on two cores.
 *
 * <p>Each thread keeps its own count (a plain read and a release store: no atomic instruction, nothing to wait for
 * but the line). Wrong: {@code packed}, the two counters 8 bytes apart (one {@link AtomicLongArray}, slots 0 and 1). Right:
 * {@code padded}, the same counters 128 bytes apart (slots 0 and 16: two cache lines, so that the adjacent-line
 * prefetcher does not pair them either) — what {@code @Contended} does, by hand. On one thread the two cost the same:
 * the difference is the other core. Neither allocates.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FalseSharingBenchmark {

    /** Slots apart of the padded counters: 16 longs = 128 bytes. */
    static final int PAD = 16;

    @State(Scope.Benchmark)
    public static class Packed {
        final AtomicLongArray counters = new AtomicLongArray(2);
        final AtomicInteger threads = new AtomicInteger();
    }

    @State(Scope.Benchmark)
    public static class Padded {
        final AtomicLongArray counters = new AtomicLongArray(2 * PAD);
        final AtomicInteger threads = new AtomicInteger();
    }

    /** Which of the two counters this thread owns: the first thread the first, the second the other. */
    @State(Scope.Thread)
    public static class Slot {
        int packed;
        int padded;

        @Setup
        public void setUp(Packed a, Padded b) {
            packed = a.threads.getAndIncrement() % 2;
            padded = (b.threads.getAndIncrement() % 2) * PAD;
        }
    }

    /**
     * One thread's increment of its own counter: a plain read and a release store (no lock prefix, no fence: the cheap
     * counter a thread keeps for itself), so that what is left to cost is the cache line.
     */
    private static long increment(AtomicLongArray counters, int slot) {
        long next = counters.getPlain(slot) + 1;
        counters.setRelease(slot, next);
        return next;
    }

    @Benchmark
    @Threads(1)
    @AllocatesNothing
    public long packed_1thread(Packed c, Slot s) {
        return increment(c.counters, s.packed);
    }

    @Benchmark
    @Threads(2)
    @AllocatesNothing
    public long packed_2threads(Packed c, Slot s) {
        return increment(c.counters, s.packed);
    }

    @Benchmark
    @Threads(1)
    @AllocatesNothing
    public long padded_1thread(Padded c, Slot s) {
        return increment(c.counters, s.padded);
    }

    @Benchmark
    @Threads(2)
    @AllocatesNothing
    public long padded_2threads(Padded c, Slot s) {
        return increment(c.counters, s.padded);
    }
}
