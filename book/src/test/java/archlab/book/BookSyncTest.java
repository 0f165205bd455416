package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The book's markers: code regions, report lines, values and claims tables come from their sources, drift is
 * caught, and a claims table whose module's test run wrote no report is said to be unchecked, never passed or failed.
 * Reading a module's report is {@link TestsReportsTest}'s subject; here the claims fixture is
 * {@link FixtureModules#CHECKPOINT}.
 */
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

    private static final String TABLE = """
            | scenario | checkpoint | completed | timed_out | p99 ms |
            |---|---|---:|---:|---:|
            | normal | ch12-1 | 3475 | 1025 | 201 |
            | slow | ch12-1 | 2606 | 1894 | 384 |
            """;

    @Test
    @DisplayName("a table marker shows the chosen columns of a saved table as a real Markdown table, its header cells renamed where a column says so")
    void tableMarkerShowsARealTable() throws Exception {
        Files.writeString(root.resolve("book/results/t.md"), "# scenarios\n\n" + TABLE);
        Files.writeString(root.resolve("book/12-x.md"), """
                表：
                <!-- table: t.md#^\\|(---| scenario | normal ) columns: scenario=场景,timed_out=超时,completed -->
                stale
                <!-- /table -->
                """);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).hasSize(1);

        sync.refresh();

        assertThat(Files.readString(root.resolve("book/12-x.md"))).contains("""
                columns: scenario=场景,timed_out=超时,completed -->
                | 场景 | 超时 | completed |
                | --- | ---: | ---: |
                | normal | 1025 | 3475 |
                <!-- /table -->
                """);
        assertThat(sync.check()).isEmpty();
    }

    @Test
    @DisplayName("a table wider than a page (more than 8 columns), a table marker without its columns or its closing marker, and a report marker over table rows are each reported")
    void tablesThatDoNotFitAPageAreReported() throws Exception {
        Files.writeString(root.resolve("book/results/t.md"), TABLE);
        String nine = String.join(",", java.util.Collections.nCopies(9, "completed"));
        Files.writeString(root.resolve("book/12-x.md"), "<!-- table: t.md#^\\| columns: " + nine + " -->\n<!-- /table -->\n"
                + "<!-- table: t.md#^\\| -->\n<!-- /table -->\n"
                + "<!-- report: t.md#^\\| -->\n```text\n```\n<!-- /report -->\n"
                + "<!-- table: t.md#^\\| columns: completed -->\nno closing marker\n");
        assertThat(new BookSync(root).check()).hasSize(4)
                .anySatisfy(p -> assertThat(p).contains("shows 9 columns; a page holds 8 at most"))
                .anySatisfy(p -> assertThat(p).contains("a table marker names its columns"))
                .anySatisfy(p -> assertThat(p).contains("is a table row: a table shows as a table on the page"))
                .anySatisfy(p -> assertThat(p).contains("has no closing <!-- /table --> after it"));
    }

    @Test
    @DisplayName("a table marker left open before a closed one is reported and never swallows the text between them; a selection with a second header is refused")
    void anOpenTableMarkerNeverSwallowsText() throws Exception {
        Files.writeString(root.resolve("book/results/t.md"), TABLE);
        Files.writeString(root.resolve("book/results/two.md"), TABLE + "\n" + TABLE);
        String good = "<!-- table: t.md#^\\|(---| scenario | normal ) columns: completed -->\n<!-- /table -->\n";
        String two = "<!-- table: two.md#^\\|(---| scenario | normal ) columns: completed -->\n<!-- /table -->\n";
        Files.writeString(root.resolve("book/12-x.md"), "<!-- table: t.md#^\\| columns: completed -->\n正文不能丢。\n" + good + two);
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).hasSize(3)
                .anySatisfy(p -> assertThat(p).contains("12-x.md:1").contains("has no closing <!-- /table --> after it"))
                .anySatisfy(p -> assertThat(p).contains("t.md#").contains("is out of date"))
                .anySatisfy(p -> assertThat(p).contains("two.md").contains("hold a second header or separator"));
        Files.writeString(root.resolve("book/12-x.md"), "<!-- table: t.md#^\\| columns: completed -->\n正文不能丢。\n" + good);
        assertThat(sync.render(Files.readString(root.resolve("book/12-x.md")))).contains("正文不能丢。")
                .contains("| completed |\n| ---: |\n| 3475 |");
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

    @Test
    @DisplayName("a code or report marker with no fenced block under it is reported: nothing would ever fill or check it")
    void aMarkerWithoutItsFenceIsReported() throws Exception {
        Files.writeString(root.resolve("book/12-w.md"), """
                <!-- code: m/src/A.java#hot -->
                <!-- /code -->
                In a table, `<!-- code: path#tag -->` documents the marker and is not one.
                """);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).singleElement().asString().contains("12-w.md:1").contains("no fenced block");
    }

    @Test
    @DisplayName("a value may select an array element by its fields instead of its index; a selection matching no element or two is reported")
    void valuesSelectArrayElements() throws Exception {
        Files.writeString(root.resolve("book/results/m/sweep.json"), """
                {"rows":[{"rate":250,"p99":26159,"op":"a.b"},{"rate":500,"p99":200575,"op":"a.b"}]}""");
        Files.writeString(root.resolve("book/12-z.md"), """
                <!--v:m/sweep.json:rows[rate=500].p99-->?<!--/v--> <!--v:m/sweep.json:rows[op=a.b,rate=250].p99-->?<!--/v-->
                <!--v:m/sweep.json:rows[rate=750].p99-->?<!--/v--> <!--v:m/sweep.json:rows[op=a.b].p99-->?<!--/v-->
                """);
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).hasSize(4)
                .anyMatch(p -> p.contains("rows[rate=750]") && p.contains("has no element rows[rate=750]"))
                .anyMatch(p -> p.contains("rows[op=a.b].p99-->") && p.contains("has 2 elements rows[op=a.b]"));
        assertThat(ResultLookups.value(root, "m/sweep.json", "rows[rate=500].p99", null)).isEqualTo("200575");
        assertThat(ResultLookups.value(root, "m/sweep.json", "rows[op=a.b,rate=250].p99", null)).isEqualTo("26159");
    }

    @Test
    @DisplayName("a value whose selection holds a '>' (a constructor, <init>) is filled like any other; a value marker left unclosed is reported")
    void valuesSelectConstructors() throws Exception {
        Files.writeString(root.resolve("book/results/m/alloc.json"), """
                {"rows":[{"method":"a.B.<init>","pct":46.9},{"method":"a.C.run","pct":3.1}]}""");
        Files.writeString(root.resolve("book/12-z.md"), "<!--v:m/alloc.json:rows[method=a.B.<init>].pct|%.0f-->0<!--/v-->%\n");
        BookSync sync = new BookSync(root);

        sync.refresh();

        assertThat(Files.readString(root.resolve("book/12-z.md"))).contains("].pct|%.0f-->47<!--/v-->%");
        assertThat(sync.check()).isEmpty();
        Files.writeString(root.resolve("book/12-z.md"), "<!--v:m/alloc.json:rows.0.pct 没有收尾\n");
        assertThat(sync.check()).singleElement().asString().contains("12-z.md:1").contains("a value marker that is not");
    }

    @Test
    @DisplayName("a field name with dots in it is quoted in a path (JMH's \"gc.alloc.rate.norm\"), after a selection from a file that is an array")
    void quotedFieldNames() throws Exception {
        Files.writeString(root.resolve("book/results/m/jmh.json"), """
                [{"benchmark":"a.B.x","secondaryMetrics":{"gc.alloc.rate.norm":{"score":0.001}}},
                 {"benchmark":"a.B.y","secondaryMetrics":{"gc.alloc.rate.norm":{"score":2448.5}}}]""");
        assertThat(ResultLookups.value(root, "m/jmh.json", "[benchmark=a.B.y].secondaryMetrics.\"gc.alloc.rate.norm\".score", "%.0f"))
                .isEqualTo("2449");
        assertThat(ResultLookups.steps("[benchmark=a.B.x].\"gc.alloc.rate.norm\".score"))
                .containsExactly("[benchmark=a.B.x]", "\"gc.alloc.rate.norm\"", "score");
        assertThatThrownBy(() -> ResultLookups.steps("a.\"b.c")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("a holds marker whose condition is false fails check, naming the file, the line, the sentence before it and the values")
    void falseSentenceIsCaught() throws Exception {
        String chapter = """
                # 12.x
                完成 <!--v:m/run.json:run.completed-->3254<!--/v--> 个。完成数超过了三千。<!-- holds: m/run.json:run.completed > 3000 -->
                - 速率是 <!--v:m/run.json:run.rate|%.1f-->1017.4<!--/v-->，高于一千。<!-- holds: m/run.json:run.rate > 1000 and m/run.json:rows.0.p < 10 -->
                """;
        Files.writeString(root.resolve("book/12-x.md"), chapter);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).isEmpty();
        assertThat(sync.refresh()).as("a holds marker has nothing to render").isEmpty();

        Files.writeString(root.resolve("book/results/m/run.json"), "{\"run\":{\"completed\":2999,\"rate\":1017.4219},\"rows\":[{\"p\":7}]}");
        sync.refresh();

        assertThat(sync.check()).singleElement().asString()
                .startsWith("12-x.md:2: this sentence no longer holds: \u00ab完成数超过了三千。\u00bb")
                .contains("m/run.json:run.completed > 3000").contains("m/run.json:run.completed = 2999");
    }

    @Test
    @DisplayName("a holds marker naming a value the results do not have is an error in check, never a false sentence nor a true one")
    void holdsOverAMissingValueIsAnError() throws Exception {
        Files.writeString(root.resolve("book/12-x.md"), """
                文字。<!-- holds: m/run.json:run.missing > 1 or 1 < 2 -->
                文字。<!-- holds: m/run.json:run < 1 -->
                文字。<!-- holds: 1 < -->
                """);

        assertThat(new BookSync(root).check()).hasSize(3)
                .anyMatch(p -> p.startsWith("12-x.md:1:") && p.contains("cannot be evaluated") && p.contains("has no run.missing"))
                .anyMatch(p -> p.startsWith("12-x.md:2:") && p.contains("has no number at run"))
                .anyMatch(p -> p.startsWith("12-x.md:3:") && p.contains("at the end"));
    }

    @Test
    @DisplayName("check lists a figure a page links to that is missing, and a figure file no page links to")
    void figuresAreReferencedAndPresent() throws Exception {
        Files.createDirectories(root.resolve("book/figures"));
        Files.writeString(root.resolve("book/figures/shown.png"), "png");
        Files.writeString(root.resolve("book/figures/linked.html"), "html");
        Files.writeString(root.resolve("book/figures/orphan.png"), "png");
        Files.writeString(root.resolve("book/12-x.md"), """
                ![图](figures/shown.png) 打开[火焰图](figures/linked.html)，还有 ![缺](figures/missing.png)
                """);
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).containsExactlyInAnyOrder(
                "12-x.md: figures/missing.png does not exist (run book/refresh.sh)",
                "figures/orphan.png is referenced by no page under book/: show it in a chapter or delete it");
        assertThat(FigureReferences.referenced(root)).containsExactly("linked.html", "missing.png", "shown.png");
    }

    private static final String CLAIMS_CHAPTER = """
            # guide
            <!-- claims: fake -->
            stale
            <!-- /claims -->
            """;

    @Test
    @DisplayName("refresh fills a claims table: a header, then one row per test method of the module's tests.json, by class, superclass methods first, then declaration order")
    void refreshFillsTheClaimsTable() throws Exception {
        FixtureModules.write(root, "fake", FixtureModules.CHECKPOINT);
        Files.writeString(root.resolve("book/guide.md"), CLAIMS_CHAPTER);
        BookSync sync = new BookSync(root);
        assertThat(sync.check()).singleElement().asString().contains("claims: fake").contains("out of date");

        assertThat(sync.refresh()).containsExactly(root.resolve("book/guide.md"));

        assertThat(Files.readString(root.resolve("book/guide.md"))).isEqualTo("# guide\n<!-- claims: fake -->\n"
                + BookSync.CLAIMS_HEADER + FixtureModules.CHECKPOINT_ROWS + "<!-- /claims -->\n");
        assertThat(sync.check()).isEmpty();
        assertThat(sync.notChecked()).isEmpty();
        assertThat(sync.refresh()).as("a second refresh changes nothing").isEmpty();
    }

    @Test
    @DisplayName("a test re-described and run again after the refresh makes check report the claims table out of date")
    void staleClaimsTableIsCaught() throws Exception {
        FixtureModules.write(root, "fake", FixtureModules.CHECKPOINT);
        Files.writeString(root.resolve("book/guide.md"), CLAIMS_CHAPTER);
        BookSync sync = new BookSync(root);
        sync.refresh();
        FixtureModules.write(root, "fake", FixtureModules.CHECKPOINT.replace("the items", "the items in cents"));

        assertThat(sync.check()).singleElement().asString().contains("<!-- claims: fake -->").contains("out of date");
    }

    @Test
    @DisplayName("a pipe in a display name is escaped, so it does not split the table's cell")
    void pipeInAClaimIsEscaped() throws Exception {
        FixtureModules.write(root, "fake", FixtureModules.CHECKPOINT);
        String table = new BookSync(root).claimsTable("fake");

        assertThat(table).contains("| lab.profile true\\|false turns JFR on or off |");
        assertThat(table.lines().skip(2)).allSatisfy(row -> assertThat(row.replace("\\|", "").chars().filter(c -> c == '|'))
                .as(row).hasSize(4));
    }

    @Test
    @DisplayName("a module whose test run wrote no tests.json is listed as not checked, saying which module and to run mvn test: no problem, no rewrite")
    void unreportedModuleIsNotChecked() throws Exception {
        Path tests = Files.createDirectories(root.resolve("fresh/src/test/java/x"));
        Files.writeString(tests.resolve("T.java"), "package x;\nclass T {\n}\n");
        String chapter = "<!-- claims: fresh -->\nas it was\n<!-- /claims -->\n";
        Files.writeString(root.resolve("book/guide.md"), chapter);
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).isEmpty();
        assertThat(sync.notChecked()).containsExactly(
                "guide.md: claims of fresh not checked: its test run's target/reports/tests.json is not written — run `mvn test` at the root");
        assertThat(sync.refresh()).isEmpty();
        assertThat(Files.readString(root.resolve("book/guide.md"))).isEqualTo(chapter);
    }

    @Test
    @DisplayName("a module whose test sources changed after its tests.json was written is listed as not checked, not read from the old list")
    void staleReportIsNotChecked() throws Exception {
        Path module = FixtureModules.write(root, "fake", FixtureModules.CHECKPOINT);
        Files.writeString(root.resolve("book/guide.md"), CLAIMS_CHAPTER);
        Files.setLastModifiedTime(module.resolve("src/test/java/x/FastTest.java"), FileTime.from(Instant.now().plusSeconds(60)));
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).isEmpty();
        assertThat(sync.notChecked()).singleElement().asString()
                .isEqualTo("guide.md: claims of fake not checked: its target/reports/tests.json is older than its test sources — run `mvn test` at the root");
        assertThat(sync.refresh()).isEmpty();
    }

    @Test
    @DisplayName("a claims marker naming a missing module, a module without test sources, one whose tests.json lists no test or cannot be parsed is a problem line in check, never an empty table")
    void missingModuleIsReported() throws Exception {
        Files.createDirectories(root.resolve("nosources"));
        FixtureModules.write(root, "notests", "{\"module\":\"notests\",\"problems\":[],\"tests\":[]}");
        FixtureModules.write(root, "garbled", "{\"tests\": [");
        Files.writeString(root.resolve("book/guide.md"), """
                <!-- claims: no-such-module -->
                <!-- /claims -->
                <!-- claims: nosources -->
                <!-- /claims -->
                <!-- claims: notests -->
                <!-- /claims -->
                <!-- claims: garbled -->
                <!-- /claims -->
                """);
        BookSync sync = new BookSync(root);

        assertThat(sync.check()).hasSize(4)
                .anyMatch(p -> p.contains("claims: no-such-module") && p.contains("no module directory no-such-module"))
                .anyMatch(p -> p.contains("claims: nosources") && p.contains("module nosources has no src/test/java"))
                .anyMatch(p -> p.contains("claims: notests") && p.contains("JUnit found no test method in notests"))
                .anyMatch(p -> p.contains("claims: garbled") && p.contains("cannot parse " + root.resolve("garbled/target/reports/tests.json")));
        assertThat(sync.notChecked()).isEmpty();
        assertThatThrownBy(sync::refresh).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-module");
        assertThat(Files.readString(root.resolve("book/guide.md"))).as("left as it was").doesNotContain("| test |");
    }
}
