package archlab.house;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.loadgen.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No main code builds a value from more than {@value #MAX_ARGUMENTS} positional arguments (issue 22): such values
 * are built from named parts or by a builder.
 */
class PositionalCallsTest {

    /** The most positional arguments a constructor call in main code may pass. */
    static final int MAX_ARGUMENTS = 6;

    /**
     * Modules whose main code is not scanned: these chapter checkpoints' code belongs to another author and still
     * builds values positionally ({@code Outbox.Entry}, {@code OrderServiceSettings}); theirs to rebuild.
     */
    static final Set<String> NOT_SCANNED = Set.of("ch12-2-cache-outbox-ratelimit", "ch12-3-fault-scenarios");

    private static final Path ROOT = RepoRoot.path();

    @Test
    @DisplayName("no constructor call in main code passes more than 6 positional arguments outside a builder's build() or a record's own with… copy")
    void noWideConstructorCallInMainCode() throws IOException {
        List<Path> mainSources = RepoRoot.moduleDirs().stream()
                .filter(m -> !NOT_SCANNED.contains(m.getFileName().toString()))
                .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
        assertThat(mainSources).as("main source folders under %s", ROOT)
                .anySatisfy(p -> assertThat(p).endsWith(Path.of("common-loadgen/lab-runs/src/main/java")));
        assertThat(PositionalCalls.wideCalls(ROOT, mainSources, MAX_ARGUMENTS))
                .as("wide constructor calls: build the value from named parts or by a builder").isEmpty();
    }

    @Test
    @DisplayName("the scan names file:line of a wide call, and lets a builder's build() and a record's own with… copy call wide constructors")
    void scanFindsWideCallsAndExemptsBuildersAndCopies(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("Wide.java"), """
                class Wide {
                    record Point(int a, int b, int c, int d, int e, int f, int g) {
                        Point withA(int x) { return new Point(x, b, c, d, e, f, g); }
                        Wide notACopy() { return new Wide(1, 2, 3, 4, 5, 6, 7); }
                    }
                    static final class Builder {
                        Point build() { return new Point(1, 2, 3, 4, 5, 6, 7); }
                    }
                    Wide(int a, int b, int c, int d, int e, int f, int g) { }
                    static Point make() {
                        return new Point(1, 2, 3, 4, 5, 6,
                                7);
                    }
                    static Object six() { return new java.util.ArrayList<Integer>(List.of(1, 2, 3, 4, 5, 6)); }
                }
                """);
        assertThat(PositionalCalls.wideCalls(dir, List.of(dir), MAX_ARGUMENTS)).map(Object::toString)
                .containsExactly("Wide.java:4 new Wide(…7 arguments)", "Wide.java:11 new Point(…7 arguments)");
    }
}
