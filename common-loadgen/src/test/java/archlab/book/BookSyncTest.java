package archlab.book;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The book's markers: code regions, report lines and values come from their sources, and drift is caught. */
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
}
