package archlab.run;

import archlab.report.WarmUp;
import archlab.loadgen.LoadSpec;
import archlab.clock.NanoClock;
import archlab.loadgen.OpenLoopRunner;
import archlab.loadgen.RunResult;
import archlab.timeline.TimelineSettings;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One JIT warm-up per JVM, before its first measured run, the same for every checkpoint. The trap: a JVM's first
 * seconds run the service in its interpreter while the JIT compiles it (the book's Go binary was compiled ahead of
 * time); on a 2-core machine those compilations steal a core and land in the first requests' latency, so a checkpoint
 * measured cold looks slower than one measured warm for reasons that are not its code. Measured on this lab's machine:
 * the runner's send-lag p99 at 1,500 req/s was 1.07 ms in a JVM's first run and 0.22–0.41 ms in the next three.
 *
 * <p>What it does: loads a <em>scratch</em> fixture — a fresh one from the run's own supplier, the same code as the
 * run's, its own stubs, table and pool — with the run's load for {@link #DEFAULT_LENGTH}, lets it settle, throws it
 * away and collects the garbage; then the measured run starts on a fresh fixture of its own. Nothing of the scratch
 * run is in any figure of the report; the report says what was warmed and how long ({@link WarmUp#describe()}), and the
 * first run's timeline shows the warm-up's intervals before its own.
 *
 * <p>Thread-safety: {@link #before} is synchronized; one warm-up per instance ({@link #jvm()}: per JVM).
 */
public final class JitWarmUp {

    /** How long the scratch fixture is loaded: the 3 s ch12-2 and ch12-3 carried in their fixtures before. */
    public static final Duration DEFAULT_LENGTH = Duration.ofSeconds(3);

    private static final JitWarmUp JVM = new JitWarmUp();

    private WarmUp done;

    /** A warm-up state of its own (tests); a lab's runs share {@link #jvm()}. */
    public JitWarmUp() {
    }

    /** @return the JVM's one warm-up state: the first run that asks warms the JVM, later ones are told it was done */
    public static JitWarmUp jvm() {
        return JVM;
    }

    /**
     * Warms the JVM up unless this instance did already.
     *
     * @param run      the run that asks, {@code module/name}, for the report and the progress line
     * @param length   how long to load the scratch fixture; zero for no warm-up (then nothing is marked as done)
     * @param spec     the run's load; the warm-up offers it at its rate for {@code length}, without its own warm-up
     * @param scratch  makes the scratch fixture (the run's own supplier)
     * @param timeline how the scratch run records its timeline (the run's settings)
     * @param out      where the progress line goes
     * @return what was warmed for this run: just now, or earlier in this JVM; null when no warm-up ran at all
     */
    public synchronized WarmUp before(String run, Duration length, LoadSpec spec, Supplier<? extends LabFixture> scratch,
                                      TimelineSettings timeline, Consumer<String> out) {
        if (done != null) {
            return done.earlier();
        }
        if (length.isZero() || length.isNegative()) {
            return null;
        }
        LoadSpec warm = spec.withDuration(length).withWarmup(Duration.ZERO);
        out.accept(String.format(Locale.ROOT, "[%s] JIT warm-up: %d req/s for %d ms on a scratch fixture, not measured …",
                run, warm.ratePerSecond(), length.toMillis()));
        RunResult result = FixtureRun.once(scratch, workload -> new OpenLoopRunner(NanoClock.SYSTEM, timeline).run(warm, workload));
        System.gc(); // the scratch fixture's garbage is not the measured run's to collect
        done = new WarmUp(length, warm.ratePerSecond(), result.offered(), run, true, result.timeline());
        return done;
    }
}
