package archlab.ladder.compute;

import java.lang.management.ManagementFactory;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the business code of each answered request cost, per {@link Stage}: its time (ns, {@link System#nanoTime}) and
 * the bytes its thread allocated (the JVM's per-thread count, {@code com.sun.management.ThreadMXBean}; HotSpot keeps it
 * per thread as it allocates, not by sampling), summed, so a rung's mean per request per stage can be read beside the
 * others ({@link #split}). Only the request's own thread is counted: what another thread allocates for it (an
 * asynchronous appender's writer) is not.
 *
 * <p>Thread-safety: {@link #add} and {@link #request} from any thread; {@link #reset} while no request is in the
 * business code; {@link #split} after the run.
 */
public final class ComputeSegments {

    /** The business code's stages, in the order a request runs them, and its trace's work after them. */
    public enum Stage {
        /** The data layer's rows into entities: the same code on every rung. */
        ROWS,
        /** Entities to views ({@link Compute.Mapping}). */
        MAP,
        /** The answer's tag ({@link Compute.Text}). */
        TAG,
        /** The body ({@link Compute.Encoding}). */
        ENCODE,
        /** The request log ({@link Compute.Logging}). */
        LOG,
        /** The request's trace ({@code archlab.ladder.monitor.Tracing}): monitoring's own work, after the stages. */
        TRACE
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final Map<Stage, LongAdder> nanos = new EnumMap<>(Stage.class);
    private final Map<Stage, LongAdder> bytes = new EnumMap<>(Stage.class);
    private final LongAdder requests = new LongAdder();
    private final LongAdder bodyBytes = new LongAdder();

    /** @throws IllegalStateException when this JVM does not count each thread's allocation (the tables would read 0) */
    public ComputeSegments() {
        if (!THREADS.isThreadAllocatedMemorySupported() || !THREADS.isThreadAllocatedMemoryEnabled()) {
            throw new IllegalStateException("this JVM does not count the bytes each thread allocates"
                    + " (ThreadMXBean.isThreadAllocatedMemorySupported/Enabled): the ladder's business tables need it");
        }
        for (Stage s : Stage.values()) {
            nanos.put(s, new LongAdder());
            bytes.put(s, new LongAdder());
        }
    }

    /** @return the bytes the calling thread has allocated so far; -1 when this JVM does not count them */
    public static long allocatedBytes() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Adds one stage of one request. */
    public void add(Stage stage, long stageNanos, long stageBytes) {
        nanos.get(stage).add(stageNanos);
        bytes.get(stage).add(Math.max(0, stageBytes));
    }

    /** Counts one answered request whose body had {@code body} bytes. */
    public void request(int body) {
        requests.increment();
        bodyBytes.add(body);
    }

    /** Forgets everything so far (the warm-up); call while idle. */
    public void reset() {
        requests.reset();
        bodyBytes.reset();
        nanos.values().forEach(LongAdder::reset);
        bytes.values().forEach(LongAdder::reset);
    }

    /**
     * One stage's mean per request.
     *
     * @param micros time, µs
     * @param bytes  bytes allocated by the request's thread
     */
    public record StageMean(double micros, double bytes) {
    }

    /**
     * The means per request.
     *
     * @param requests       requests counted
     * @param stages         each stage's mean, in {@link Stage} order
     * @param bodyBytes      the answer's body, bytes, mean
     * @param businessMicros the stages' time together, µs
     * @param businessBytes  the stages' allocation together, bytes
     */
    public record Split(long requests, Map<Stage, StageMean> stages, double bodyBytes, double businessMicros,
                        double businessBytes) {
        public Split {
            stages = java.util.Collections.unmodifiableMap(new EnumMap<>(stages));
        }

        /** @return {@code stage}'s mean */
        public StageMean stage(Stage stage) {
            return stages.get(stage);
        }
    }

    /** @return the means per request so far (zeros when none) */
    public Split split() {
        long n = requests.sum();
        Map<Stage, StageMean> stages = new EnumMap<>(Stage.class);
        double micros = 0;
        double allocated = 0;
        for (Stage s : Stage.values()) {
            StageMean m = n == 0 ? new StageMean(0, 0) : new StageMean(nanos.get(s).sum() / 1_000.0 / n, bytes.get(s).sum() / (double) n);
            stages.put(s, m);
            micros += m.micros();
            allocated += m.bytes();
        }
        return new Split(n, stages, n == 0 ? 0 : bodyBytes.sum() / (double) n, micros, allocated);
    }
}
