package archlab.run;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Stops a test JVM that would measure with C1's code only. The fast tests' JVMs stop at C1 (the root POM's
 * {@code archlab.test.jit}, {@code -XX:TieredStopAtLevel=1}): they live seconds, and C2's compiles would cost them
 * more CPU than they win back. A run that measures — a load run, a benchmark, a grade of timed claims — must run the
 * code as a service runs it, C2 included, so each of {@link #MEASURED_RUN_FLAGS} activates a root-POM profile that
 * clears {@code archlab.test.jit}. This check is the net under that list: when a measured-run flag is set in a JVM
 * that stops below C2 (a flag whose profile is missing), the JVM stops before its first test, naming the flag, instead
 * of measuring slower code in silence.
 *
 * <p>Registered, like {@link LabPropertiesCheck}, through
 * {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener} in lab-runs' resources: every test JVM
 * with lab-runs on its class path (the checkpoints', lab-grader's, the book's, lab-runs' own) checks. Stateless.
 */
public final class MeasuredRunJitCheck implements LauncherSessionListener {

    /** The run flags ({@code -D<flag>}) that make a test JVM measure; each has a full-JIT profile in the root POM. */
    public static final List<String> MEASURED_RUN_FLAGS = List.of(
            "baseline", "bench", "chaos", "claims", "crash", "generator", "grade", "grade.wrong", "instances", "jmh", "ladder", "scenarios", "serve", "slow", "sweep", "wrk");

    /** Run flags that enable tests measuring nothing (they render and check saved results): C1 serves them. */
    public static final List<String> UNMEASURED_RUN_FLAGS = List.of("book", "book.html");

    /** HotSpot's tier of C2, the optimising compiler ({@code -XX:TieredStopAtLevel} below it: no C2). */
    static final int C2_TIER = 4;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        Properties properties = System.getProperties();
        if (MEASURED_RUN_FLAGS.stream().noneMatch(flag -> properties.getProperty(flag) != null)) {
            return; // the fast tests: nothing measures, so the JVM's options are not even read
        }
        Optional<String> refusal = refusal(properties, highestCompilerTier());
        if (refusal.isPresent()) {
            System.err.println("[lab] " + refusal.get());
            throw new IllegalStateException(refusal.get());
        }
    }

    /**
     * @param properties  the JVM's system properties (the run flags among them)
     * @param highestTier the highest tier the JVM compiles to ({@value #C2_TIER}: C2)
     * @return why this JVM must not run, or empty if it may: a measured-run flag is set and the JVM has no C2
     */
    static Optional<String> refusal(Properties properties, int highestTier) {
        if (highestTier >= C2_TIER) {
            return Optional.empty();
        }
        return MEASURED_RUN_FLAGS.stream().filter(flag -> properties.getProperty(flag) != null).findFirst()
                .map(flag -> "-D" + flag + " measures, but this test JVM compiles with C1 only (-XX:TieredStopAtLevel="
                        + highestTier + ", the fast tests' archlab.test.jit): the root POM needs a profile activated by "
                        + flag + " that clears archlab.test.jit, like the other full-jit-* profiles");
    }

    /**
     * @return the highest tier this JVM compiles to: {@code -XX:TieredStopAtLevel} under tiered compilation, else
     *         {@value #C2_TIER} (C2 alone); {@value #C2_TIER} too on a JVM that does not report HotSpot's options
     */
    static int highestCompilerTier() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (!Boolean.parseBoolean(hotSpot.getVMOption("TieredCompilation").getValue())) {
                return C2_TIER;
            }
            return Integer.parseInt(hotSpot.getVMOption("TieredStopAtLevel").getValue());
        } catch (IllegalArgumentException e) { // not HotSpot: it names no such option (or has no such bean)
            return C2_TIER;
        }
    }
}
