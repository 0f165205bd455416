package archlab.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.AtomicHistogram;

/**
 * Adds up finished {@link RequestTrace}s per operation and per segment: "where the time went".
 *
 * <p>For each (operation, segment): how many traced requests entered it, and per such request the
 * segment's self time — mean, p50, p99, max — and its share of the operation's total traced latency.
 * Because self times of one request add up to its latency, the shares of one operation add up to 100%.
 *
 * <p>Thread-safety: {@link #record} is lock-free after an (operation, segment) pair's first use and may
 * be called from any number of threads.
 */
public final class SegmentTable {

    private static final long HIGHEST_NANOS = 3_600_000_000_000L;

    private final Map<String, OperationAccumulator> operations = new ConcurrentHashMap<>();

    /** Adds one finished trace of operation {@code operation}. */
    public void record(String operation, RequestTrace trace) {
        OperationAccumulator op = operations.computeIfAbsent(operation, k -> new OperationAccumulator());
        op.requests.increment();
        op.totalNanos.add(trace.totalNanos());
        for (int i = 0; i < trace.segmentCount(); i++) {
            if (trace.entries(i) == 0) {
                continue;
            }
            SegmentAccumulator seg = op.segments.computeIfAbsent(trace.name(i), k -> new SegmentAccumulator());
            seg.add(trace.selfNanos(i), trace.inclusiveNanos(i), trace.entries(i));
        }
    }

    /** @return the rows, grouped by operation (alphabetical), segments by descending share */
    public List<SegmentRow> rows() {
        List<SegmentRow> rows = new ArrayList<>();
        operations.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            OperationAccumulator op = e.getValue();
            long opTotal = op.totalNanos.sum();
            List<SegmentRow> opRows = new ArrayList<>();
            op.segments.forEach((name, seg) -> opRows.add(seg.row(e.getKey(), name, op.requests.sum(), opTotal)));
            opRows.sort(Comparator.comparingDouble(SegmentRow::sharePercent).reversed());
            rows.addAll(opRows);
        });
        return rows;
    }

    /** @return traced requests per operation */
    public Map<String, Long> tracedRequests() {
        Map<String, Long> out = new java.util.TreeMap<>();
        operations.forEach((k, v) -> out.put(k, v.requests.sum()));
        return out;
    }

    private static final class OperationAccumulator {
        final LongAdder requests = new LongAdder();
        final LongAdder totalNanos = new LongAdder();
        final Map<String, SegmentAccumulator> segments = new ConcurrentHashMap<>();
    }

    private static final class SegmentAccumulator {
        final AtomicHistogram selfNanos = new AtomicHistogram(HIGHEST_NANOS, 2);
        final LongAdder requests = new LongAdder();
        final LongAdder entries = new LongAdder();
        final LongAdder selfSum = new LongAdder();
        final LongAdder inclusiveSum = new LongAdder();
        final LongAccumulator selfMax = new LongAccumulator(Math::max, 0);

        void add(long self, long inclusive, int entered) {
            selfNanos.recordValue(Math.min(HIGHEST_NANOS, Math.max(0, self)));
            requests.increment();
            entries.add(entered);
            selfSum.add(self);
            inclusiveSum.add(inclusive);
            selfMax.accumulate(self);
        }

        SegmentRow row(String operation, String segment, long opRequests, long opTotalNanos) {
            long n = requests.sum();
            return new SegmentRow(operation, segment, n, opRequests, entries.sum(),
                    n == 0 ? 0 : selfSum.sum() / 1_000.0 / n,
                    selfNanos.getValueAtPercentile(50) / 1_000.0,
                    selfNanos.getValueAtPercentile(99) / 1_000.0,
                    selfMax.get() / 1_000.0,
                    opTotalNanos == 0 ? 0 : 100.0 * selfSum.sum() / opTotalNanos,
                    n == 0 ? 0 : inclusiveSum.sum() / 1_000.0 / n,
                    selfSum.sum());
        }
    }

    /**
     * One operation's one segment.
     *
     * @param operation         e.g. "pay"
     * @param segment           e.g. "lock.wait"
     * @param requests          traced requests that entered the segment
     * @param operationRequests traced requests of the operation
     * @param entries           times the segment was entered (≥ requests: inventory is called per item)
     * @param meanMicros        mean self time per entering request, µs
     * @param p50Micros         p50 of self time per entering request, µs (2 significant digits)
     * @param p99Micros         p99 likewise, µs
     * @param maxMicros         max self time, µs (exact)
     * @param sharePercent      Σ self time / Σ latency of the operation's traced requests, %
     * @param inclusiveMeanMicros mean inclusive time (nested segments included), µs
     * @param selfTotalNanos    Σ self time, ns
     */
    public record SegmentRow(
            String operation,
            String segment,
            long requests,
            long operationRequests,
            long entries,
            double meanMicros,
            double p50Micros,
            double p99Micros,
            double maxMicros,
            double sharePercent,
            double inclusiveMeanMicros,
            long selfTotalNanos) {
    }
}
