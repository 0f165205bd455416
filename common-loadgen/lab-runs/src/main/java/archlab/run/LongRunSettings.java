package archlab.run;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * The article's rule for data, as the lab runs it with {@code -Dlong}: warm up, then measure at least two minutes, then
 * keep the load on for a stability window; each window reported apart ({@link LongRun}). The trap it answers: a 3 s
 * run's p99 rests on a few dozen requests and one stall can move it; nothing says how far it is from the same code's
 * p99 over minutes until both are run.
 *
 * <p>{@code -Dlong} asks for it for every load run of the command, {@code -Dlong=baseline,overload} for the runs of those
 * report names only (a checkpoint's {@code -Dbaseline} runs several); {@code -Dlab.long.warmup}, {@code -Dlab.long.measured} and {@code -Dlab.long.stability}
 * change its windows (CI runs a short form). A {@code lab.long.*} key without {@code -Dlong} is refused: it would do
 * nothing. Immutable.
 *
 * @param warmup    the unmeasured load before the measured window, on the long run's own fixture
 * @param measured  the measured window: the figures the long run stands by
 * @param stability the window after it, at the same load: does the measured window's p99 hold?
 * @param runs      the report names ({@code baseline}) of the runs to run long; empty for every run
 */
public record LongRunSettings(Duration warmup, Duration measured, Duration stability, java.util.Set<String> runs) {

    /** The longest window: an hour (declared before {@link #ARTICLE}, which the constructor checks against it). */
    public static final Duration MAX_WINDOW = Duration.ofHours(1);
    /** The article's rule: 30 s of warm-up (its wrk runs), 2 minutes measured, 30 s for stability: 3 minutes in all. */
    public static final LongRunSettings ARTICLE = new LongRunSettings(Duration.ofSeconds(30), Duration.ofMinutes(2),
            Duration.ofSeconds(30), java.util.Set.of());
    /** The system property that asks for a long run. */
    public static final String FLAG = "long";

    public LongRunSettings {
        runs = java.util.Set.copyOf(runs);
        for (Duration d : new Duration[] {warmup, measured, stability}) {
            if (d != null && d.compareTo(MAX_WINDOW) > 0) {
                throw new IllegalArgumentException("a long run's window is at most " + MAX_WINDOW.toMinutes() + " minutes, was " + d);
            }
        }
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("the long run's warm-up must be zero or positive, was " + warmup);
        }
        if (measured == null || measured.toMillis() < 1_000) {
            throw new IllegalArgumentException("the long run's measured window must be at least 1 s, was " + measured);
        }
        if (stability == null || stability.toMillis() < 1_000) {
            throw new IllegalArgumentException("the long run's stability window must be at least 1 s, was " + stability);
        }
    }

    /** @return whether these windows keep the article's rule: at least its warm-up, measured and stability windows */
    public boolean keepsTheArticlesRule() {
        return warmup.compareTo(ARTICLE.warmup) >= 0 && measured.compareTo(ARTICLE.measured) >= 0
                && stability.compareTo(ARTICLE.stability) >= 0;
    }

    private static String runName(String name) {
        try {
            return archlab.report.ReportWriter.checkedName(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-Dlong=" + name + ": a run's name is letters, digits, '.', '_' or '-'", e);
        }
    }

    /** @return whether the run of report name {@code name} runs long */
    public boolean covers(String name) {
        return runs.isEmpty() || runs.contains(name);
    }

    /** @return how long the load runs after the warm-up: the measured window and the stability window */
    public Duration loaded() {
        return measured.plus(stability);
    }

    /**
     * @return the long run {@code p} asks for: empty without {@code -Dlong}
     * @throws IllegalArgumentException for a {@code lab.long.*} key without {@code -Dlong}, naming it
     */
    public static Optional<LongRunSettings> from(Properties p, LabProperties lab) {
        boolean asked = p.getProperty(FLAG) != null;
        for (LabProperties.Key<?> key : java.util.List.of(LabProperties.LONG_WARMUP, LabProperties.LONG_MEASURED,
                LabProperties.LONG_STABILITY)) {
            if (!asked && lab.given(key).isPresent()) {
                throw new IllegalArgumentException(key.property() + " sets the long run's windows, and no long run was asked"
                        + " for: add -Dlong");
            }
        }
        if (!asked) {
            return Optional.empty();
        }
        String value = p.getProperty(FLAG).trim();
        java.util.Set<String> runs = value.isEmpty() || value.equals("true") || value.equals("false") ? java.util.Set.of()
                : java.util.Arrays.stream(value.split(",")).map(String::trim).filter(n -> !n.isEmpty())
                        .map(LongRunSettings::runName).collect(java.util.stream.Collectors.toSet());
        if (value.equals("false")) {
            throw new IllegalArgumentException("-Dlong=false: leave -Dlong out for short runs only");
        }
        if (!value.isEmpty() && !value.equals("true") && runs.isEmpty()) {
            throw new IllegalArgumentException("-Dlong='" + value + "' names no run: -Dlong for every run, -Dlong=baseline for one");
        }
        return Optional.of(new LongRunSettings(lab.get(LabProperties.LONG_WARMUP).orElse(ARTICLE.warmup),
                lab.get(LabProperties.LONG_MEASURED).orElse(ARTICLE.measured),
                lab.get(LabProperties.LONG_STABILITY).orElse(ARTICLE.stability), runs));
    }
}
