package archlab.trace;

import archlab.clock.NanoClock;
import java.util.Arrays;

/**
 * Records the segments of one request as exclusive ("self") and inclusive time, so that the self
 * times of all segments add up exactly to the request's latency:
 * {@code scheduling + Σ segments' self + unmarked = end − planned start}.
 *
 * <p>Life cycle, driven by the runner: construct with the planned start, {@link #begin(long)} when the
 * task starts running (the gap is {@link Segments#SCHEDULING}), spans opened and closed by the service,
 * {@link #finish(long)} when the task returns. Spans past the nesting or segment limits are not
 * recorded (counted in {@link #overflows()}); tracing never throws into service code. Time not covered by a span goes to
 * {@link Segments#UNMARKED}. A span left open at finish is closed there.
 *
 * <p>Thread-safety: none; a trace is confined to the thread running its request.
 * Units: nanoseconds of the injected {@link NanoClock}.
 */
public final class RequestTrace implements Trace, Span {

    private static final int MAX_SEGMENTS = 32;
    private static final int MAX_DEPTH = 16;

    private final NanoClock clock;
    private final long plannedStartNanos;

    private final String[] names = new String[MAX_SEGMENTS];
    private final long[] selfNanos = new long[MAX_SEGMENTS];
    private final long[] inclusiveNanos = new long[MAX_SEGMENTS];
    private final int[] entries = new int[MAX_SEGMENTS];
    private int segmentCount;

    private final int[] stack = new int[MAX_DEPTH];
    private final long[] enteredAt = new long[MAX_DEPTH];
    private int depth;
    private long lastMarkNanos;
    private long endNanos = -1;
    private int overflows;

    /**
     * @param clock             the clock the runner measures latency with
     * @param plannedStartNanos the request's planned start on that clock
     */
    public RequestTrace(NanoClock clock, long plannedStartNanos) {
        this.clock = clock;
        this.plannedStartNanos = plannedStartNanos;
        this.lastMarkNanos = plannedStartNanos;
        index(Segments.SCHEDULING);
        index(Segments.UNMARKED);
    }

    /** Marks the first line of the task: everything since the planned start was scheduling. */
    public void begin(long startedNanos) {
        int scheduling = index(Segments.SCHEDULING);
        long gap = Math.max(0, startedNanos - plannedStartNanos);
        selfNanos[scheduling] += gap;
        inclusiveNanos[scheduling] += gap;
        entries[scheduling]++;
        lastMarkNanos = plannedStartNanos + gap;
    }

    @Override
    public Span span(String segment) {
        long now = clock.nanoTime();
        charge(now);
        int idx = depth == MAX_DEPTH ? -1 : index(segment);
        if (idx < 0) {
            // tracing must never fail a request: past the limits the time stays with the enclosing segment
            overflows++;
            return Span.NOOP;
        }
        entries[idx]++;
        stack[depth] = idx;
        enteredAt[depth] = now;
        depth++;
        return this;
    }

    /** Closes the innermost open span. */
    @Override
    public void close() {
        if (depth == 0 || endNanos >= 0) {
            return;
        }
        closeAt(clock.nanoTime());
    }

    private void closeAt(long now) {
        charge(now);
        depth--;
        int idx = stack[depth];
        inclusiveNanos[idx] += now - enteredAt[depth];
    }

    /** Marks the task's return; closes spans left open. Idempotent. */
    public void finish(long endNanos) {
        if (this.endNanos >= 0) {
            return;
        }
        while (depth > 0) {
            closeAt(endNanos);
        }
        charge(endNanos);
        int unmarked = index(Segments.UNMARKED);
        entries[unmarked]++;
        inclusiveNanos[unmarked] = selfNanos[unmarked];
        this.endNanos = endNanos;
    }

    @Override
    public boolean isRecording() {
        return true;
    }

    /** @return end − planned start, in nanoseconds; only after {@link #finish(long)} */
    public long totalNanos() {
        requireFinished();
        return endNanos - plannedStartNanos;
    }

    /**
     * @return spans refused because they nested deeper than {@value #MAX_DEPTH} or named more than
     *         {@value #MAX_SEGMENTS} distinct segments; their time stayed with the enclosing segment
     */
    public int overflows() {
        return overflows;
    }

    /** @return the number of distinct segments recorded, including scheduling and unmarked */
    public int segmentCount() {
        return segmentCount;
    }

    /** @return the name of segment {@code i}, {@code 0 <= i < segmentCount()} */
    public String name(int i) {
        return names[i];
    }

    /** @return self (exclusive) nanoseconds of segment {@code i} */
    public long selfNanos(int i) {
        return selfNanos[i];
    }

    /** @return inclusive nanoseconds of segment {@code i} (children included) */
    public long inclusiveNanos(int i) {
        return inclusiveNanos[i];
    }

    /** @return how many times segment {@code i} was entered */
    public int entries(int i) {
        return entries[i];
    }

    /** @return self nanoseconds of the named segment, 0 when never entered */
    public long selfNanos(String segment) {
        int i = find(segment);
        return i < 0 ? 0 : selfNanos[i];
    }

    /** @return inclusive nanoseconds of the named segment, 0 when never entered */
    public long inclusiveNanos(String segment) {
        int i = find(segment);
        return i < 0 ? 0 : inclusiveNanos[i];
    }

    private void charge(long now) {
        int top = depth == 0 ? index(Segments.UNMARKED) : stack[depth - 1];
        if (now > lastMarkNanos) {
            selfNanos[top] += now - lastMarkNanos;
            lastMarkNanos = now;
        }
    }

    private int find(String segment) {
        for (int i = 0; i < segmentCount; i++) {
            if (names[i].equals(segment)) {
                return i;
            }
        }
        return -1;
    }

    private int index(String segment) {
        for (int i = 0; i < segmentCount; i++) {
            // names are usually constants: the identity check is the fast path
            if (names[i] == segment || names[i].equals(segment)) {
                return i;
            }
        }
        if (segmentCount == MAX_SEGMENTS) {
            return -1;
        }
        names[segmentCount] = segment;
        return segmentCount++;
    }

    private void requireFinished() {
        if (endNanos < 0) {
            throw new IllegalStateException("trace not finished");
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RequestTrace[");
        for (int i = 0; i < segmentCount; i++) {
            sb.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(selfNanos[i]).append("ns");
        }
        return sb.append(", depth=").append(depth).append(", open=").append(Arrays.toString(Arrays.copyOf(stack, depth))).append(']').toString();
    }
}
