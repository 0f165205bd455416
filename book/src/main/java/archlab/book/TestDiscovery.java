package archlab.book;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.EngineDiscoveryResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The tests of one compiled module, as the JUnit Platform discovers them: the same launcher and Jupiter engine
 * that {@code mvn test} runs, asked for the test plan of {@code <module>/target/test-classes}, in the module's own
 * class loader ({@link CompiledModule}). Nothing is executed: discovery loads the classes without initialising them.
 *
 * <p>The trap it avoids: a hand-written reading of test sources decides for itself what a test is, and drifts from
 * what JUnit runs — an inherited test method, a {@code @RepeatedTest} or {@code @TestFactory}, a meta-annotation
 * or the repeatable container of {@code @EnabledIfSystemProperty}, a {@code @DisplayName} built from a constant.
 * Here JUnit says which methods are tests and what their display names are, and the enabling flags are read with
 * JUnit's own annotation search, on the method and on every class that contains it in the test plan. And a class
 * that cannot be loaded, which JUnit's class-path scan skips with a log line, or a discovery issue JUnit reports,
 * is an error here: a table silently missing a test is the drift this class exists to prevent.
 *
 * <p>Thread-safety: safe; each call sets and restores the calling thread's context class loader.
 */
final class TestDiscovery {

    /** The claim of a test method without a {@code @DisplayName}: shown, so that a grader sees the gap. */
    static final String NO_DISPLAY_NAME = "(no @DisplayName)";

    /**
     * One test of a module, a row of its claims table.
     *
     * @param test  {@code ClassName.method}: the test class JUnit runs it in (a subclass, for an inherited method),
     *              without its package; {@code Outer.Nested.method} for a {@code @Nested} class
     * @param claim the display name JUnit gives the method if it has a {@code @DisplayName} (line breaks and tabs as
     *              spaces: a table cell is one line), else {@value #NO_DISPLAY_NAME}
     * @param needs the system properties the test needs to run, as {@code -DX} flags (space-separated, outermost
     *              class first), or empty: a fast test that {@code mvn test} runs
     */
    record Claim(String test, String claim, String needs) {
    }

    /** A claim and where it sorts: by test class, then superclass methods first, then declaration order. */
    private record Row(String testClass, int depth, int position, String method, Claim claim) {
    }

    private TestDiscovery() {
    }

    /**
     * The tests of {@code module}, one per method JUnit discovers (a parameterized, repeated or factory method
     * counts once), sorted by test class name, then in the order the source declares them.
     *
     * @throws IllegalArgumentException if a test class cannot be loaded, JUnit reports a discovery issue (a
     *                                  warning or an error), or it finds no test at all
     */
    static List<Claim> claims(CompiledModule module) {
        Launcher launcher = LauncherFactory.create(); // its engines: the book's own JUnit, found before the switch below
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = module.classLoader(TestDiscovery.class.getClassLoader())) {
            thread.setContextClassLoader(loader); // where JUnit's class-path scan loads the classes it finds
            List<String> issues = new ArrayList<>(unloadable(module.testClasses(), loader));
            TestPlan plan = launcher.discover(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClasspathRoots(Set.of(module.testClasses())))
                    .listeners(new IssueCollector(issues))
                    .build());
            if (!issues.isEmpty()) {
                throw new IllegalArgumentException("JUnit cannot read every test of " + module.name() + ": " + String.join("; ", issues));
            }
            List<Row> rows = new ArrayList<>();
            for (TestIdentifier engine : plan.getRoots()) {
                for (TestIdentifier test : plan.getDescendants(engine)) {
                    if (test.getSource().orElse(null) instanceof MethodSource source) {
                        rows.add(row(plan, test, source));
                    }
                }
            }
            if (rows.isEmpty()) {
                throw new IllegalArgumentException("JUnit found no test method in " + module.name() + "/target/test-classes");
            }
            return rows.stream()
                    .sorted(Comparator.comparing(Row::testClass).thenComparingInt(Row::depth)
                            .thenComparingInt(Row::position).thenComparing(Row::method))
                    .map(Row::claim).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the class loader of " + module.name(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static Row row(TestPlan plan, TestIdentifier test, MethodSource source) {
        Method method = source.getJavaMethod();
        String testClass = withoutPackage(source.getJavaClass());
        String claim = AnnotationSupport.findAnnotation(method, DisplayName.class).isPresent()
                ? test.getDisplayName().replaceAll("[\\r\\n\\t]", " ") : NO_DISPLAY_NAME;
        List<AnnotatedElement> scopes = new ArrayList<>(); // the classes that contain the test in the plan, outermost first
        for (Optional<TestIdentifier> p = plan.getParent(test); p.isPresent(); p = plan.getParent(p.get())) {
            if (p.get().getSource().orElse(null) instanceof ClassSource c) {
                scopes.addFirst(c.getJavaClass());
            }
        }
        scopes.add(method);
        List<String> needs = scopes.stream()
                .flatMap(e -> AnnotationSupport.findRepeatableAnnotations(e, EnabledIfSystemProperty.class).stream())
                .map(p -> "-D" + p.named()).distinct().toList();
        return new Row(testClass, depth(method.getDeclaringClass()), DeclarationOrder.of(method), method.getName(),
                new Claim(testClass + "." + method.getName(), claim, String.join(" ", needs)));
    }

    /** {@code Outer.Nested} for {@code pkg.Outer$Nested}. */
    private static String withoutPackage(Class<?> type) {
        return type.getName().substring(type.getPackageName().isEmpty() ? 0 : type.getPackageName().length() + 1)
                .replace('$', '.');
    }

    /** How many superclasses {@code type} has: a method inherited from a superclass sorts before the subclass's own. */
    private static int depth(Class<?> type) {
        int depth = 0;
        for (Class<?> c = type.getSuperclass(); c != null; c = c.getSuperclass()) {
            depth++;
        }
        return depth;
    }

    /**
     * One line per class file under {@code testClasses} that {@code loader} cannot load and link (a class it needs
     * is missing): JUnit's scan would skip such a class with no more than a log line.
     */
    private static List<String> unloadable(Path testClasses, ClassLoader loader) {
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.walk(testClasses)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String relative = testClasses.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
                String className = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                if (className.endsWith("module-info") || className.endsWith("package-info")) {
                    continue;
                }
                try {
                    Class.forName(className, false, loader).getDeclaredMethods();
                } catch (ClassNotFoundException | LinkageError e) {
                    problems.add("cannot load " + className + " (" + e + ")");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + testClasses, e);
        }
        return problems;
    }

    /** Collects what JUnit reports while discovering: issues of severity warning or error, and a failed engine. */
    private record IssueCollector(List<String> issues) implements LauncherDiscoveryListener {
        @Override
        public void issueEncountered(UniqueId engine, DiscoveryIssue issue) {
            if (issue.severity().compareTo(DiscoveryIssue.Severity.WARNING) >= 0) {
                issues.add(issue.severity() + ": " + issue.message());
            }
        }

        @Override
        public void engineDiscoveryFinished(UniqueId engine, EngineDiscoveryResult result) {
            if (result.getStatus() == EngineDiscoveryResult.Status.FAILED) {
                issues.add(engine + " failed: " + result.getThrowable().map(Throwable::toString).orElse("(no cause)"));
            }
        }
    }
}
