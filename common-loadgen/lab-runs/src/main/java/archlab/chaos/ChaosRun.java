package archlab.chaos;

import archlab.report.ReportWriter;
import archlab.scenario.Scenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The randomized fault check of one checkpoint: for every seed, draw a mix ({@link ChaosMix}), let the checkpoint run
 * it and hand back its evidence, judge it ({@link ChaosVerdict}); print a line per violating seed as it happens and
 * the summary at the end ({@link ChaosSummary}), and save them as {@code chaos.txt} in the module's reports folder.
 * The loop is the same for every checkpoint; only the run of one mix is the checkpoint's.
 *
 * <p>Thread-safety: a check runs on the caller's thread, one mix after another.
 */
public final class ChaosRun {

    /** A progress line every this many seeds. */
    static final int PROGRESS_EVERY = 10;

    /**
     * How many times a seed runs at most while its deadline could not be judged (the machine's stalls could explain its overrun) and nothing
     * else broke: as a claim judged while the machine stalled is judged again. A rerun that breaks an invariant counts.
     */
    static final int ATTEMPTS = 4;

    private ChaosRun() {
    }

    /**
     * @param module       the checkpoint's artifact id (for the replay command)
     * @param settings     which seeds to run
     * @param overrunBound the checkpoint's stated bound on answering past the deadline
     * @param checkpoint   runs one mix against a fresh service and returns what it left after reconcile and drain
     * @param out          where the lines go
     * @return the summary of every seed run
     */
    public static ChaosSummary check(String module, ChaosProperties settings, Duration overrunBound,
                                     Function<Scenario, ChaosEvidence> checkpoint, Consumer<String> out) {
        ChaosSummary summary = new ChaosSummary(module);
        List<String> printed = new ArrayList<>();
        Consumer<String> print = line -> {
            printed.add(line);
            out.accept(line);
        };
        List<Long> seeds = settings.seedsToRun();
        long started = System.nanoTime();
        for (long seed : seeds) {
            Scenario mix = ChaosMix.draw(seed);
            ChaosVerdict verdict = ChaosVerdict.judge(seed, mix, checkpoint.apply(mix), overrunBound);
            for (int attempt = 2; attempt <= ATTEMPTS && !verdict.deadlineJudged() && !verdict.violated(); attempt++) {
                summary.rerun();
                verdict = ChaosVerdict.judge(seed, mix, checkpoint.apply(mix), overrunBound);
            }
            summary.add(verdict);
            if (verdict.violated()) {
                print.accept(summary.violationLine(verdict));
            }
            if (summary.seeds() % PROGRESS_EVERY == 0 && summary.seeds() < seeds.size()) {
                out.accept(String.format(Locale.ROOT, "[chaos] %s: %d of %d seeds, %d violating, %.0f s", module,
                        summary.seeds(), seeds.size(), summary.violatingSeeds(), (System.nanoTime() - started) / 1e9));
            }
        }
        summary.closingLines().forEach(print);
        save(ReportWriter.reportsDir().resolve("chaos.txt"), printed);
        return summary;
    }

    private static void save(Path file, List<String> lines) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
