package archlab.timeline;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a {@link RunTimeline} as an HdrHistogram interval log ({@code <name>.hlog}), the format HdrHistogram's own
 * tools read. The trap it avoids: a timeline in a format of the lab's own can only be read by the lab; this one opens
 * in {@code HistogramLogProcessor} and HdrHistogram's plotters, and keeps every interval's full histogram, so any
 * percentile of any span of the run can be recomputed later — a JSON summary of p50 / p99 per interval cannot.
 *
 * <p>The log: values in nanoseconds (so the tools' default output ratio prints milliseconds); time 0 is when the measured
 * run began ({@code #[StartTime: …]} says when that was); a warm-up's intervals lie before it. The
 * run's latency is untagged, every other series tagged ({@link Series#tag(String)}):
 * <pre>{@code
 * java -cp HdrHistogram-2.2.2.jar org.HdrHistogram.HistogramLogProcessor -i baseline.hlog              # latency
 * java -cp HdrHistogram-2.2.2.jar org.HdrHistogram.HistogramLogProcessor -i baseline.hlog -tag hiccup  # the machine
 * }</pre>
 *
 * <p>Stateless.
 */
public final class IntervalLog {

    /** The interval log's file name suffix. */
    public static final String SUFFIX = ".hlog";

    private IntervalLog() {
    }

    /**
     * Writes {@code timeline} to {@code file} (replacing it).
     *
     * @param description one line on what was run, written as a comment (e.g. {@code ch12-1-baseline / baseline})
     * @throws IllegalArgumentException if the timeline kept no histograms (nothing to write)
     */
    public static void write(Path file, RunTimeline timeline, String description) {
        if (timeline.histograms().isEmpty()) {
            throw new IllegalArgumentException("the timeline kept no histograms: nothing to write to " + file);
        }
        try (OutputStream out = Files.newOutputStream(file);
             PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8)) {
            write(print, timeline, description);
            if (print.checkError()) {
                throw new IOException("writing failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the interval log " + file, e);
        }
    }

    /** Writes {@code timeline} to {@code out}; see {@link #write(Path, RunTimeline, String)}. */
    public static void write(PrintStream out, RunTimeline timeline, String description) {
        HistogramLogWriter log = new HistogramLogWriter(out);
        log.outputLogFormatVersion();
        log.outputComment("[arch-lab interval log: " + description.replace('\n', ' ') + "]");
        log.outputComment("[values in ns; time 0 = when the measured run began, a warm-up's intervals lie"
                + " before it; " + timeline.interval().toMillis() + " ms intervals, hiccup probe every "
                + timeline.probePeriod().toNanos() / 1_000L + " us]");
        log.outputComment("[untagged: the run's latency (completed, timed out, failed); tags: completed timed_out failed"
                + " rejected pool_exhausted send_lag hiccup retried (a count: the callers' retries, every value 0);"
                + " warmup.<tag> and jit-warmup.<tag> for the warm-ups]");
        log.outputStartTime(timeline.originEpochMillis());
        log.outputBaseTime(timeline.originEpochMillis());
        log.outputLegend();
        for (IntervalHistograms interval : timeline.histograms()) {
            double startSeconds = (interval.startNanos() - timeline.originNanos()) / 1e9;
            double endSeconds = (interval.endNanos() - timeline.originNanos()) / 1e9;
            for (Series series : Series.values()) {
                Histogram h = interval.histogram(series);
                h.setTag(series.tag(interval.phase()));
                log.outputIntervalHistogram(startSeconds, endSeconds, h, 1e6);
            }
        }
        out.flush();
    }
}
