package archlab.book;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The tests of one module as its own test run reported them: {@code <module>/target/reports/tests.json}, which
 * lab-testkit's listener ({@code archlab.testreport.TestsReportListener}) writes in every module's test
 * JVM from what the JUnit Platform discovers there — every test method of the module, whatever the run selected.
 * The book reads that file and loads no class: each module's tests are read by the JVM that runs them.
 *
 * <p>The trap it avoids: a list of tests that is not the sources'. A module whose report is missing (never tested,
 * or {@code mvn clean}), or older than a test source (edited since the last {@code mvn test}), is
 * {@linkplain #notWritten not read}: the book says so and what to run, rather than pass on a guess or fail on a
 * stale list. A report that cannot be parsed, or that says JUnit could not read every test, is an error naming it.
 *
 * <p>Thread-safety: stateless.
 */
final class TestsReports {

    /** Where each module's test run writes its report, relative to the module. */
    static final String FILE = "target/reports/tests.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One test of a module, a row of its claims table.
     *
     * @param test  {@code ClassName.method}: the test class JUnit runs it in (a subclass, for an inherited method),
     *              without its package; {@code Outer.Nested.method} for a {@code @Nested} class
     * @param claim its display name as the report gives it (its {@code @DisplayName}, or the report's marker of a
     *              test without one)
     * @param needs the system properties the test needs to run, as {@code -DX} flags (space-separated, outermost
     *              class first), or empty: a fast test that {@code mvn test} runs
     */
    record Claim(String test, String claim, String needs) {
    }

    /** A claim and where it sorts: by test class, then superclass methods first, then declaration order. */
    private record Row(String testClass, int depth, int order, String method, Claim claim) {
    }

    private TestsReports() {
    }

    /**
     * @return the folder of {@code module} under {@code root}
     * @throws IllegalArgumentException if the module's folder or its {@code src/test/java} is missing
     */
    static Path module(Path root, String module) {
        Path dir = root.resolve(module);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no module directory " + module + " under " + root);
        }
        if (!Files.isDirectory(dir.resolve("src/test/java"))) {
            throw new IllegalArgumentException("module " + module + " has no src/test/java");
        }
        return dir;
    }

    /**
     * @return why {@code module}'s report cannot be read as its sources' tests, with what to run; empty if it can:
     *         the report exists and no test source is newer than it
     * @throws IllegalArgumentException as {@link #module}
     */
    static Optional<String> notWritten(Path root, String module) {
        Path dir = module(root, module);
        Path report = dir.resolve(FILE);
        String why;
        if (!Files.isRegularFile(report)) {
            why = "its test run's " + FILE + " is not written";
        } else if (newest(dir.resolve("src/test/java")).compareTo(modified(report)) > 0) {
            why = "its " + FILE + " is older than its test sources";
        } else {
            return Optional.empty();
        }
        return Optional.of("claims of " + module + " not checked: " + why + " — run `mvn test` at the root");
    }

    /**
     * The tests of {@code module}, one per test method, sorted by test class name, then superclass methods first,
     * then in the order the source declares them.
     *
     * @throws IllegalArgumentException if the module is missing, its report cannot be read or parsed, says JUnit could
     *                                  not read every test, or lists no test
     */
    static List<Claim> claims(Path root, String module) {
        Path file = module(root, module).resolve(FILE);
        JsonNode report;
        try {
            report = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot parse " + file + ": " + e.getMessage(), e);
        }
        if (report == null || !report.path("tests").isArray()) {
            throw new IllegalArgumentException("cannot parse " + file + ": no \"tests\" array");
        }
        List<String> problems = new ArrayList<>();
        report.path("problems").forEach(p -> problems.add(p.asText()));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("JUnit cannot read every test of " + module + " (" + file + "): "
                    + String.join("; ", problems));
        }
        List<Row> rows = new ArrayList<>();
        for (JsonNode t : report.path("tests")) {
            String testClass = text(t, "class", file);
            String method = text(t, "method", file);
            List<String> needs = new ArrayList<>();
            t.path("needs").forEach(n -> needs.add(n.asText()));
            rows.add(new Row(testClass, t.path("depth").asInt(0), t.path("order").asInt(Integer.MAX_VALUE), method,
                    new Claim(testClass + "." + method, text(t, "displayName", file), String.join(" ", needs))));
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("JUnit found no test method in " + module + " (" + file + " lists none)");
        }
        return rows.stream()
                .sorted(Comparator.comparing(Row::testClass).thenComparingInt(Row::depth)
                        .thenComparingInt(Row::order).thenComparing(Row::method))
                .map(Row::claim).toList();
    }

    private static String text(JsonNode test, String field, Path file) {
        JsonNode value = test.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("cannot parse " + file + ": a test without \"" + field + "\": " + test);
        }
        return value.asText();
    }

    /** The newest modification time of the {@code .java} files under {@code folder}. */
    private static FileTime newest(Path folder) {
        FileTime newest = FileTime.fromMillis(0);
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).toList()) {
                FileTime t = modified(f);
                if (t.compareTo(newest) > 0) {
                    newest = t;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder, e);
        }
        return newest;
    }

    private static FileTime modified(Path f) {
        try {
            return Files.getLastModifiedTime(f);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the time of " + f, e);
        }
    }
}
