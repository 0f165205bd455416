package archlab.scenario;

import archlab.loadgen.RunResult;
import archlab.timeline.Recovery;
import java.util.List;
import java.util.Locale;

/**
 * How a checkpoint's scenario runs name themselves: the report each run saves ({@code scenario-<name>})
 * and the progress line printed before it starts. The trap it avoids: a 3 × 3 table that runs for a
 * minute with no sign of where it is — the line says which checkpoint, which scenario, and how many runs
 * of the full table are left.
 *
 * <p>The table itself is built from the saved reports by the {@code book} module, never by a checkpoint.
 *
 * <p>Thread-safety: stateless.
 */
public final class ScenarioProgress {

    /** Report files are named {@code scenario-<scenario name>.json}. */
    public static final String REPORT_PREFIX = "scenario-";

    /**
     * The system property that lists the build's checkpoints, comma-separated, in the order a root
     * {@code mvn test -Dscenarios} runs them; the root POM sets it for every module's tests. The harness itself
     * names no checkpoint.
     */
    public static final String CHECKPOINTS_PROPERTY = "archlab.checkpoints";

    private ScenarioProgress() {
    }

    /**
     * The scenarios a {@code -Dscenarios} run asks for: every one of the catalogue for {@code -Dscenarios} alone (an
     * empty value or {@code true}), else the comma-separated names, e.g. {@code -Dscenarios=retry-storm}.
     *
     * @throws IllegalArgumentException naming the known scenarios, for a name not in the catalogue
     */
    public static List<Scenario> selected(String property) {
        if (property == null || property.isBlank() || property.equals("true")) {
            return Scenario.catalogue();
        }
        List<Scenario> chosen = java.util.Arrays.stream(property.split(",")).map(String::trim).filter(n -> !n.isEmpty())
                .distinct().map(Scenario::named).toList();
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("-Dscenarios='" + property + "' names no scenario; known: "
                    + Scenario.catalogue().stream().map(Scenario::name).toList());
        }
        return chosen;
    }

    /** @return how the run came out of the scenario's trigger, for a scenario with one */
    public static java.util.Optional<Recovery> recovery(Scenario scenario, RunResult run) {
        return scenario.recovery(run.timeline().phase(archlab.timeline.Interval.RUN), run.timeline().interval());
    }

    /** @return the report name of {@code scenario}'s run */
    public static String reportName(Scenario scenario) {
        return REPORT_PREFIX + scenario.name();
    }

    /**
     * @return the checkpoints of the build ({@value #CHECKPOINTS_PROPERTY}), in order; just {@code module} when the
     *         property is not set (a run outside Maven)
     */
    public static List<String> checkpointsOfTheBuild(String module) {
        String listed = System.getProperty(CHECKPOINTS_PROPERTY, "");
        List<String> checkpoints = java.util.Arrays.stream(listed.split(",")).map(String::trim).filter(n -> !n.isEmpty()).toList();
        return checkpoints.isEmpty() ? List.of(module) : checkpoints;
    }

    /**
     * The progress line printed before a scenario run, e.g.
     * {@code [scenarios] ch12-2-cache-outbox-ratelimit: slow-downstream (scenario 2 of 3, checkpoint 2 of 3, 4 runs left in the full table)}.
     *
     * @param module        the checkpoint running, one of {@code checkpoints}
     * @param checkpoints   the checkpoints of the full table, in the order they run ({@link #checkpointsOfTheBuild})
     * @param scenarioIndex 0-based index of the scenario in {@code catalogueSize}
     * @throws IllegalArgumentException for a module not in {@code checkpoints} or an index out of range
     */
    public static String progressLine(String module, List<String> checkpoints, String scenario, int scenarioIndex, int catalogueSize) {
        int checkpoint = checkpoints.indexOf(module);
        if (checkpoint < 0) {
            throw new IllegalArgumentException("unknown checkpoint '" + module + "'; known: " + checkpoints);
        }
        if (scenarioIndex < 0 || scenarioIndex >= catalogueSize) {
            throw new IllegalArgumentException("scenario index " + scenarioIndex + " outside 0.." + (catalogueSize - 1));
        }
        int left = (checkpoints.size() - checkpoint - 1) * catalogueSize + (catalogueSize - scenarioIndex - 1);
        return String.format(Locale.ROOT, "[scenarios] %s: %s (scenario %d of %d, checkpoint %d of %d, %d %s left in the full table)",
                module, scenario, scenarioIndex + 1, catalogueSize, checkpoint + 1, checkpoints.size(), left,
                left == 1 ? "run" : "runs");
    }
    /** The report lines of the server's view, by name: set by the harness over HTTP only. */
    private static final List<String> SERVER_LINES = List.of("transport", "server", "server_timeline");

    /**
     * Over HTTP, the server's view of a scenario run, to print under its book lines: the report's {@code transport},
     * {@code server} and {@code server_timeline} lines, then for a scenario with a trigger the longest queue wait
     * before the trigger, at its peak (and when) and from {@link Scenario#RECOVERY_BOUND} after the trigger's end to
     * the end of the load, read from the {@code server_timeline} line ({@code interval=100ms … queue_wait_max_ms=…}).
     * In process there is no server: empty.
     *
     * @param extras   the run report's extra lines by name ({@code RunReport.extraByName()})
     * @param duration how long the load was offered
     */
    public static List<String> serverLines(Scenario scenario, java.util.Map<String, Object> extras, java.time.Duration duration) {
        if (!extras.containsKey("server_timeline")) {
            return List.of();
        }
        List<String> lines = new java.util.ArrayList<>();
        SERVER_LINES.stream().filter(extras::containsKey).forEach(n -> lines.add(n + "=" + extras.get(n)));
        QueueWaitAroundTrigger.of(scenario, extras, duration).ifPresent(q -> lines.add(q.line(scenario, duration)));
        return lines;
    }
}
