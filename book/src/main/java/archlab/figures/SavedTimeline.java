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
     * One interval: when (s), its phase, goodput and offered per second, whether any request was answered in it,
     * p50/p99 (ms), hiccup max and send-lag p99 (ms), the callers' retries per second (0 for a run whose callers do
     * not retry). Built by {@link #builder()}.
     */
    record Point(String phase, double startSeconds, double lengthSeconds, double goodputPerSecond,
                 double offeredPerSecond, boolean answered, double p50Millis, double p99Millis, double hiccupMaxMillis,
                 double sendLagP99Millis, double retriedPerSecond) {
        double midSeconds() {
            return startSeconds + lengthSeconds / 2;
        }

        /** @return a builder of an interval where nothing happened: every figure 0, nothing answered */
        static Builder builder() {
            return new Builder();
        }

        /** Builds a {@link Point} figure by figure (units as the components'); a figure not set is 0. Not thread-safe. */
        static final class Builder {
            private String phase;
            private double startSeconds;
            private double lengthSeconds;
            private double goodputPerSecond;
            private double offeredPerSecond;
            private boolean answered;
            private double p50Millis;
            private double p99Millis;
            private double hiccupMaxMillis;
            private double sendLagP99Millis;
            private double retriedPerSecond;

            private Builder() {
            }

            /** @see Point#phase() */
            Builder phase(String p) { phase = p; return this; }

            /** @see Point#startSeconds() */
            Builder startSeconds(double s) { startSeconds = s; return this; }

            /** @see Point#lengthSeconds() */
            Builder lengthSeconds(double s) { lengthSeconds = s; return this; }

            /** @see Point#goodputPerSecond() */
            Builder goodputPerSecond(double perSecond) { goodputPerSecond = perSecond; return this; }

            /** @see Point#offeredPerSecond() */
            Builder offeredPerSecond(double perSecond) { offeredPerSecond = perSecond; return this; }

            /** @see Point#answered() */
            Builder answered(boolean any) { answered = any; return this; }

            /** @see Point#p50Millis() */
            Builder p50Millis(double ms) { p50Millis = ms; return this; }

            /** @see Point#p99Millis() */
            Builder p99Millis(double ms) { p99Millis = ms; return this; }

            /** @see Point#hiccupMaxMillis() */
            Builder hiccupMaxMillis(double ms) { hiccupMaxMillis = ms; return this; }

            /** @see Point#sendLagP99Millis() */
            Builder sendLagP99Millis(double ms) { sendLagP99Millis = ms; return this; }

            /** @see Point#retriedPerSecond() */
            Builder retriedPerSecond(double perSecond) { retriedPerSecond = perSecond; return this; }

            /** @return the point */
            Point build() {
                return new Point(phase, startSeconds, lengthSeconds, goodputPerSecond, offeredPerSecond, answered,
                        p50Millis, p99Millis, hiccupMaxMillis, sendLagP99Millis, retriedPerSecond);
            }
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
            points.add(Point.builder()
                    .phase(phase)
                    .startSeconds(startSeconds)
                    .lengthSeconds(lengthSeconds)
                    .goodputPerSecond(lengthSeconds <= 0 ? 0 : i.path("completed").asLong() / lengthSeconds)
                    .offeredPerSecond(lengthSeconds <= 0 ? 0 : i.path("offered").asLong() / lengthSeconds)
                    .answered(answered > 0)
                    .p50Millis(i.path("p50Micros").asLong() / 1e3)
                    .p99Millis(i.path("p99Micros").asLong() / 1e3)
                    .hiccupMaxMillis(i.path("hiccupMaxMicros").asLong() / 1e3)
                    .sendLagP99Millis(i.path("sendLagP99Micros").asLong() / 1e3)
                    .retriedPerSecond(lengthSeconds <= 0 ? 0 : i.path("retried").asLong() / lengthSeconds)
                    .build());
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
