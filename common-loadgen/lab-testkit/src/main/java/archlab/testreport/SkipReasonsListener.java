package archlab.testreport;

import java.io.PrintStream;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Says on the console why a check did not run. The trap: a test that needs a server or a browser skips by an
 * assumption ("PostgreSQL not running: bash .servers/postgres.sh start"), and Maven's console shows only
 * {@code Skipped: 1} — the reason sits in the Surefire XML, where no reader looks. This listener prints one line per
 * test or class aborted by an assumption: {@code [skipped] <name>: <reason>}. Tests disabled by a run flag
 * ({@code -Dbaseline} and the like) are not printed: there are dozens in every fast run, and their flag is the answer.
 *
 * <p>Registered through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener} in lab-testkit, so
 * every module whose tests see lab-testkit prints its skip reasons. Thread-safety: stateless apart from the stream,
 * which {@link PrintStream} synchronizes.
 */
public final class SkipReasonsListener implements TestExecutionListener {

    private final PrintStream out;

    /** The listener the service loader makes: prints to {@code System.out}, which Surefire shows on the console. */
    public SkipReasonsListener() {
        this(System.out);
    }

    SkipReasonsListener(PrintStream out) {
        this.out = out;
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() != TestExecutionResult.Status.ABORTED) {
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
