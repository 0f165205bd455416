package archlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.LoadSpec;
import archlab.trace.SegmentTable.SegmentRow;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** "Where the time went" and the lock holders, from hand-made segment rows. */
class RunReportSegmentLinesTest {

    private static final String HOLDERS_TITLE = "--- lock holders";

    private static RunReport withSegments(List<SegmentRow> rows) {
        return Samples.report(Samples.detailed(LoadSpec.book(), rows));
    }

    /** pay holds the lock 100 × 500 µs = 50 ms; create 1000 × 100 µs = 100 ms: smaller mean, larger total. */
    private static List<SegmentRow> lockRows() {
        return List.of(
                Samples.segment("create", "lock.wait", 1000, 1000, 900, 70.0, 900),
                Samples.segment("create", "lock.held", 1000, 1000, 60, 10.0, 100),
                Samples.segment("pay", "lock.held", 100, 100, 300, 40.0, 500),
                Samples.segment("pay", "payment", 100, 100, 200, 30.0, 200));
    }

    @Test
    @DisplayName("without segments the section says 'not recorded' and nothing else")
    void noSegmentsSaysNotRecorded() {
        List<String> lines = withSegments(List.of()).segmentLines();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).contains("not recorded");
    }

    @Test
    @DisplayName("with segments there is a title, a header and exactly one row per segment")
    void oneRowPerSegment() {
        List<SegmentRow> rows = List.of(
                Samples.segment("create", "scheduling", 100, 100, 12.5, 5.0, 12.5),
                Samples.segment("create", "unmarked", 100, 100, 40.0, 15.0, 40.0),
                Samples.segment("get", "inventory", 50, 75, 2_100.0, 80.0, 2_100.0));
        List<String> lines = withSegments(rows).segmentLines();
        assertThat(lines).hasSize(2 + rows.size());
        assertThat(lines.get(0).trim()).startsWith("--- where the time went").contains("100 traced requests");
        assertThat(lines.get(1)).contains("op", "segment", "reqs", "entries", "mean_ms", "p50_ms", "p99_ms", "share");
        for (int i = 0; i < rows.size(); i++) {
            assertThat(lines.get(2 + i).trim().split("\\s+"))
                    .startsWith(rows.get(i).operation(), rows.get(i).segment(), String.valueOf(rows.get(i).requests()),
                            String.valueOf(rows.get(i).entries()));
        }
    }

    @Test
    @DisplayName("a segment row prints its self times in ms (µs / 1000) and its share in percent")
    void segmentRowIsInMillis() {
        List<String> lines = withSegments(List.of(Samples.segment("get", "inventory", 50, 75, 2_100.0, 80.0, 2_500.0)))
                .segmentLines();
        assertThat(lines.get(2).trim().split("\\s+"))
                .containsExactly("get", "inventory", "50", "75", "2.100", "2.100", "4.200", "6.300", "80.0%", "2.500");
    }

    @Test
    @DisplayName("without a *.held segment there is no lock-holders table and no top holder")
    void noHeldSegmentNoHolders() {
        RunReport report = withSegments(List.of(Samples.segment("pay", "payment", 100, 100, 200, 100.0, 200)));
        assertThat(report.segmentLines()).noneMatch(l -> l.trim().startsWith(HOLDERS_TITLE));
        assertThat(report.topHolder()).isNull();
    }

    @Test
    @DisplayName("a *.held segment adds the lock-holders table, one row per holding operation, largest total first")
    void heldSegmentAddsTheHoldersTable() {
        List<String> lines = withSegments(lockRows()).segmentLines();
        int title = lines.indexOf(lines.stream().filter(l -> l.trim().startsWith(HOLDERS_TITLE)).findFirst().orElseThrow());
        assertThat(lines).hasSize(2 + lockRows().size() + 1 + 2 + 2); // rows, blank, holders title + header, 2 holders
        assertThat(lines.get(title + 2).trim().split("\\s+")).startsWith("create", "lock.held", "1000", "100.0");
        assertThat(lines.get(title + 3).trim().split("\\s+")).startsWith("pay", "lock.held", "100", "50.0");
    }

    @Test
    @DisplayName("the holders' shares are of the total time held and add up to 100%")
    void holderSharesAddUp() {
        List<String> lines = withSegments(lockRows()).segmentLines();
        assertThat(lines).anySatisfy(l -> assertThat(l.trim()).startsWith("create").endsWith("66.7%"));
        assertThat(lines).anySatisfy(l -> assertThat(l.trim()).startsWith("pay").contains("lock.held").endsWith("33.3%"));
    }

    @Test
    @DisplayName("topHolder names the operation with the largest inclusive total under the lock, not the largest mean")
    void topHolderIsTheLargestInclusiveTotal() {
        assertThat(withSegments(lockRows()).topHolder()).isEqualTo("create");
    }

    @Test
    @DisplayName("the holders' per-hold time is the total divided by the holds, also when a request holds the lock twice")
    void perHoldTimeIsPerHold() {
        // 100 requests, each holding the lock twice: 200 holds, inclusive 400 µs per request = 40 ms in all
        List<SegmentRow> rows = List.of(Samples.segment("pay", "lock.held", 100, 200, 300, 40.0, 400));
        List<String> lines = withSegments(rows).segmentLines();
        assertThat(lines.get(lines.size() - 1).trim().split("\\s+")).containsExactly("pay", "lock.held", "200", "40.0", "0.200", "100.0%");
    }
}
