package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The book's markers: code regions, report lines, values and claims tables come from their sources, and drift is caught. */
class BookSyncTest {

    @TempDir
    Path root;

    @BeforeEach
    void sources() throws Exception {
        Files.createDirectories(root.resolve("m/src"));
        Files.writeString(root.resolve("m/src/A.java"), """
                class A {
                    // tag::hot[]
                    void hot() {
                        lock.lock();
                    }
                    // end::hot[]
                }
                """);
        Files.createDirectories(root.resolve("book/results/m"));
        Files.writeString(root.resolve("book/results/m/run.txt"), "offered=4500 started=4500\nrps_completed=12.00 p50=1ms\nother=1\n");
        Files.writeString(root.resolve("book/results/m/run.json"), "{\"run\":{\"completed\":3254,\"rate\":1017.4219},\"rows\":[{\"p\":7}]}");
    }

    private static final String CHAPTER = """
            # 12.x
            <!-- code: m/src/A.java#hot -->
            ```java
            stale
            ```
            <!-- /code -->
            <!-- report: m/run.txt#^(offered|rps_completed)= -->
            ```text
            ```
            <!-- /report -->
            完成 <!--v:m/run.json:run.completed-->0<!--/v--> 个，<!--v:m/run.json:run.rate|%.1f-->0<!--/v--> 请求/秒，<!--v:m/run.json:rows.0.p-->?<!--/v-->。
            """;

    @Test
    @DisplayName("refresh fills code regions (dedented, tag lines left out), matching report lines and formatted values")
    void refreshFillsMarkers() throws Exception {
        Files.writeString(root.resolve("book/12-x.md"), CHAPTER);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).hasSize(5);

        assertThat(sync.refresh()).hasSize(1);

        String text = Files.readString(root.resolve("book/12-x.md"));
        assertThat(text).contains("```java\nvoid hot() {\n    lock.lock();\n}\n```");
        assertThat(text).contains("```text\noffered=4500 started=4500\nrps_completed=12.00 p50=1ms\n```");
        assertThat(text).contains("完成 <!--v:m/run.json:run.completed-->3254<!--/v--> 个")
                .contains("-->1017.4<!--/v--> 请求/秒").contains("-->7<!--/v-->。");
        assertThat(sync.check()).isEmpty();
        assertThat(sync.refresh()).as("a second refresh changes nothing").isEmpty();
    }

    @Test
    @DisplayName("a changed source makes check report the chapter out of date")
    void driftIsCaught() throws Exception {
        Files.writeString(root.resolve("book/12-x.md"), CHAPTER);
        BookSync sync = new BookSync(root);
        sync.refresh();
        Files.writeString(root.resolve("book/results/m/run.json"), "{\"run\":{\"completed\":1,\"rate\":1017.4219},\"rows\":[{\"p\":7}]}");

        assertThat(sync.check()).singleElement().asString().contains("run.completed").contains("out of date");
    }

    @Test
    @DisplayName("a marker naming a missing region, line or value is reported, never silently left")
    void missingSourcesAreReported() throws Exception {
        Files.writeString(root.resolve("book/12-y.md"), """
                <!-- code: m/src/A.java#nope -->
                ```java
                ```
                <!-- /code -->
                <!--v:m/run.json:run.missing-->1<!--/v-->
                """);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).hasSize(2).anyMatch(p -> p.contains("no region tag::nope[]"))
                .anyMatch(p -> p.contains("has no run.missing"));
        assertThatThrownBy(sync::refresh).isInstanceOf(IllegalArgumentException.class);
    }

    /** A fake module's test sources: a fast class, a load-run class with a nested class, a helper and quoted tests that are none. */
    private void fakeModule() throws Exception {
        Path tests = Files.createDirectories(root.resolve("fake/src/test/java/x"));
        Files.writeString(tests.resolve("FastTest.java"), """
                package x;

                import org.junit.jupiter.api.DisplayName;
                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.params.ParameterizedTest;
                import org.junit.jupiter.params.provider.ValueSource;

                /** Javadoc naming @Test void notATest() is no test. */
                class FastTest {

                    @Test
                    @DisplayName("create totals the items")
                    void second() {
                        String quoted = \"""
                                @Test
                                @DisplayName("a test quoted in a text block")
                                void quotedInATextBlock() { }
                                \""";
                        // @Test void commentedOut() { }
                    }

                    @DisplayName("get is " + "not a copy")
                    @ParameterizedTest(name = "{0} (x)")
                    @ValueSource(ints = {1, 2})
                    void first(int n) {
                    }

                    @Test
                    void withoutAName() {
                    }

                    @Test
                    @DisplayName("lab.profile true|false turns JFR on or off")
                    void pipe() {
                    }
                }
                """);
        Files.writeString(tests.resolve("LoadRunTest.java"), """
                package x;

                import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

                @EnabledIfSystemProperty(named = "baseline", matches = ".*", disabledReason = "a 3 s load run")
                class LoadRunTest {

                    @Nested
                    @DisplayName("one run, read twice")
                    class Outcomes {
                        @Test
                        @DisplayName("outcomes add up")
                        void addUp() {
                        }
                    }

                    @Test
                    @DisplayName("money adds up")
                    void moneyAddsUp() {
                    }
                }
                """);
        Files.writeString(tests.resolve("Helper.java"), "package x;\n\nfinal class Helper {\n    static int help() { return 1; }\n}\n");
    }

    private static final String CLAIMS_CHAPTER = """
            # guide
            <!-- claims: fake -->
            stale
            <!-- /claims -->
            """;

    @Test
    @DisplayName("refresh fills a claims table: one row per @Test / @ParameterizedTest, by class then source order, nested classes included, quoted or commented tests left out")
    void refreshFillsTheClaimsTable() throws Exception {
        fakeModule();
        Files.writeString(root.resolve("book/guide.md"), CLAIMS_CHAPTER);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).singleElement().asString().contains("claims: fake").contains("out of date");

        assertThat(sync.refresh()).containsExactly(root.resolve("book/guide.md"));

        assertThat(Files.readString(root.resolve("book/guide.md"))).isEqualTo("""
                # guide
                <!-- claims: fake -->
                | test | claim (its @DisplayName) | needs |
                |---|---|---|
                | `FastTest.second` | create totals the items |  |
                | `FastTest.first` | get is not a copy |  |
                | `FastTest.withoutAName` | (no @DisplayName) |  |
                | `FastTest.pipe` | lab.profile true\\|false turns JFR on or off |  |
                | `LoadRunTest.moneyAddsUp` | money adds up | `-Dbaseline` |
                | `LoadRunTest.Outcomes.addUp` | outcomes add up | `-Dbaseline` |
                <!-- /claims -->
                """);
        assertThat(sync.check()).isEmpty();
        assertThat(sync.refresh()).as("a second refresh changes nothing").isEmpty();
    }

    @Test
    @DisplayName("a test added, renamed or re-described after the refresh makes check report the claims table out of date")
    void staleClaimsTableIsCaught() throws Exception {
        fakeModule();
        Files.writeString(root.resolve("book/guide.md"), CLAIMS_CHAPTER);
        BookSync sync = new BookSync(root);
        sync.refresh();
        Path fast = root.resolve("fake/src/test/java/x/FastTest.java");
        Files.writeString(fast, Files.readString(fast).replace("create totals the items", "create totals the items in cents"));

        assertThat(sync.check()).singleElement().asString().contains("<!-- claims: fake -->").contains("out of date");
    }

    @Test
    @DisplayName("a pipe in a display name is escaped, so it does not split the table's cell")
    void pipeInAClaimIsEscaped() throws Exception {
        fakeModule();
        String table = new BookSync(root).claimsTable("fake");

        assertThat(table).contains("| lab.profile true\\|false turns JFR on or off |");
        assertThat(table.lines().skip(2)).allSatisfy(row -> assertThat(row.replace("\\|", "").chars().filter(c -> c == '|'))
                .as(row).hasSize(4));
    }

    @Test
    @DisplayName("the needs column names the -D flag of a class's (or an enclosing class's) @EnabledIfSystemProperty, and is empty for a fast test")
    void needsColumnNamesTheFlag() throws Exception {
        fakeModule();
        assertThat(new BookSync(root).claims("fake"))
                .extracting(BookSync.Claim::test, BookSync.Claim::needs)
                .contains(org.assertj.core.groups.Tuple.tuple("FastTest.second", ""),
                        org.assertj.core.groups.Tuple.tuple("LoadRunTest.moneyAddsUp", "-Dbaseline"),
                        org.assertj.core.groups.Tuple.tuple("LoadRunTest.Outcomes.addUp", "-Dbaseline"));
    }

    @Test
    @DisplayName("a test source with a 240,000-character text block, string and comment is read without overflowing the stack")
    void longLiteralsAndCommentsAreRead() throws Exception {
        Path tests = Files.createDirectories(root.resolve("big/src/test/java/x"));
        String filler = "ab\\\"c ".repeat(40_000);
        Files.writeString(tests.resolve("BigTest.java"), "package x;\n/* " + filler.replace("\\", "") + " */\nclass BigTest {\n"
                + "    String block = \"\"\"\n" + filler + "\n\"\"\";\n"
                + "    String line = \"" + filler + "\";\n"
                + "    @Test\n    @DisplayName(\"reads big sources\")\n    void big() {\n    }\n}\n");

        assertThat(new BookSync(root).claims("big")).singleElement()
                .isEqualTo(new BookSync.Claim("BigTest.big", "reads big sources", ""));
    }

    @Test
    @DisplayName("a claims marker naming a missing module, or a module without tests, is a problem line in check, never an empty table")
    void missingModuleIsReported() throws Exception {
        Files.createDirectories(root.resolve("notests/src/test/java"));
        Files.writeString(root.resolve("book/guide.md"), """
                <!-- claims: no-such-module -->
                <!-- /claims -->
                <!-- claims: notests -->
                <!-- /claims -->
                """);
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).hasSize(2)
                .anyMatch(p -> p.contains("claims: no-such-module") && p.contains("no module directory no-such-module"))
                .anyMatch(p -> p.contains("claims: notests") && p.contains("no @Test or @ParameterizedTest method under notests"));
        assertThatThrownBy(sync::refresh).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-module");
        assertThat(Files.readString(root.resolve("book/guide.md"))).as("left as it was").doesNotContain("| test |");
    }
}
