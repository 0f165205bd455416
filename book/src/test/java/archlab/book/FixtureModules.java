package archlab.book;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * Tiny modules for the book's tests, laid out as Maven leaves a module after {@code mvn test}: a test source under
 * {@code src/test/java}, and the report its test run wrote, {@code target/reports/tests.json} ({@link TestsReports}),
 * newer than the source. What the report says about a module's tests is the listener's subject, tested in
 * common-loadgen ({@code archlab.testreport.TestsReportListenerTest}); here it is given.
 *
 * <p>Thread-safety: stateless.
 */
final class FixtureModules {

    /**
     * The report of a module whose tests come in every shape the claims table must get right, rows in no particular
     * order: a fast class (a parameterized and a repeated test, one without a display name, a pipe in a display
     * name), a load-run class with a {@code @Nested} class, a test class inheriting a test (depth 1, before its own
     * of depth 2), flags of one and of two properties.
     */
    static final String CHECKPOINT = """
            {
              "module" : "fake",
              "state" : "finished",
              "problems" : [ ],
              "tests" : [
                { "class" : "SweepTest", "method" : "rates", "displayName" : "prints the rates", "needs" : [ "-Dsweep", "-Dbench" ], "depth" : 2, "order" : 3, "outcome" : "skipped" },
                { "class" : "FastTest", "method" : "pipe", "displayName" : "lab.profile true|false turns JFR on or off", "needs" : [ ], "depth" : 1, "order" : 6, "outcome" : "successful" },
                { "class" : "LoadRunTest.Outcomes", "method" : "addUp", "displayName" : "outcomes add up", "needs" : [ "-Dbaseline" ], "depth" : 1, "order" : 1, "outcome" : "skipped" },
                { "class" : "FastTest", "method" : "second", "displayName" : "create totals the items", "needs" : [ ], "depth" : 1, "order" : 1, "outcome" : "successful" },
                { "class" : "SweepTest", "method" : "everyRate", "displayName" : "every rate offers the whole load", "needs" : [ ], "depth" : 1, "order" : 5, "outcome" : "successful" },
                { "class" : "FastTest", "method" : "repeated", "displayName" : "a repeated test is one row, however often it repeats", "needs" : [ ], "depth" : 1, "order" : 8, "outcome" : "successful" },
                { "class" : "LoadRunTest", "method" : "moneyAddsUp", "displayName" : "money adds up", "needs" : [ "-Dbaseline" ], "depth" : 1, "order" : 2, "outcome" : "skipped" },
                { "class" : "FastTest", "method" : "withoutAName", "displayName" : "(no @DisplayName)", "needs" : [ ], "depth" : 1, "order" : 4, "outcome" : "failed" },
                { "class" : "SweepTest", "method" : "knee", "displayName" : "the knee is found", "needs" : [ "-Dsweep" ], "depth" : 2, "order" : 2, "outcome" : "skipped" },
                { "class" : "FastTest", "method" : "first", "displayName" : "get is not a copy", "needs" : [ ], "depth" : 1, "order" : 2, "outcome" : "not run" }
              ]
            }
            """;

    /** The claims table of {@link #CHECKPOINT}, after its header. */
    static final String CHECKPOINT_ROWS = """
            | `FastTest.second` | create totals the items |  |
            | `FastTest.first` | get is not a copy |  |
            | `FastTest.withoutAName` | (no @DisplayName) |  |
            | `FastTest.pipe` | lab.profile true\\|false turns JFR on or off |  |
            | `FastTest.repeated` | a repeated test is one row, however often it repeats |  |
            | `LoadRunTest.moneyAddsUp` | money adds up | `-Dbaseline` |
            | `LoadRunTest.Outcomes.addUp` | outcomes add up | `-Dbaseline` |
            | `SweepTest.everyRate` | every rate offers the whole load |  |
            | `SweepTest.knee` | the knee is found | `-Dsweep` |
            | `SweepTest.rates` | prints the rates | `-Dsweep -Dbench` |
            """;

    private FixtureModules() {
    }

    /**
     * Writes a module {@code root/module} with one test source (a minute old) and {@code testsJson} as its
     * {@link TestsReports#FILE}.
     *
     * @return the module's folder
     */
    static Path write(Path root, String module, String testsJson) throws IOException {
        Path dir = root.resolve(module);
        Path source = dir.resolve("src/test/java/x/FastTest.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package x;\nclass FastTest {\n}\n");
        Files.setLastModifiedTime(source, FileTime.from(Instant.now().minusSeconds(60)));
        Path report = dir.resolve(TestsReports.FILE);
        Files.createDirectories(report.getParent());
        Files.writeString(report, testsJson);
        return dir;
    }
}
