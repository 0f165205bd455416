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
            return SegmentRow.builder()
                    .operation(operation)
                    .segment(segment)
                    .requests(n)
                    .operationRequests(opRequests)
                    .entries(entries.sum())
                    .meanMicros(n == 0 ? 0 : selfSum.sum() / 1_000.0 / n)
                    .p50Micros(selfNanos.getValueAtPercentile(50) / 1_000.0)
                    .p99Micros(selfNanos.getValueAtPercentile(99) / 1_000.0)
                    .maxMicros(selfMax.get() / 1_000.0)
                    .sharePercent(opTotalNanos == 0 ? 0 : 100.0 * selfSum.sum() / opTotalNanos)
                    .inclusiveMeanMicros(n == 0 ? 0 : inclusiveSum.sum() / 1_000.0 / n)
                    .selfTotalNanos(selfSum.sum())
                    .build();
        }
    }

    /**
     * One operation's one segment. Built by {@link #builder()}.
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

        /** @return a builder of a row of a segment nobody entered: every figure 0 */
        public static Builder builder() {
            return new Builder();
        }

        /** Builds a {@link SegmentRow} figure by figure (units as the components'); a figure not set is 0. Not thread-safe. */
        public static final class Builder {
            private String operation;
            private String segment;
            private long requests;
            private long operationRequests;
            private long entries;
            private double meanMicros;
            private double p50Micros;
            private double p99Micros;
            private double maxMicros;
            private double sharePercent;
            private double inclusiveMeanMicros;
            private long selfTotalNanos;

            private Builder() {
            }

            /** @see SegmentRow#operation() */
            public Builder operation(String name) { operation = name; return this; }

            /** @see SegmentRow#segment() */
            public Builder segment(String name) { segment = name; return this; }

            /** @see SegmentRow#requests() */
            public Builder requests(long n) { requests = n; return this; }

            /** @see SegmentRow#operationRequests() */
            public Builder operationRequests(long n) { operationRequests = n; return this; }

            /** @see SegmentRow#entries() */
            public Builder entries(long n) { entries = n; return this; }

            /** @see SegmentRow#meanMicros() */
            public Builder meanMicros(double us) { meanMicros = us; return this; }

            /** @see SegmentRow#p50Micros() */
            public Builder p50Micros(double us) { p50Micros = us; return this; }

            /** @see SegmentRow#p99Micros() */
            public Builder p99Micros(double us) { p99Micros = us; return this; }

            /** @see SegmentRow#maxMicros() */
            public Builder maxMicros(double us) { maxMicros = us; return this; }

            /** @see SegmentRow#sharePercent() */
            public Builder sharePercent(double percent) { sharePercent = percent; return this; }

            /** @see SegmentRow#inclusiveMeanMicros() */
            public Builder inclusiveMeanMicros(double us) { inclusiveMeanMicros = us; return this; }

            /** @see SegmentRow#selfTotalNanos() */
            public Builder selfTotalNanos(long ns) { selfTotalNanos = ns; return this; }

            /** @return the SegmentRow */
            public SegmentRow build() {
                return new SegmentRow(operation, segment, requests, operationRequests, entries, meanMicros, p50Micros,
                        p99Micros, maxMicros, sharePercent, inclusiveMeanMicros, selfTotalNanos);
            }
        }
    }
}
