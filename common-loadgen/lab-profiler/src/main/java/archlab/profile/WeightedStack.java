package archlab.profile;

import java.util.List;
import java.util.Objects;

/**
 * One stack trace and what it stands for: the input of {@link TopTable#aggregate}.
 *
 * @param frames method names ({@code package.Class.method}), <b>leaf first</b> (index 0 is the frame that
 *               was running, parking or allocating; the last is the thread's entry point); may be empty when
 *               the event had no stack trace
 * @param weight what the events on this stack weigh in the table's unit (nanoseconds waited, sampled CPU
 *               nanoseconds, bytes allocated); not negative
 * @param events how many events were merged into this stack; not negative
 */
public record WeightedStack(List<String> frames, double weight, long events) {

    public WeightedStack {
        frames = List.copyOf(Objects.requireNonNull(frames, "frames"));
        if (!(weight >= 0)) {
            throw new IllegalArgumentException("weight must be >= 0, was " + weight);
        }
        if (events < 0) {
            throw new IllegalArgumentException("events must be >= 0, was " + events);
        }
    }

    /** @return one event of {@code weight} on the stack {@code leafFirst} */
    public static WeightedStack of(double weight, String... leafFirst) {
        return new WeightedStack(List.of(leafFirst), weight, 1);
    }

    /** @return whether some frame's name starts with {@code framePrefix} */
    public boolean containsFrameStartingWith(String framePrefix) {
        for (String f : frames) {
            if (f.startsWith(framePrefix)) {
                return true;
            }
        }
        return false;
    }
}
