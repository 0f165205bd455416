package archlab.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Accumulating: weight and event count per distinct stack, the raw material of one {@link TopTable}.
 *
 * <p><b>Trap: hiding leaf frames must not lose events.</b> {@link #stacks(double, Predicate)} drops frames from
 * each stack's leaf end while they match (e.g. {@code jdk.internal.misc.Unsafe.park}), so flat moves to the first
 * frame that does not. A stack that would lose every frame is kept whole: otherwise its weight would vanish from
 * the table's total.
 *
 * <p>Stacks come out largest weight first; equal weights keep the map's order, so the same recording always gives
 * the same order. Not thread-safe: one per table per read.
 */
final class StackTally {

    /** Leaf-first frames → {weight, events}. */
    private final Map<List<String>, double[]> byStack = new HashMap<>();

    /** Adds one event of {@code weight} on {@code frames} (leaf first). */
    void add(List<String> frames, double weight) {
        double[] v = byStack.computeIfAbsent(frames, k -> new double[2]);
        v[0] += weight;
        v[1] += 1;
    }

    /**
     * @param scale what one unit of added weight stands for (the sampling period for CPU samples, else 1)
     * @return every stack with its whole frames, largest weight first
     */
    List<WeightedStack> stacks(double scale) {
        return stacks(scale, null);
    }

    /**
     * @param scale         what one unit of added weight stands for
     * @param hideLeafFrame which leaf frames to drop (see the trap above)
     * @return every stack less its hidden leaf frames, largest weight first
     */
    List<WeightedStack> stacks(double scale, Predicate<String> hideLeafFrame) {
        List<WeightedStack> out = new ArrayList<>(byStack.size());
        byStack.forEach((frames, v) -> out.add(new WeightedStack(
                hideLeafFrame == null ? frames : hideLeaves(frames, hideLeafFrame), v[0] * scale, (long) v[1])));
        out.sort((a, b) -> Double.compare(b.weight(), a.weight()));
        return out;
    }

    private static List<String> hideLeaves(List<String> frames, Predicate<String> hideLeafFrame) {
        int i = 0;
        while (i < frames.size() && hideLeafFrame.test(frames.get(i))) {
            i++;
        }
        return i == frames.size() ? frames : frames.subList(i, frames.size());
    }
}
