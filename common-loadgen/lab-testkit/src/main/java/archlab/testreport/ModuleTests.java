package archlab.testreport;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
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
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Every test of one module, as the JUnit Platform discovers them in the module's own test JVM: the classpath root
 * {@code <module>/target/test-classes} selected whole, whatever subset this run executes ({@code -Dtest=…}), with the
 * thread's context class loader (the test class path). Nothing is executed: discovery loads the classes without
 * initialising them.
 *
 * <p>The trap it avoids: a hand-written reading of test sources decides for itself what a test is, and drifts from
 * what JUnit runs — an inherited test method, a {@code @RepeatedTest} or {@code @TestFactory}, a meta-annotation
 * or the repeatable container of {@code @EnabledIfSystemProperty}, a {@code @DisplayName} built from a constant.
 * Here JUnit says which methods are tests and what their display names are, and the enabling flags are read with
 * JUnit's own annotation search, on the method and on every class that contains it in the test plan. A class that
 * cannot be loaded, which JUnit's class-path scan skips with a log line, or a discovery issue JUnit reports, is a
 * {@linkplain Discovery#problems problem} of the result: a list silently missing a test is the drift this class
 * exists to prevent.
 *
 * <p>Thread-safety: stateless; {@link #discover} may be called from any thread (it uses that thread's context
 * class loader).
 */
final class ModuleTests {

    /** The display name written for a test method without a {@code @DisplayName}: shown, so that a grader sees the gap. */
    static final String NO_DISPLAY_NAME = "(no @DisplayName)";

    /**
     * One test method of the module.
     *
     * @param uniqueId    its JUnit unique id, the key of its outcome
     * @param containers  the unique ids of the containers above it in the plan, innermost first
     * @param testClass   the test class JUnit runs it in (a subclass, for an inherited method), without its package;
     *                    {@code Outer.Nested} for a {@code @Nested} class
     * @param method      the method's name
     * @param displayName the display name JUnit gives the method if it has a {@code @DisplayName} (line breaks and
     *                    tabs as spaces), else {@value #NO_DISPLAY_NAME}
     * @param needs       the system properties it needs to run, as {@code -DX} flags, outermost class first; empty
     *                    for a fast test that {@code mvn test} runs
     * @param depth       how many superclasses the declaring class has: an inherited method sorts before the
     *                    subclass's own
     * @param order       the method's position in its declaring class's class file (the source order);
     *                    {@link Integer#MAX_VALUE} if unknown
     */
    record Row(String uniqueId, List<String> containers, Place place, String displayName, List<String> needs) {

        String testClass() {
            return place.testClass();
        }

        String method() {
            return place.method();
        }

        int depth() {
            return place.depth();
        }

        int order() {
            return place.order();
        }
    }

    /** Where a test method sits: its class and name, and its sort keys (see {@link Row}'s parameters of the same names). */
    record Place(String testClass, String method, int depth, int order) {
    }

    /**
     * @param rows     one per test method, sorted by test class, then superclass methods first, then declaration
     *                 order, then name
     * @param problems what JUnit could not read (a class that cannot be loaded, a discovery issue); empty if none
     */
    record Discovery(List<Row> rows, List<String> problems) {
    }

    /** The order of the claims tables. */
    static final Comparator<Row> ORDER = Comparator.comparing(Row::testClass).thenComparingInt(Row::depth)
            .thenComparingInt(Row::order).thenComparing(Row::method);

    private ModuleTests() {
    }

    /** Discovers every test under {@code testClasses} (a classpath root of the calling thread's context class loader). */
    static Discovery discover(Path testClasses) {
        // a launcher of the engines only: no listener or filter of the class path (this class's own among them) joins in
        LauncherConfig config = LauncherConfig.builder().enableTestExecutionListenerAutoRegistration(false)
                .enableLauncherSessionListenerAutoRegistration(false).enableLauncherDiscoveryListenerAutoRegistration(false)
                .enablePostDiscoveryFilterAutoRegistration(false).build();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        List<String> problems = new ArrayList<>(unloadable(testClasses, loader));
        TestPlan plan = LauncherFactory.create(config).discover(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathRoots(Set.of(testClasses)))
                .listeners(new IssueCollector(problems))
                .build());
        List<Row> rows = new ArrayList<>();
        for (TestIdentifier engine : plan.getRoots()) {
            for (TestIdentifier test : plan.getDescendants(engine)) {
                if (test.getSource().orElse(null) instanceof MethodSource source) {
                    rows.add(row(plan, test, source));
                }
            }
        }
        rows.sort(ORDER);
        return new Discovery(List.copyOf(rows), List.copyOf(problems));
    }

    private static Row row(TestPlan plan, TestIdentifier test, MethodSource source) {
        Method method = source.getJavaMethod();
        String displayName = AnnotationSupport.findAnnotation(method, DisplayName.class).isPresent()
                ? test.getDisplayName().replaceAll("[\\r\\n\\t]", " ") : NO_DISPLAY_NAME;
        List<String> containers = new ArrayList<>();
        List<AnnotatedElement> scopes = new ArrayList<>(); // the classes that contain the test in the plan, outermost first
        for (Optional<TestIdentifier> p = plan.getParent(test); p.isPresent(); p = plan.getParent(p.get())) {
            containers.add(p.get().getUniqueId());
            if (p.get().getSource().orElse(null) instanceof ClassSource c) {
                scopes.addFirst(c.getJavaClass());
            }
        }
        scopes.add(method);
        List<String> needs = scopes.stream()
                .flatMap(e -> AnnotationSupport.findRepeatableAnnotations(e, EnabledIfSystemProperty.class).stream())
                .map(p -> "-D" + p.named()).distinct().toList();
        Place place = new Place(withoutPackage(source.getJavaClass()), method.getName(), depth(method.getDeclaringClass()),
                DeclarationOrder.of(method));
        return new Row(test.getUniqueId(), List.copyOf(containers), place, displayName, needs);
    }

    /** {@code Outer.Nested} for {@code pkg.Outer$Nested}. */
    private static String withoutPackage(Class<?> type) {
        return type.getName().substring(type.getPackageName().isEmpty() ? 0 : type.getPackageName().length() + 1)
                .replace('$', '.');
    }

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
