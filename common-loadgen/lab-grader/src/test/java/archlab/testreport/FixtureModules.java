package archlab.testreport;

import archlab.claims.SourceCompiler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Tiny modules for the listener's tests, laid out as Maven leaves a module after {@code mvn test-compile}: sources
 * under {@code src/test/java}, classes compiled from them (by the JDK's compiler, at test time) under
 * {@code target/test-classes}; and a run of some of their classes on a launcher of their own, with a
 * {@link TestsReportListener} writing the module's {@code target/reports/tests.json}. Compiled at test time, not
 * kept among common-loadgen's test classes: there they would be tests of common-loadgen's own run and rows of its
 * claims table.
 *
 * <p>Thread-safety: stateless; {@link #run} sets and restores the calling thread's context class loader.
 */
final class FixtureModules {

    private static final ObjectMapper JSON = new ObjectMapper();

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

    /**
     * A class whose tests end every way a test can (passed, failed, aborted, disabled, one failing case of three),
     * and a disabled class with a {@code @Nested} class.
     */
    static final Map<String, String> OUTCOMES = Map.of("x/OffTest.java", """
            package x;

            import org.junit.jupiter.api.Disabled;
            import org.junit.jupiter.api.Nested;
            import org.junit.jupiter.api.Test;

            @Disabled("off")
            class OffTest {
                @Test
                void off() {
                }

                @Nested
                class Inner {
                    @Test
                    void inner() {
                    }
                }
            }
            """, "x/OutcomesTest.java", """
            package x;

            import static org.junit.jupiter.api.Assumptions.assumeTrue;

            import org.junit.jupiter.api.Disabled;
            import org.junit.jupiter.api.DisplayName;
            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.params.ParameterizedTest;
            import org.junit.jupiter.params.provider.ValueSource;

            class OutcomesTest {
                @Test
                @DisplayName("passes")
                void passes() {
                }

                @Test
                @DisplayName("fails")
                void fails() {
                    throw new AssertionError("as it should");
                }

                @Test
                @DisplayName("aborts")
                void aborts() {
                    assumeTrue(false, "not here");
                }

                @Test
                @Disabled("not today")
                @DisplayName("disabled")
                void disabled() {
                }

                @ParameterizedTest
                @ValueSource(ints = {1, 2, 3})
                @DisplayName("one case of three fails")
                void oneCaseFails(int n) {
                    if (n == 2) {
                        throw new AssertionError("case 2");
                    }
                }
            }
            """);

    private FixtureModules() {
    }

    /**
     * Writes {@code sources} (path under {@code src/test/java} → content) into {@code root/module} and compiles them
     * into its {@code target/test-classes}.
     *
     * @return the module's folder
     */
    static Path compile(Path root, String module, Map<String, String> sources) throws IOException {
        Path dir = root.resolve(module);
        Path src = dir.resolve("src/test/java");
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path file = src.resolve(s.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, s.getValue());
        }
        SourceCompiler.compileTree(src, dir.resolve("target/test-classes"));
        return dir;
    }

    /**
     * Runs the test classes {@code classNames} of {@code module} (compiled by {@link #compile}) on a launcher whose
     * only listener is a {@link TestsReportListener} of the module, in a class loader over its test classes.
     *
     * @return the module's {@code target/reports/tests.json}, parsed
     */
    static JsonNode run(Path module, String... classNames) {
        Path testClasses = module.resolve("target/test-classes");
        Path report = module.resolve("target/reports/tests.json");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {testClasses.toUri().toURL()}, FixtureModules.class.getClassLoader())) {
            thread.setContextClassLoader(loader);
            LauncherConfig config = LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false)
                    .enableLauncherSessionListenerAutoRegistration(false)
                    .addTestExecutionListeners(new TestsReportListener(module.getFileName().toString(), testClasses, report))
                    .build();
            LauncherFactory.create(config).execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(Arrays.stream(classNames).map(c -> DiscoverySelectors.selectClass(loader, c)).toList())
                    .build());
            return JSON.readTree(report.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
