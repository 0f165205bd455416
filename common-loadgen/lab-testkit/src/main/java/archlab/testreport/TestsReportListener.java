package archlab.testreport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes the module's {@code tests.json} ({@link TestsReport}) from its own test run: the list of its tests that
 * the book's claims tables are made of, read by the book from {@code <module>/target/reports/tests.json} without
 * loading a class. The whole module is listed even when surefire runs a filtered set ({@code -Dtest=…}): when the
 * run's plan starts, the listener discovers {@code <archlab.module.dir>/target/test-classes} whole
 * ({@link ModuleTests}) and writes the file, then rewrites it with the outcomes when the plan finishes.
 *
 * <p>Registered through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener} in
 * common-loadgen's test resources, which ship in its test-jar, so every module whose tests use that jar (every
 * checkpoint, the book) writes one, as common-loadgen's own run does. Where the file goes: system property
 * {@code archlab.reports.dir} (the root POM's surefire configuration sets it), else {@code target/reports}. A
 * JVM without a {@code target/test-classes} under {@code archlab.module.dir} (default: the working directory)
 * writes nothing.
 *
 * <p>The listener the service loader makes follows the first plan that starts in the JVM and ignores a plan that
 * starts while it runs: a launcher a test starts itself is not the module's run. Plans run one after another (a
 * rerun) add their outcomes to one report.
 *
 * <p>Thread-safety: safe; JUnit may report results from several threads.
 */
public final class TestsReportListener implements TestExecutionListener {

    /** The JVM's report and the plan it follows now: {@code null} when none runs. */
    private static final AtomicReference<TestPlan> RUNNING = new AtomicReference<>();
    private static TestsReport jvmReport; // guarded by TestsReportListener.class

    private final TestsReport explicit;
    private volatile TestsReport active;
    private volatile TestPlan plan;

    /** The listener the service loader makes: the module of {@code archlab.module.dir}, the JVM's one report. */
    public TestsReportListener() {
        this.explicit = null;
    }

    /**
     * A listener that writes {@code report} for every plan it is given, nested or not (for tests of the listener).
     *
     * @param module      the module's name
     * @param testClasses its {@code target/test-classes}, a classpath root of the context class loader
     * @param file        the report's path
     */
    TestsReportListener(String module, Path testClasses, Path file) {
        this.explicit = new TestsReport(module, testClasses, file);
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        TestsReport report = explicit;
        if (report == null) {
            report = jvmReport();
            if (report == null || !RUNNING.compareAndSet(null, testPlan)) {
                return; // no module here, or a launcher started inside the module's run
            }
        }
        plan = testPlan;
        active = report;
        report.started();
    }

    @Override
    public void executionSkipped(TestIdentifier testIdentifier, String reason) {
        TestsReport report = active;
        if (report != null) {
            report.skipped(testIdentifier.getUniqueId());
        }
    }

    @Override
    public void executionFinished(TestIdentifier testIdentifier, TestExecutionResult testExecutionResult) {
        TestsReport report = active;
        if (report != null) {
            report.finished(testIdentifier.getUniqueId(), testExecutionResult.getStatus());
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        TestsReport report = active;
        if (report == null || testPlan != plan) {
            return;
        }
        active = null;
        try {
            report.planFinished();
        } finally {
            if (explicit == null) {
                RUNNING.compareAndSet(testPlan, null);
            }
        }
    }

    /** @return the report of this JVM's module, made on first use; {@code null} if this JVM has no module's tests */
    private static synchronized TestsReport jvmReport() {
        if (jvmReport == null) {
            Path moduleDir = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();
            Path testClasses = moduleDir.resolve("target/test-classes");
            if (!Files.isDirectory(testClasses)) {
                return null;
            }
            Path reports = Path.of(System.getProperty("archlab.reports.dir", "target/reports"));
            jvmReport = new TestsReport(String.valueOf(moduleDir.getFileName()), testClasses, reports.resolve("tests.json"));
        }
        return jvmReport;
    }
}
