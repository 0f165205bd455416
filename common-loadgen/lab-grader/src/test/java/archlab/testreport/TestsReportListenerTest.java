package archlab.testreport;

import archlab.loadgen.testing.MultiSecondCheck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * What a module's test run writes to {@code tests.json}: every test method JUnit discovers in the module (whatever
 * the run selected), with its display name, flags, order and outcome. Fixture modules are compiled and run here on
 * a launcher of their own ({@link FixtureModules}); the last tests read the file common-loadgen's own run writes.
 */
@MultiSecondCheck
class TestsReportListenerTest {

    private static final Path MODULE_REPORT = Path.of(System.getProperty("archlab.reports.dir", "target/reports"), "tests.json");

    @TempDir
    Path root;

    private static List<String> tests(JsonNode report) {
        List<String> tests = new ArrayList<>();
        report.path("tests").forEach(t -> tests.add(t.path("class").asText() + "." + t.path("method").asText()));
        return tests;
    }

    private static JsonNode row(JsonNode report, String test) {
        return StreamSupport.stream(report.path("tests").spliterator(), false)
                .filter(t -> (t.path("class").asText() + "." + t.path("method").asText()).equals(test))
                .findFirst().orElseThrow(() -> new AssertionError("no row " + test + " in " + report));
    }

    @Test
    @DisplayName("every test method of the module is one row, even when the run selects one class: a parameterized or repeated test once, an inherited test under the subclass before its own, a @Nested one as Outer.Nested")
    void everyTestOfTheModuleIsARow() throws Exception {
        Path module = FixtureModules.compile(root, "fake", FixtureModules.CHECKPOINT);

        JsonNode report = FixtureModules.run(module, "x.FastTest");

        assertThat(report.path("module").asText()).isEqualTo("fake");
        assertThat(report.path("problems")).isEmpty();
        assertThat(tests(report)).containsExactly("FastTest.second", "FastTest.first", "FastTest.withoutAName",
                "FastTest.pipe", "FastTest.repeated", "LoadRunTest.moneyAddsUp", "LoadRunTest.Outcomes.addUp",
                "SweepTest.everyRate", "SweepTest.knee", "SweepTest.rates");
        assertThat(row(report, "SweepTest.everyRate").path("depth").asInt())
                .isLessThan(row(report, "SweepTest.knee").path("depth").asInt());
    }

    @Test
    @DisplayName("a row's display name is JUnit's (line breaks as spaces), or the no-@DisplayName marker, and its needs are the @EnabledIfSystemProperty flags of the method and every class containing it, also through a meta-annotation or repeated, outermost first")
    void displayNamesAndNeeds() throws Exception {
        JsonNode report = FixtureModules.run(FixtureModules.compile(root, "fake", FixtureModules.CHECKPOINT), "x.FastTest");

        assertThat(List.of("FastTest.second", "FastTest.withoutAName", "FastTest.pipe", "FastTest.repeated"))
                .extracting(t -> row(report, t).path("displayName").asText())
                .containsExactly("create totals the items", ModuleTests.NO_DISPLAY_NAME,
                        "lab.profile true|false turns JFR on or off", "a repeated test is one row, however often it repeats");
        assertThat(List.of("FastTest.second", "LoadRunTest.moneyAddsUp", "LoadRunTest.Outcomes.addUp",
                "SweepTest.everyRate", "SweepTest.knee", "SweepTest.rates"))
                .extracting(t -> row(report, t).path("needs").toString())
                .containsExactly("[]", "[\"-Dbaseline\"]", "[\"-Dbaseline\"]", "[]", "[\"-Dsweep\"]", "[\"-Dsweep\",\"-Dbench\"]");
    }

    @Test
    @DisplayName("each row says how its test ended: successful, failed (a parameterized test with one failing case too), aborted, skipped (a disabled class's tests too), or not run when the run did not select it")
    void outcomes() throws Exception {
        Map<String, String> sources = new java.util.HashMap<>(FixtureModules.CHECKPOINT);
        sources.putAll(FixtureModules.OUTCOMES);
        Path module = FixtureModules.compile(root, "fake", sources);

        JsonNode report = FixtureModules.run(module, "x.OutcomesTest", "x.OffTest");

        assertThat(report.path("state").asText()).isEqualTo("finished");
        assertThat(List.of("OutcomesTest.passes", "OutcomesTest.fails", "OutcomesTest.aborts", "OutcomesTest.disabled",
                "OutcomesTest.oneCaseFails", "OffTest.off", "OffTest.Inner.inner", "FastTest.second"))
                .extracting(t -> tuple(t, row(report, t).path("outcome").asText()))
                .containsExactly(tuple("OutcomesTest.passes", "successful"), tuple("OutcomesTest.fails", "failed"),
                        tuple("OutcomesTest.aborts", "aborted"), tuple("OutcomesTest.disabled", "skipped"),
                        tuple("OutcomesTest.oneCaseFails", "failed"), tuple("OffTest.off", "skipped"),
                        tuple("OffTest.Inner.inner", "skipped"), tuple("FastTest.second", "not run"));
    }

    @Test
    @DisplayName("a test class that cannot be loaded is a problem of the report naming it, never a list silently missing its tests")
    void unloadableClassIsAProblem() throws Exception {
        Path module = FixtureModules.compile(root, "broken", Map.of(
                "x/Base.java", "package x;\nabstract class Base {\n}\n",
                "x/BrokenTest.java", "package x;\nclass BrokenTest extends Base {\n    @org.junit.jupiter.api.Test\n    void broken() {\n    }\n}\n",
                "x/FineTest.java", "package x;\nclass FineTest {\n    @org.junit.jupiter.api.Test\n    void fine() {\n    }\n}\n"));
        Files.delete(module.resolve("target/test-classes/x/Base.class"));

        JsonNode report = FixtureModules.run(module, "x.FineTest");

        assertThat(report.path("problems").toString()).contains("cannot load x.BrokenTest").contains("x/Base");
    }

    @Test
    @DisplayName("a test JUnit reports it will not run (an inner class without @Nested) is a problem of the report, never a silently missing row")
    void discoveryIssueIsAProblem() throws Exception {
        Path module = FixtureModules.compile(root, "inner", Map.of("x/OuterTest.java", """
                package x;

                import org.junit.jupiter.api.Test;

                class OuterTest {
                    @Test
                    void outer() {
                    }

                    class ForgotNested {
                        @Test
                        void lost() {
                        }
                    }
                }
                """));

        assertThat(FixtureModules.run(module, "x.OuterTest").path("problems").toString()).contains("ForgotNested");
    }

    @Test
    @DisplayName("the listener is registered as a JUnit Platform service, so every module whose tests see lab-testkit writes its tests.json")
    void registeredAsAService() {
        assertThat(ServiceLoader.load(TestExecutionListener.class)).extracting(l -> l.getClass().getName())
                .contains(TestsReportListener.class.getName());
    }

    @Test
    @DisplayName("lab-grader's own run wrote its tests.json when it started: this class's tests are listed, with their display names, before they finish")
    void thisRunWroteItsReport() throws Exception {
        assumeThat(System.getProperty("archlab.module.dir")).as("run by Maven (archlab.module.dir set)").isNotNull();
        JsonNode report = new ObjectMapper().readTree(MODULE_REPORT.toFile());

        assertThat(report.path("module").asText()).isEqualTo("lab-grader");
        assertThat(report.path("problems")).isEmpty();
        assertThat(tests(report)).containsSubsequence("TestsReportListenerTest.everyTestOfTheModuleIsARow",
                "TestsReportListenerTest.displayNamesAndNeeds", "TestsReportListenerTest.thisRunWroteItsReport");
        assertThat(row(report, "TestsReportListenerTest.thisRunWroteItsReport").path("displayName").asText())
                .startsWith("lab-grader's own run wrote its tests.json");
    }

    @Test
    @DisplayName("a launcher a test starts inside the module's run does not overwrite the module's tests.json")
    void aNestedLauncherLeavesTheModulesReport() throws Exception {
        assumeThat(System.getProperty("archlab.module.dir")).as("run by Maven (archlab.module.dir set)").isNotNull();
        String before = Files.readString(MODULE_REPORT);

        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(FixtureTarget.class)).build());

        assertThat(Files.readString(MODULE_REPORT)).isEqualTo(before);
    }

    /** What the nested launcher runs: no {@code @Test} here, so it is no test of the module's own run. */
    static final class FixtureTarget {
        void target() {
        }
    }
}
