package archlab.figures;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of a saved run report the timeline chart needs: its intervals ({@code run.timeline.intervals}, written by
 * {@code archlab.timeline.RunTimeline}) and the time windows its scenario line states ({@code payment stalls
 * 1.0s-1.5s}, {@code notifier down 1.0s-2.0s}). The trap it avoids: drawing a scenario's windows from the scenario
 * catalogue as it is today would shade where today's catalogue stalls, not where the saved run's did; the report's
 * own line says where.
 *
 * <p>Windows are timed from the fixture's start (just before the runner's own warm-up, if any), intervals from the
 * measured run's start: a window is moved by the runner warm-up's length so both share the run's time axis.
 * Immutable.
 *
 * @param file      the JSON file
 * @param module    e.g. "ch12-3-fault-scenarios"
 * @param name      the run's name, e.g. "scenario-slow-downstream"
 * @param interval  the timeline's interval length
 * @param intervals every interval, oldest first
 * @param windows   the scenario's windows on the run's time axis; empty for a run without a scenario
 */
record SavedTimeline(Path file, String module, String name, Duration interval, List<Point> intervals,
                     List<Window> windows) {

    /**
     * One interval: when (s), its phase, goodput and offered per second, p50/p99 (ms), hiccup max and send-lag p99 (ms),
     * the callers' retries per second (0 for a run whose callers do not retry).
     */
    record Point(String phase, double startSeconds, double lengthSeconds, double goodputPerSecond,
                 double offeredPerSecond, boolean answered, double p50Millis, double p99Millis, double hiccupMaxMillis,
                 double sendLagP99Millis, double retriedPerSecond) {
        double midSeconds() {
            return startSeconds + lengthSeconds / 2;
        }
    }

    /** A span the scenario named, on the run's time axis, s. */
    record Window(String label, double fromSeconds, double toSeconds) {
    }

    /** {@code <label> <from>s-<to>s}, as {@code archlab.scenario.ScenarioClock.Window} prints itself. */
    private static final Pattern WINDOW = Pattern.compile("([A-Za-z][A-Za-z _]*?)\\s+(\\d+(?:\\.\\d+)?)s-(\\d+(?:\\.\\d+)?)s");

    /** @return whether {@code root} is a run report with a recorded timeline */
    static boolean accepts(JsonNode root) {
        return SavedRunReport.accepts(root) && root.path("run").path("timeline").path("intervals").size() > 0;
    }

    /** Builds it from an already parsed {@code root}; throws IllegalArgumentException if it has no timeline. */
    static SavedTimeline of(Path file, JsonNode root) {
        if (!accepts(root)) {
            throw new IllegalArgumentException(file + " is not a run report with a timeline (run.timeline.intervals)");
        }
        JsonNode timeline = root.path("run").path("timeline");
        Duration interval;
        try {
            interval = Duration.parse(timeline.path("interval").asText("PT0.1S"));
        } catch (DateTimeParseException e) {
            interval = Duration.ofMillis(100);
        }
        List<Point> points = new ArrayList<>();
        double firstWarmUpSeconds = 0;
        for (JsonNode i : timeline.path("intervals")) {
            double lengthSeconds = i.path("lengthMillis").asDouble() / 1e3;
            double startSeconds = i.path("startMillis").asDouble() / 1e3;
            String phase = i.path("phase").asText("run");
            if (phase.equals("warmup")) {
                firstWarmUpSeconds = Math.min(firstWarmUpSeconds, startSeconds);
            }
            long answered = i.path("completed").asLong() + i.path("timedOut").asLong() + i.path("failed").asLong();
            points.add(new Point(phase, startSeconds, lengthSeconds,
                    lengthSeconds <= 0 ? 0 : i.path("completed").asLong() / lengthSeconds,
                    lengthSeconds <= 0 ? 0 : i.path("offered").asLong() / lengthSeconds, answered > 0,
                    i.path("p50Micros").asLong() / 1e3, i.path("p99Micros").asLong() / 1e3,
                    i.path("hiccupMaxMicros").asLong() / 1e3, i.path("sendLagP99Micros").asLong() / 1e3,
                    lengthSeconds <= 0 ? 0 : i.path("retried").asLong() / lengthSeconds));
        }
        return new SavedTimeline(file, root.path("module").asText(), root.path("name").asText(), interval,
                List.copyOf(points), windows(root, firstWarmUpSeconds));
    }

    /** The windows of the report's {@code scenario} line, moved onto the run's time axis. */
    private static List<Window> windows(JsonNode root, double firstWarmUpSeconds) {
        List<Window> out = new ArrayList<>();
        for (JsonNode line : root.path("extra")) {
            if (!line.path("name").asText().equals("scenario")) {
                continue;
            }
            for (String part : line.path("value").asText().split(";")) {
                Matcher m = WINDOW.matcher(part.trim());
                if (m.find()) {
                    out.add(new Window(m.group(1).trim().toLowerCase(Locale.ROOT),
                            Double.parseDouble(m.group(2)) + firstWarmUpSeconds,
                            Double.parseDouble(m.group(3)) + firstWarmUpSeconds));
                }
            }
        }
        return List.copyOf(out);
    }

    /** @return whether the callers of this run retried at all */
    boolean retried() {
        return intervals.stream().anyMatch(p -> p.retriedPerSecond() > 0);
    }

    /** @return the intervals of {@code phase}, oldest first */
    List<Point> phase(String phase) {
        return intervals.stream().filter(p -> p.phase().equals(phase)).toList();
    }

    /** @return {@code module / name} */
    String label() {
        return module + " / " + name;
    }
}
