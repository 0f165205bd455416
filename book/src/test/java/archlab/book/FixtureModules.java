package archlab.book;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Tiny modules for the book's tests, laid out as Maven leaves a module after {@code mvn test-compile}: sources
 * under {@code src/test/java}, classes compiled from them (by the JDK's compiler, at test time) under
 * {@code target/test-classes}, and an empty {@code target/test-classpath.txt} (the fixtures need nothing but the
 * JUnit API, which the book's own class path provides). Compiled at test time, not kept among the book's test
 * classes: there they would be rows of the book's own claims table, and they would be on the parent class path,
 * which hides whether each module really gets classes of its own.
 */
final class FixtureModules {

    /**
     * A module's tests in every shape the claims table must get right: a fast class (a {@code @DisplayName} built
     * from a constant, a parameterized and a repeated test, one without a display name, a pipe and a line break in
     * display names), a load-run class with a {@code @Nested} class, a test class inheriting a test, the flag of a
     * meta-annotation and of repeated annotations, and classes that hold no test.
     */
    static final Map<String, String> CHECKPOINT = Map.of(
            "x/FastTest.java", """
                    package x;

                    import org.junit.jupiter.api.DisplayName;
                    import org.junit.jupiter.api.RepeatedTest;
                    import org.junit.jupiter.api.Test;
                    import org.junit.jupiter.params.ParameterizedTest;
                    import org.junit.jupiter.params.provider.ValueSource;

                    class FastTest {
                        static final String TOTALS = "create totals";

                        @Test
                        @DisplayName(TOTALS + " the items")
                        void second() {
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

                        @RepeatedTest(3)
                        @DisplayName("a repeated test is one row,\\nhowever often it repeats")
                        void repeated() {
                        }

                        void notATest() {
                        }
                    }
                    """,
            "x/LoadRunTest.java", """
                    package x;

                    import org.junit.jupiter.api.DisplayName;
                    import org.junit.jupiter.api.Nested;
                    import org.junit.jupiter.api.Test;
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
                    """,
            "x/SweepTest.java", """
                    package x;

                    import org.junit.jupiter.api.DisplayName;
                    import org.junit.jupiter.api.Test;
                    import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

                    class SweepTest extends Rates {
                        @Test
                        @SweepRun
                        @DisplayName("the knee is found")
                        void knee() {
                        }

                        @Test
                        @EnabledIfSystemProperty(named = "sweep", matches = ".*")
                        @EnabledIfSystemProperty(named = "bench", matches = ".*")
                        @DisplayName("prints the rates")
                        void rates() {
                        }
                    }
                    """,
            "x/Rates.java", """
                    package x;

                    import org.junit.jupiter.api.DisplayName;
                    import org.junit.jupiter.api.Test;

                    abstract class Rates {
                        @Test
                        @DisplayName("every rate offers the whole load")
                        void everyRate() {
                        }
                    }
                    """,
            "x/SweepRun.java", """
                    package x;

                    import java.lang.annotation.ElementType;
                    import java.lang.annotation.Retention;
                    import java.lang.annotation.RetentionPolicy;
                    import java.lang.annotation.Target;
                    import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

                    @Retention(RetentionPolicy.RUNTIME)
                    @Target({ElementType.TYPE, ElementType.METHOD})
                    @EnabledIfSystemProperty(named = "sweep", matches = ".*")
                    @interface SweepRun {
                    }
                    """,
            "x/Helper.java", "package x;\n\nfinal class Helper {\n    static int help() {\n        return 1;\n    }\n}\n");

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
     * Writes {@code sources} (path under {@code src/test/java} → content) into {@code root/module} and compiles them.
     *
     * @return the module's folder
     */
    static Path compile(Path root, String module, Map<String, String> sources) throws IOException {
        Path dir = root.resolve(module);
        Path src = dir.resolve("src/test/java");
        Path out = Files.createDirectories(dir.resolve("target/test-classes"));
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-proc:none", "-nowarn", "--release", "21",
                "-cp", Stream.of(Test.class, ParameterizedTest.class, API.class).map(FixtureModules::jarOf)
                        .collect(Collectors.joining(File.pathSeparator))));
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path file = src.resolve(s.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, s.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("the book's tests need a JDK (javax.tools), not a JRE");
        }
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        if (javac.run(null, messages, messages, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("fixture " + module + " does not compile:\n" + messages.toString(StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve(CompiledModule.CLASSPATH_FILE), "");
        return dir;
    }

    private static String jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
