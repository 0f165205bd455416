package archlab.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.request.RequestOutcome;
import archlab.loadgen.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interval log is HdrHistogram's own format: its {@link HistogramLogReader} reads back what the run recorded. */
class IntervalLogTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** A 20 ms warm-up with one completed request, then two run intervals (40 ms and 30 ms) with 3 and 2 answered requests. */
    private static RunTimeline recorded() {
        FakeClock clock = new FakeClock(7_000 * MS);
        IntervalRecorder r = IntervalRecorder.start(clock, TimelineSettings.DEFAULT);
        try {
            r.beginPhase(Interval.WARMUP);
            r.ended(RequestOutcome.COMPLETED, 3 * MS);
            clock.advance(20 * MS);
            r.beginPhase(Interval.RUN);
            r.ended(RequestOutcome.COMPLETED, 4 * MS);
            r.ended(RequestOutcome.COMPLETED, 6 * MS);
            r.ended(RequestOutcome.FAILED, 1 * MS);
            r.ended(RequestOutcome.REJECTED, 1_000);
            clock.advance(40 * MS);
            r.beginPhase(Interval.RUN); // a new interval of the same phase: how the sampler cuts them
            r.ended(RequestOutcome.TIMED_OUT, 210 * MS);
            r.ended(RequestOutcome.COMPLETED, 5 * MS);
            clock.advance(30 * MS);
            return r.finish();
        } finally {
            r.close();
        }
    }

    private static List<EncodableHistogram> read(Path file, boolean fromTimeZero) throws IOException {
        List<EncodableHistogram> out = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            EncodableHistogram h;
            while ((h = fromTimeZero ? reader.nextIntervalHistogram(0.0, Double.MAX_VALUE) : reader.nextIntervalHistogram()) != null) {
                out.add(h);
            }
        }
        return out;
    }

    @Test
    @DisplayName("every interval is written once per series, tagged as documented: the run's latency untagged, a warm-up's prefixed")
    void everySeriesOfEveryInterval() throws IOException {
        Path file = dir.resolve("run.hlog");
        IntervalLog.write(file, recorded(), "test / run");
        List<EncodableHistogram> all = read(file, false);
        assertThat(all).hasSize(3 * Series.values().length);
        assertThat(all).extracting(EncodableHistogram::getTag).contains(null, "completed", "timed_out", "failed",
                "rejected", "pool_exhausted", "send_lag", "hiccup", "warmup.latency", "warmup.hiccup");
        assertThat(Files.readString(file)).contains("#[arch-lab interval log: test / run]", "#[StartTime: ", "#[BaseTime: ");
    }

    @Test
    @DisplayName("read from time 0 as HdrHistogram's tools do by default, the run's untagged latency adds up to the run's answered requests; the warm-up lies before 0")
    void theToolsReadTheRunsLatency() throws IOException {
        Path file = dir.resolve("run.hlog");
        IntervalLog.write(file, recorded(), "test / run");
        List<EncodableHistogram> fromZero = read(file, true);
        long latency = fromZero.stream().filter(h -> h.getTag() == null)
                .mapToLong(h -> ((org.HdrHistogram.Histogram) h).getTotalCount()).sum();
        assertThat(latency).as("3 in the first run interval, 2 in the second").isEqualTo(5);
        assertThat(fromZero).extracting(EncodableHistogram::getTag).noneMatch(t -> t != null && t.startsWith("warmup."));
        long timedOut = fromZero.stream().filter(h -> "timed_out".equals(h.getTag()))
                .mapToLong(h -> ((org.HdrHistogram.Histogram) h).getTotalCount()).sum();
        assertThat(timedOut).isEqualTo(1);
    }

    @Test
    @DisplayName("values are in nanoseconds: the timed-out request's 210 ms reads back as 210,000,000 ns")
    void valuesAreNanoseconds() throws IOException {
        Path file = dir.resolve("run.hlog");
        IntervalLog.write(file, recorded(), "test / run");
        org.HdrHistogram.Histogram timedOut = (org.HdrHistogram.Histogram) read(file, true).stream()
                .filter(h -> "timed_out".equals(h.getTag())).filter(h -> ((org.HdrHistogram.Histogram) h).getTotalCount() > 0)
                .findFirst().orElseThrow();
        assertThat(timedOut.getMaxValue()).isEqualTo(timedOut.highestEquivalentValue(210 * MS));
    }

    @Test
    @DisplayName("a timeline without histograms is refused, naming the file")
    void nothingToWriteIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> IntervalLog.write(dir.resolve("none.hlog"), RunTimeline.NONE, "none"))
                .withMessageContaining("none.hlog");
    }
}
