package archlab.report;

import archlab.timeline.RunTimeline;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Duration;
import java.util.Locale;

/**
 * The JIT warm-up a report's JVM ran before its first measured run, as the report states it. The trap it closes: a
 * report that says {@code warmup=none} while its JVM spent 3 s compiling the service on a scratch copy misstates its
 * own conditions, and a reader comparing two checkpoints, one warmed and one cold, compares the JIT instead.
 *
 * <p>Immutable.
 *
 * @param length        how long the scratch fixture was loaded
 * @param ratePerSecond at which rate
 * @param requests      how many requests it offered (none of them in any figure of the report)
 * @param before        the run it preceded, {@code module/name}: this run, or the JVM's first measured run
 * @param inThisRun     whether it ran just before this report's run (then the report's timeline shows it) or earlier
 *                      in the same JVM
 * @param timeline      its timeline when {@code inThisRun} (for the report's timeline); not in the JSON
 */
public record WarmUp(Duration length, int ratePerSecond, long requests, String before, boolean inThisRun,
                     @JsonIgnore RunTimeline timeline) {

    public WarmUp {
        timeline = timeline == null ? RunTimeline.NONE : timeline;
    }

    /** @return the same warm-up as a later run of the JVM sees it: done earlier, no timeline of its own */
    public WarmUp earlier() {
        return new WarmUp(length, ratePerSecond, requests, before, false, RunTimeline.NONE);
    }

    /**
     * @return e.g. {@code jit 3s at 1500/s on a scratch fixture just before this run (4500 requests, excluded)} or
     *         {@code jit 3s at 1500/s on a scratch fixture earlier in this JVM, before ch12-2-…/baseline (4500 requests)}
     */
    public String describe() {
        String seconds = java.math.BigDecimal.valueOf(length.toNanos(), 9).stripTrailingZeros().toPlainString() + "s";
        return inThisRun
                ? String.format(Locale.ROOT, "jit %s at %d/s on a scratch fixture just before this run (%d requests, excluded)",
                        seconds, ratePerSecond, requests)
                : String.format(Locale.ROOT, "jit %s at %d/s on a scratch fixture earlier in this JVM, before %s (%d requests)",
                        seconds, ratePerSecond, before, requests);
    }
}
