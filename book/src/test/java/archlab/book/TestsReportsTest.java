package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import archlab.book.TestsReports.Claim;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which tests a module has, as the claims tables list them: what the module's own test run wrote to its
 * {@code target/reports/tests.json}, read without loading a class.
 */
class TestsReportsTest {

    @TempDir
    Path root;

    @Test
    @DisplayName("a module's claims are its tests.json rows, sorted by class, superclass methods first, then declaration order, the needs flags space-separated")
    void claimsAreTheReportsRows() throws Exception {
        FixtureModules.write(root, "fake", FixtureModules.CHECKPOINT);

        List<Claim> claims = TestsReports.claims(root, "fake");

        assertThat(claims).extracting(Claim::test).containsExactly("FastTest.second", "FastTest.first",
                "FastTest.withoutAName", "FastTest.pipe", "FastTest.repeated", "LoadRunTest.moneyAddsUp",
                "LoadRunTest.Outcomes.addUp", "SweepTest.everyRate", "SweepTest.knee", "SweepTest.rates");
        assertThat(claims).contains(new Claim("SweepTest.rates", "prints the rates", "-Dsweep -Dbench"),
                new Claim("FastTest.withoutAName", "(no @DisplayName)", ""));
    }

    @Test
    @DisplayName("a tests.json saying JUnit could not read every test is an error naming the module, the file and the problem, never a table silently missing a test")
    void problemsOfTheRunAreAnError() throws Exception {
        FixtureModules.write(root, "broken", FixtureModules.CHECKPOINT
                .replace("\"problems\" : [ ]", "\"problems\" : [ \"cannot load x.BrokenTest (java.lang.NoClassDefFoundError: x/Base)\" ]"));

        assertThatThrownBy(() -> TestsReports.claims(root, "broken")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JUnit cannot read every test of broken")
                .hasMessageContaining(root.resolve("broken/target/reports/tests.json").toString())
                .hasMessageContaining("cannot load x.BrokenTest");
    }

    @Test
    @DisplayName("a tests.json that cannot be parsed, or a row without its class, is an error naming the file")
    void unparsableReportIsAnError() throws Exception {
        FixtureModules.write(root, "garbled", "{ \"tests\" : [ { \"class\" : ");
        FixtureModules.write(root, "partial", "{ \"tests\" : [ { \"method\" : \"m\", \"displayName\" : \"d\" } ] }");

        assertThatThrownBy(() -> TestsReports.claims(root, "garbled")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot parse " + root.resolve("garbled/target/reports/tests.json"));
        assertThatThrownBy(() -> TestsReports.claims(root, "partial")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot parse " + root.resolve("partial/target/reports/tests.json"))
                .hasMessageContaining("\"class\"");
    }

    @Test
    @DisplayName("the book's own test run wrote its tests.json before its tests ran: its tests are listed with their display names and flags, in declaration order")
    void theBooksOwnTests() {
        Path project = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        assumeThat(TestsReports.notWritten(project, "book")).as("the book's test run wrote its tests.json").isEmpty();

        List<Claim> claims = TestsReports.claims(project, "book");

        assertThat(claims).contains(new Claim("BookRefreshTask.syncText",
                "syncing the chapters with the current sources and saved results leaves every marker in sync", "-Dbook"));
        assertThat(claims).extracting(Claim::test).containsSubsequence("TestsReportsTest.claimsAreTheReportsRows",
                "TestsReportsTest.problemsOfTheRunAreAnError", "TestsReportsTest.unparsableReportIsAnError",
                "TestsReportsTest.theBooksOwnTests");
    }
}
