package archlab.testreport;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says on the console why a check did not run. The trap: a test that needs a server or a browser skips by an
 * assumption ("PostgreSQL not running: bash .servers/postgres.sh start"), and Maven's console shows only
 * {@code Skipped: 1} — the reason sits in the Surefire XML, where no reader looks. This listener prints one line per
 * test or class aborted by an assumption: {@code [skipped] <name>: <reason>}. Tests disabled by a run flag
 * ({@code -Dbaseline} and the like) are not printed: there are dozens in every fast run, and their flag is the answer.
 *
 * <p>Registered through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener} in lab-testkit, so
 * every module whose tests see lab-testkit prints its skip reasons. Like {@link TestsReportListener}, the listener the
 * service loader makes follows the first plan that starts in the JVM: a launcher a test starts itself (a fixture's
 * run) is not the module's run, and its skips are not printed.
 *
 * <p>Thread-safety: safe; JUnit may report results from several threads, and {@link PrintStream} synchronizes.
 */
public final class SkipReasonsListener implements TestExecutionListener {

    /** The plan the JVM's module run follows: {@code null} when none runs. */
    private static final AtomicReference<TestPlan> RUNNING = new AtomicReference<>();

    private final PrintStream out;
    private final boolean explicit;
    private volatile boolean active;

    /** The listener the service loader makes: prints the module run's skips to {@code System.out} (Surefire's console). */
    public SkipReasonsListener() {
        this.out = System.out;
        this.explicit = false;
    }

    /** A listener that prints every plan's skips to {@code out}, nested or not (for tests of the listener). */
    SkipReasonsListener(PrintStream out) {
        this.out = out;
        this.explicit = true;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        active = explicit || RUNNING.compareAndSet(null, plan);
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (active && !explicit) {
            RUNNING.compareAndSet(plan, null);
        }
        active = false;
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!active || result.getStatus() != TestExecutionResult.Status.ABORTED) {
            return;
        }
        String reason = result.getThrowable().map(Throwable::getMessage).filter(m -> m != null && !m.isBlank())
                .map(m -> m.replaceFirst("^Assumption failed: ", "").replaceAll("\\s+", " ").strip()).orElse("(the assumption gave no reason)");
        out.println("[skipped] " + name(test) + ": " + reason);
    }

    private static String name(TestIdentifier test) {
        String legacy = test.getLegacyReportingName();
        return test.getDisplayName().equals(legacy) ? legacy : legacy + " (" + test.getDisplayName() + ")";
    }
}
