package archlab.run;

import java.util.List;
import java.util.Locale;

/**
 * The reader's changes to the book's load, as the suffix of a run's report name. The trap it closes: an exercise
 * asks "run it again with {@code -Dlab.timeout=300ms} and compare with {@code baseline.txt}", and the second run wrote
 * its report over the first. A run with changed settings writes {@code baseline-timeout-300ms.txt} beside
 * {@code baseline.txt} instead (keys in {@link #KEYS}' order, each as its name without {@code lab.} and its value as
 * typed, lowercased, every character other than a letter, digit or dot as {@code -}). A sweep keeps its own name.
 *
 * <p>The transport, the store and the cache keep their own suffixes ({@code -http}, {@code -postgres}, {@code -redis});
 * settings that do not change what is measured ({@code lab.serve.*}, the sweep's own keys, the servers' URLs) add
 * nothing. Stateless; thread-safe.
 */
public final class ChangedSettings {

    /** The keys whose value changes a run's load or what its report measures, in the order they join a name. */
    public static final List<LabProperties.Key<?>> KEYS = List.of(LabProperties.RATE, LabProperties.DURATION,
            LabProperties.TIMEOUT, LabProperties.THREADS, LabProperties.ARRIVAL, LabProperties.WARMUP, LabProperties.JIT_WARMUP,
            LabProperties.TRACE, LabProperties.INTERVAL, LabProperties.REPEAT, LabProperties.PROFILE, LabStore.DB_POOL);

    private ChangedSettings() {
    }

    /**
     * @return {@code -timeout-300ms-threads-platform} for those two overrides; "" when none of {@link #KEYS} was given
     *         (a key given its default value still names the run: the name says what was typed, not what differs)
     */
    public static String suffix(LabProperties lab) {
        StringBuilder s = new StringBuilder();
        for (LabProperties.Key<?> key : KEYS) {
            lab.given(key).ifPresent(value -> s.append('-').append(key.property().substring(LabProperties.PREFIX.length())
                    .replace('.', '-')).append('-').append(value.strip().toLowerCase(Locale.ROOT)
                    .replaceAll("[^a-z0-9.]", "-")));
        }
        return s.toString();
    }
}
