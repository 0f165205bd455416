package archlab.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import archlab.loadgen.testing.FakeClock;
import archlab.trace.SegmentTable.SegmentRow;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SegmentTableTest {

    /** One request: scheduling, then each (segment, self nanos) in turn with 1 µs unmarked before each. */
    private static RequestTrace trace(long schedulingNanos, Object... segmentAndNanos) {
        FakeClock clock = new FakeClock(1_000_000);
        RequestTrace t = new RequestTrace(clock, clock.nanoTime());
        clock.advance(schedulingNanos);
        t.begin(clock.nanoTime());
        for (int i = 0; i < segmentAndNanos.length; i += 2) {
            clock.advance(1_000);
            try (Span s = t.span((String) segmentAndNanos[i])) {
                clock.advance((Long) segmentAndNanos[i + 1]);
            }
        }
        t.finish(clock.nanoTime());
        return t;
    }

    private static SegmentRow row(List<SegmentRow> rows, String operation, String segment) {
        return rows.stream()
                .filter(r -> r.operation().equals(operation) && r.segment().equals(segment))
                .findFirst().orElseThrow(() -> new AssertionError("no row " + operation + "/" + segment));
    }

    @Test
    @DisplayName("each operation's segment shares add up to 100% (within floating error)")
    void sharesOfAnOperationAddUpTo100() {
        SplittableRandom random = new SplittableRandom(3);
        SegmentTable table = new SegmentTable();
        String[] names = {"lock.wait", "db", "payment", "inventory"};
        for (int r = 0; r < 500; r++) {
            FakeClock clock = new FakeClock();
            RequestTrace t = new RequestTrace(clock, 0);
            clock.advance(random.nextLong(50_000));
            t.begin(clock.nanoTime());
            int depth = 0;
            for (int step = 0; step < 20; step++) {
                clock.advance(random.nextLong(20_000));
                if (depth < 4 && random.nextBoolean()) {
                    t.span(names[random.nextInt(names.length)]);
                    depth++;
                } else if (depth > 0) {
                    t.close();
                    depth--;
                }
            }
            t.finish(clock.nanoTime());
            table.record(r % 3 == 0 ? "pay" : "create", t);
        }

        Map<String, Double> shareByOperation = table.rows().stream()
                .collect(Collectors.groupingBy(SegmentRow::operation, Collectors.summingDouble(SegmentRow::sharePercent)));
        assertThat(shareByOperation).containsOnlyKeys("create", "pay");
        shareByOperation.forEach((op, share) -> assertThat(share).as(op).isCloseTo(100.0, within(1e-9)));
        assertThat(table.tracedRequests()).containsExactlyInAnyOrderEntriesOf(Map.of("create", 333L, "pay", 167L));
    }

    @Test
    @DisplayName("a table of known traces shows the expected requests, entries, mean, p50, max and share per segment")
    void deterministicTracesGiveExpectedFigures() {
        SegmentTable table = new SegmentTable();
        // three pays: db 10/20/60 µs (the third enters db twice: 30 + 30), payment only in two of them
        table.record("pay", trace(4_000, "db", 10_000L, "payment", 100_000L));
        table.record("pay", trace(4_000, "db", 20_000L));
        table.record("pay", trace(4_000, "db", 30_000L, "payment", 300_000L, "db", 30_000L));

        List<SegmentRow> rows = table.rows();
        SegmentRow db = row(rows, "pay", "db");
        assertThat(db.requests()).isEqualTo(3);
        assertThat(db.operationRequests()).isEqualTo(3);
        assertThat(db.entries()).isEqualTo(4);
        assertThat(db.meanMicros()).isCloseTo(30.0, within(1e-9));          // (10 + 20 + 60) / 3
        assertThat(db.maxMicros()).isEqualTo(60.0);
        assertThat(db.selfTotalNanos()).isEqualTo(90_000);
        Histogram twoDigits = new Histogram(2);                               // the table's precision
        assertThat(db.p50Micros()).isEqualTo(twoDigits.highestEquivalentValue(20_000) / 1_000.0);
        assertThat(db.p99Micros()).isEqualTo(twoDigits.highestEquivalentValue(60_000) / 1_000.0);

        SegmentRow payment = row(rows, "pay", "payment");
        assertThat(payment.requests()).isEqualTo(2);
        assertThat(payment.operationRequests()).isEqualTo(3);
        assertThat(payment.meanMicros()).isCloseTo(200.0, within(1e-9));
        assertThat(payment.maxMicros()).isEqualTo(300.0);

        // latencies: 4 + 1 + 10 + 1 + 100 = 116, 4 + 1 + 20 = 25, 4 + 1 + 30 + 1 + 300 + 1 + 30 = 367 µs
        double total = 116_000 + 25_000 + 367_000;
        assertThat(payment.sharePercent()).isCloseTo(100.0 * 400_000 / total, within(1e-9));
        assertThat(db.sharePercent()).isCloseTo(100.0 * 90_000 / total, within(1e-9));
        assertThat(row(rows, "pay", Segments.SCHEDULING).meanMicros()).isCloseTo(4.0, within(1e-9));
        assertThat(row(rows, "pay", Segments.UNMARKED).selfTotalNanos()).isEqualTo(6_000);
    }

    @Test
    @DisplayName("inclusive mean covers nested segments while the self mean does not")
    void inclusiveMeanCoversChildren() {
        FakeClock clock = new FakeClock();
        RequestTrace t = new RequestTrace(clock, 0);
        t.begin(0);
        try (Span pay = t.span("pay")) {
            clock.advance(1_000);
            try (Span lock = t.span("lock.wait")) {
                clock.advance(9_000);
            }
        }
        t.finish(clock.nanoTime());
        SegmentTable table = new SegmentTable();
        table.record("pay", t);

        SegmentRow pay = row(table.rows(), "pay", "pay");
        assertThat(pay.meanMicros()).isCloseTo(1.0, within(1e-9));
        assertThat(pay.inclusiveMeanMicros()).isCloseTo(10.0, within(1e-9));
    }

    @Test
    @DisplayName("rows come grouped by operation in alphabetical order, segments by descending share")
    void rowsAreOrdered() {
        SegmentTable table = new SegmentTable();
        table.record("pay", trace(1_000, "small", 2_000L, "big", 50_000L));
        table.record("create", trace(1_000, "db", 5_000L));

        List<SegmentRow> rows = table.rows();
        assertThat(rows).extracting(SegmentRow::operation).startsWith("create").endsWith("pay");
        List<SegmentRow> pay = rows.stream().filter(r -> r.operation().equals("pay")).toList();
        assertThat(pay).extracting(SegmentRow::sharePercent).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        assertThat(pay.get(0).segment()).isEqualTo("big");
    }

    @Test
    @DisplayName("an empty table has no rows")
    void emptyTableHasNoRows() {
        assertThat(new SegmentTable().rows()).isEmpty();
        assertThat(new SegmentTable().tracedRequests()).isEmpty();
    }
}
