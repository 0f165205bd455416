package archlab.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The randomized fault check's tally for one checkpoint: a line per violating seed, with the command that replays
 * it, and the closing lines — seeds violating each invariant, how many runs the deadline could not be judged on,
 * and {@code chaos seeds=N violations=V}, where V counts the seeds that broke at least one invariant.
 *
 * <p>Thread-safety: not thread-safe; one check fills it on one thread.
 */
public final class ChaosSummary {

    private final String module;
    private final List<ChaosVerdict> verdicts = new ArrayList<>();
    private int reruns;

    /** @param module the checkpoint's artifact id, as {@code mvn -pl} takes it */
    public ChaosSummary(String module) {
        this.module = module;
    }

    public void add(ChaosVerdict verdict) {
        verdicts.add(verdict);
    }

    /** @return the seeds judged so far */
    public int seeds() {
        return verdicts.size();
    }

    /** @return the seeds that broke at least one invariant */
    public int violatingSeeds() {
        return (int) verdicts.stream().filter(ChaosVerdict::violated).count();
    }

    /** @return for each invariant, the seeds that broke it */
    public Map<Invariant, Long> violationsByInvariant() {
        Map<Invariant, Long> by = new EnumMap<>(Invariant.class);
        for (Invariant i : Invariant.values()) {
            by.put(i, verdicts.stream().filter(v -> v.violations().containsKey(i)).count());
        }
        return by;
    }

    /** Counts one rerun of a seed whose deadline could not be judged. */
    public void rerun() {
        reruns++;
    }

    /** @return how many runs were reruns of a seed whose deadline could not be judged */
    public int reruns() {
        return reruns;
    }

    /** @return the share of seeds whose deadline claim was judged, in [0, 1]; 1 when no seed ran */
    public double deadlineJudgedShare() {
        return seeds() == 0 ? 1.0 : 1.0 - (double) deadlineNotJudged() / seeds();
    }

    /** @return the runs whose deadline claim was not judged (the machine's stalls could explain the overrun) */
    public int deadlineNotJudged() {
        return (int) verdicts.stream().filter(v -> !v.deadlineJudged()).count();
    }

    /** @return the verdicts so far, in the order they were added */
    public List<ChaosVerdict> verdicts() {
        return List.copyOf(verdicts);
    }

    /** @return the command that replays {@code seed} on this checkpoint */
    public String replayCommand(long seed) {
        return "mvn -pl " + module + " test -Dchaos -D" + ChaosProperties.SEED + "=" + seed;
    }

    /**
     * @return e.g. {@code [chaos] ch12-3-fault-scenarios seed=17 violated charged_not_paid: 2 orders … | mix: … |
     *         replay: mvn -pl ch12-3-fault-scenarios test -Dchaos -Dchaos.seed=17}
     */
    public String violationLine(ChaosVerdict v) {
        String broken = v.violations().entrySet().stream().map(e -> e.getKey().key() + ": " + e.getValue())
                .collect(Collectors.joining("; "));
        return "[chaos] " + module + " seed=" + v.seed() + " violated " + broken + " | mix: "
                + String.join("; ", v.mix().parameters()) + " | replay: " + replayCommand(v.seed());
    }

    /** @return the closing lines; the last is {@code chaos seeds=N violations=V} */
    public List<String> closingLines() {
        String byInvariant = violationsByInvariant().entrySet().stream()
                .map(e -> e.getKey().key() + "=" + e.getValue()).collect(Collectors.joining(" "));
        return List.of(
                "chaos " + module + " seeds violating each invariant: " + byInvariant,
                String.format(Locale.ROOT, "chaos %s deadline judged on %d of %d seeds (%.1f %%), not judged on %d (an overrun past the bound that the"
                                + " machine's longest stall could explain: a busy machine; such a seed runs up to %d times, unless another invariant broke); %d reruns", module, seeds() - deadlineNotJudged(), seeds(),
                        100.0 * deadlineJudgedShare(), deadlineNotJudged(), ChaosRun.ATTEMPTS, reruns),
                "chaos seeds=" + seeds() + " violations=" + violatingSeeds());
    }
}
