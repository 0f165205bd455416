package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import archlab.book.TestDiscovery.Claim;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which tests a module has, as the claims tables list them: what JUnit discovers in the module's compiled tests,
 * each module in a class loader of its own.
 */
class TestDiscoveryTest {

    @TempDir
    Path root;

    private List<Claim> claims(String module) {
        return TestDiscovery.claims(CompiledModule.of(root, module));
    }

    @Test
    @DisplayName("a parameterized or repeated test is one row, a test inherited from a superclass is a row of the subclass before its own, and a test without @DisplayName shows the gap")
    void oneRowPerTestMethod() throws Exception {
        FixtureModules.compile(root, "fake", FixtureModules.CHECKPOINT);

        assertThat(claims("fake")).extracting(Claim::test).containsExactly("FastTest.second", "FastTest.first",
                "FastTest.withoutAName", "FastTest.pipe", "FastTest.repeated", "LoadRunTest.moneyAddsUp",
                "LoadRunTest.Outcomes.addUp", "SweepTest.everyRate", "SweepTest.knee", "SweepTest.rates");
        assertThat(claims("fake")).filteredOn(c -> c.test().equals("FastTest.withoutAName")).singleElement()
                .extracting(Claim::claim).isEqualTo(TestDiscovery.NO_DISPLAY_NAME);
    }

    @Test
    @DisplayName("the needs column takes @EnabledIfSystemProperty from the method and every class containing it, also through a meta-annotation or repeated, outermost first")
    void needsColumnNamesTheFlags() throws Exception {
        FixtureModules.compile(root, "fake", FixtureModules.CHECKPOINT);

        assertThat(claims("fake")).extracting(Claim::test, Claim::needs).contains(
                org.assertj.core.groups.Tuple.tuple("FastTest.second", ""),
                org.assertj.core.groups.Tuple.tuple("LoadRunTest.moneyAddsUp", "-Dbaseline"),
                org.assertj.core.groups.Tuple.tuple("LoadRunTest.Outcomes.addUp", "-Dbaseline"),
                org.assertj.core.groups.Tuple.tuple("SweepTest.everyRate", ""),
                org.assertj.core.groups.Tuple.tuple("SweepTest.knee", "-Dsweep"),
                org.assertj.core.groups.Tuple.tuple("SweepTest.rates", "-Dsweep -Dbench"));
    }

    @Test
    @DisplayName("two modules with a test class of the same name each list their own tests: every module is discovered in a class loader of its own")
    void sameClassNameInTwoModules() throws Exception {
        FixtureModules.compile(root, "a", Map.of("x/SameTest.java", sameTest("fromA", "a's claim")));
        FixtureModules.compile(root, "b", Map.of("x/SameTest.java", sameTest("fromB", "b's claim")));

        assertThat(claims("a")).containsExactly(new Claim("SameTest.fromA", "a's claim", ""));
        assertThat(claims("b")).containsExactly(new Claim("SameTest.fromB", "b's claim", ""));
        assertThat(claims("a")).as("asked again after b").containsExactly(new Claim("SameTest.fromA", "a's claim", ""));
    }

    @Test
    @DisplayName("a module's own class is read from the module even when the book's class path has a class of that name")
    void ownClassesComeFromTheModule() throws Exception {
        FixtureModules.compile(root, "shadow", Map.of("archlab/book/BookInSyncTest.java",
                sameTest("fromTheModule", "the module's own").replace("package x;", "package archlab.book;")
                        .replace("class SameTest", "class BookInSyncTest")));

        assertThat(claims("shadow")).containsExactly(new Claim("BookInSyncTest.fromTheModule", "the module's own", ""));
    }

    @Test
    @DisplayName("a test class that cannot be loaded is an error naming it, never a table silently missing its tests")
    void unloadableClassIsAnError() throws Exception {
        Path module = FixtureModules.compile(root, "broken", Map.of(
                "x/Base.java", "package x;\nabstract class Base {\n}\n",
                "x/BrokenTest.java", sameTest("broken", "loads").replace("class SameTest", "class BrokenTest extends Base")));
        Files.delete(module.resolve("target/test-classes/x/Base.class"));

        assertThatThrownBy(() -> claims("broken")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot load x.BrokenTest").hasMessageContaining("x/Base");
    }

    @Test
    @DisplayName("a test JUnit reports it will not run (an inner class without @Nested) is an error, never a silently missing row")
    void discoveryIssueIsAnError() throws Exception {
        FixtureModules.compile(root, "inner", Map.of("x/OuterTest.java", """
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

        assertThatThrownBy(() -> claims("inner")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JUnit cannot read every test of inner").hasMessageContaining("ForgotNested");
    }

    @Test
    @DisplayName("the book's own compiled tests are discovered with their display names and flags, in declaration order")
    void theBooksOwnTests() {
        Path project = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().getParent();
        CompiledModule book = CompiledModule.of(project, "book");
        assumeThat(book.notCompiled()).as("the book's tests are compiled and their class path written").isEmpty();

        List<Claim> claims = TestDiscovery.claims(book);

        assertThat(claims).contains(new Claim("BookRefreshTask.syncText",
                "syncing the chapters with the current sources and saved results leaves every marker in sync", "-Dbook"));
        assertThat(claims).extracting(Claim::test).containsSubsequence("TestDiscoveryTest.oneRowPerTestMethod",
                "TestDiscoveryTest.needsColumnNamesTheFlags", "TestDiscoveryTest.sameClassNameInTwoModules",
                "TestDiscoveryTest.theBooksOwnTests");
    }

    private static String sameTest(String method, String claim) {
        return """
                package x;

                import org.junit.jupiter.api.DisplayName;
                import org.junit.jupiter.api.Test;

                class SameTest {
                    @Test
                    @DisplayName("%s")
                    void %s() {
                    }
                }
                """.formatted(claim, method);
    }
}
