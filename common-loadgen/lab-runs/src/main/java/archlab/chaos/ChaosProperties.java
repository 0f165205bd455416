package archlab.chaos;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.LongStream;

/**
 * The reader's {@code -Dchaos.*} settings for the randomized fault check: {@code -Dchaos.seeds=N} runs seeds 1..N,
 * {@code -Dchaos.seed=S} replays the one seed S (the command a violation line prints). {@code -Dchaos} alone, which
 * turns the check on, is not one of them.
 *
 * <p>The trap it avoids: a typo that runs something else in silence. {@code -Dchaos.sed=17} must not run the default
 * seeds and report "no violation" about a seed it never ran. So, as {@code -Dlab.*} is read by
 * {@code archlab.run.LabProperties}, every property whose name starts with {@code chaos.} is either a known key
 * or stops the check before any run, naming it and the known keys; a bad value stops it naming the property and the
 * value; giving both keys is refused (which did the reader mean?).
 *
 * <p>Thread-safety: immutable.
 *
 * @param seed  the one seed to replay, if given
 * @param seeds how many seeds to run from 1 when no seed is given
 */
public record ChaosProperties(OptionalLong seed, int seeds) {

    /** Replays one seed. */
    public static final String SEED = "chaos.seed";
    /** Runs seeds 1..N. */
    public static final String SEEDS = "chaos.seeds";
    /** The prefix of every chaos key. */
    public static final String PREFIX = "chaos.";
    /** The most seeds one check runs: about 4 hours on 2 cores. */
    public static final int MAX_SEEDS = 10_000;

    public ChaosProperties {
        if (seeds < 1 || seeds > MAX_SEEDS) {
            throw new IllegalArgumentException(SEEDS + " must be 1.." + MAX_SEEDS + ", was " + seeds);
        }
    }

    /** @return the settings of this JVM's system properties, {@code defaultSeeds} seeds when none is given */
    public static ChaosProperties fromSystem(int defaultSeeds) {
        return read(System.getProperties(), defaultSeeds);
    }

    /**
     * @throws IllegalArgumentException for an unknown {@code chaos.*} key, a bad value, or both keys at once, naming
     *                                  the property and the value
     */
    public static ChaosProperties read(Properties p, int defaultSeeds) {
        TreeSet<String> unknown = new TreeSet<>();
        for (String name : p.stringPropertyNames()) {
            if (name.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) && !name.equals(SEED) && !name.equals(SEEDS)) {
                unknown.add("-D" + name + "=" + p.getProperty(name));
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException((unknown.size() == 1 ? "unknown property " : "unknown properties ")
                    + String.join(", ", unknown) + "; known: " + SEED + " (replay one seed), " + SEEDS + " (run seeds 1..N)");
        }
        String seed = p.getProperty(SEED);
        String seeds = p.getProperty(SEEDS);
        if (seed != null && seeds != null) {
            throw new IllegalArgumentException("give " + SEED + " (replay one seed) or " + SEEDS
                    + " (run seeds 1..N), not both; were '" + seed + "' and '" + seeds + "'");
        }
        OptionalLong one = seed == null ? OptionalLong.empty() : OptionalLong.of(wholeNumber(SEED, seed));
        if (seeds == null) {
            return new ChaosProperties(one, defaultSeeds);
        }
        long n = wholeNumber(SEEDS, seeds);
        if (n < 1 || n > MAX_SEEDS) {
            throw new IllegalArgumentException(SEEDS + " must be 1.." + MAX_SEEDS + ", was '" + seeds + "'");
        }
        return new ChaosProperties(one, (int) n);
    }

    /** @return the seeds to run: the one given, or 1..{@link #seeds()} */
    public List<Long> seedsToRun() {
        if (seed.isPresent()) {
            return List.of(seed.getAsLong());
        }
        return LongStream.rangeClosed(1, seeds).boxed().toList();
    }

    private static long wholeNumber(String property, String value) {
        try {
            return Long.parseLong(value.trim().replace("_", "").toLowerCase(Locale.ROOT));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a whole number, was '" + value + "'");
        }
    }
}
