package archlab.scenario;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The server's queue around a scenario's trigger, over HTTP: the longest time a socket event waited for a server
 * thread before the trigger, at its peak (and when), and from {@link Scenario#RECOVERY_BOUND} after the trigger's end to
 * the end of the load. Read from a run report's {@code server_timeline} line ({@code interval=100ms … queue_wait_max_ms=…},
 * written by the harness over HTTP only), so a saved report gives the same figures as the run that wrote it.
 *
 * @param beforeTriggerMillis longest wait in the intervals before the trigger
 * @param peakMillis          longest wait of any interval
 * @param peakAtSeconds       when that interval began, seconds from the run's start
 * @param afterMillis         longest wait from the trigger's end plus {@link Scenario#RECOVERY_BOUND} to the load's end
 * @param intervalMillis      the timeline's interval
 */
public record QueueWaitAroundTrigger(double beforeTriggerMillis, double peakMillis, double peakAtSeconds, double afterMillis,
                                     long intervalMillis) {

    /** The report line this is read from. */
    public static final String SERVER_TIMELINE = "server_timeline";

    /**
     * @param extras   a run report's extra lines by name (values printed as text)
     * @param duration how long the load was offered
     * @return the figures, or empty in process (no server timeline), for a scenario without a trigger, or when the
     *         server saw no event
     */
    public static Optional<QueueWaitAroundTrigger> of(Scenario scenario, Map<String, ?> extras, Duration duration) {
        Object line = extras.get(SERVER_TIMELINE);
        if (line == null || scenario.trigger().isEmpty()) {
            return Optional.empty();
        }
        String timeline = String.valueOf(line);
        long intervalMs = intervalMillis(timeline);
        List<Double> waits = series(timeline, "queue_wait_max_ms");
        if (waits.isEmpty()) {
            return Optional.empty();
        }
        ScenarioClock.Window w = scenario.trigger().get();
        int from = (int) (w.from().toMillis() / intervalMs);
        int after = (int) ((w.to().toMillis() + Scenario.RECOVERY_BOUND.toMillis()) / intervalMs);
        int end = (int) Math.min(waits.size(), duration.toMillis() / intervalMs);
        int peak = 0;
        for (int i = 1; i < waits.size(); i++) {
            peak = waits.get(i) > waits.get(peak) ? i : peak;
        }
        return Optional.of(new QueueWaitAroundTrigger(max(waits, 0, Math.min(from, waits.size())), waits.get(peak),
                peak * intervalMs / 1e3, max(waits, Math.min(after, end), end), intervalMs));
    }

    /**
     * @return {@code queue_wait_max before_trigger=3.7ms peak=204.1ms at=1.7s after=199.1ms (…)}, the line a scenario run
     *         prints under its book lines
     */
    public String line(Scenario scenario, Duration duration) {
        ScenarioClock.Window w = scenario.trigger().orElseThrow();
        return String.format(Locale.ROOT, "queue_wait_max before_trigger=%.1fms peak=%.1fms at=%.1fs after=%.1fms"
                        + " (before %s; after: from %s to the load's end %s; per %d ms interval, from server_timeline)",
                beforeTriggerMillis, peakMillis, peakAtSeconds, afterMillis, w.from(), w.to().plus(Scenario.RECOVERY_BOUND),
                duration, intervalMillis);
    }

    /** @return the interval of a {@code server_timeline} line, ms */
    public static long intervalMillis(String serverTimeline) {
        return Long.parseLong(field(serverTimeline, "interval").replace("ms", ""));
    }

    /**
     * @param serverTimeline a {@code server_timeline} line
     * @param name           {@code queue_wait_max_ms} or {@code busy_max}
     * @return its values, one per interval from the run's start (empty when the server saw no event)
     */
    public static List<Double> series(String serverTimeline, String name) {
        String values = field(serverTimeline, name);
        return values.equals("-") ? List.of() : Arrays.stream(values.split(",")).map(Double::valueOf).toList();
    }

    /** @return the value of {@code name=value} in a line of space-separated fields */
    private static String field(String line, String name) {
        return Arrays.stream(line.split(" ")).filter(f -> f.startsWith(name + "=")).findFirst()
                .map(f -> f.substring(name.length() + 1))
                .orElseThrow(() -> new IllegalArgumentException("no " + name + "= in '" + line + "'"));
    }

    private static double max(List<Double> values, int from, int to) {
        return values.subList(from, Math.max(from, to)).stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
