package archlab.profile;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Accumulating: {@code jdk.ExecutionSample} events, and what one sample stands for.
 *
 * <p><b>Trap: a sample's worth is not in the sample.</b> CPU time is samples × sampling period, and the period is
 * a setting, found only in the {@code jdk.ActiveSetting} events of {@code jdk.ExecutionSample}. When several
 * recordings run at once JFR samples at the <em>shortest</em> of their periods, so the shortest setting seen is
 * the one that applies. {@link #periodNanos()} is not positive when the file has no such setting; the report then
 * assumes the default and says so.
 *
 * <p>Not thread-safe: one per read.
 */
final class CpuSamples {

    private static final Pattern TIMESPAN = Pattern.compile("\\s*(\\d+)\\s*(ns|us|ms|s|m|h|d)\\s*");

    private final StackTally stacks = new StackTally();
    private long samples;
    private long virtualSamples;
    private long periodNanos = -1;

    /** One {@code jdk.ExecutionSample} of a thread ({@code virtual} or not) running {@code frames} (leaf first). */
    void sample(boolean virtual, List<String> frames) {
        samples++;
        if (virtual) {
            virtualSamples++;
        }
        stacks.add(frames, 1);
    }

    /** A {@code jdk.ActiveSetting} {@code period} of {@code jdk.ExecutionSample}, e.g. {@code "10 ms"}. */
    void periodSetting(String value) {
        long p = parseTimespanNanos(value);
        if (p > 0 && (periodNanos < 0 || p < periodNanos)) {
            periodNanos = p; // JFR uses the shortest period of all running recordings
        }
    }

    /** @return the samples per stack, in samples (scale them by the period) */
    StackTally stacks() {
        return stacks;
    }

    /** @return {@code jdk.ExecutionSample} events read */
    long samples() {
        return samples;
    }

    /** @return of those, samples of virtual threads */
    long virtualSamples() {
        return virtualSamples;
    }

    /** @return the shortest sampling period set in the recording, nanoseconds; -1 if none */
    long periodNanos() {
        return periodNanos;
    }

    /** @return nanoseconds of a JFR timespan setting such as {@code "10 ms"} or {@code "20000000 ns"}; -1 if not one */
    static long parseTimespanNanos(String value) {
        if (value == null) {
            return -1;
        }
        Matcher m = TIMESPAN.matcher(value);
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        long factor = switch (m.group(2)) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 86_400_000_000_000L;
        };
        return n * factor;
    }
}
