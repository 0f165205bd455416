package archlab.house;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import archlab.clock.NanoClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * What the house must never do, as ArchUnit rules. The trap they guard: a checkpoint that reaches into the runner or
 * the reports (its service then only works under this harness, and a lesson hides in a class the diff never shows),
 * a harness that knows a checkpoint (it stops being the same load for every step), and cycles between the harness's
 * packages (nothing can be read, or moved, alone). A failing rule names the class and the arrow.
 *
 * <p>Stateless; each rule is checked against the classes given to it.
 */
public final class HouseRules {

    /**
     * The service side of the harness, the only part a checkpoint's main code (and a student's solution, see
     * {@code archlab.claims.StudentCodeCheck}) may use: every top-level class of the {@code lab-api} module (the ports
     * and their values and errors, the request's context, deadline and clock, spans, the profiled lock, the background
     * loop, back-off and duration checks, the latency histograms, the workload's port, the generational cache). Read
     * from the folder or jar {@code lab-api}'s classes were loaded from, so the list is the module, never a copy of it.
     * A nested class of a listed class is allowed with it.
     */
    public static final Set<String> SERVICE_SIDE_CLASSES = apiClasses();

    private HouseRules() {
    }

    private static Set<String> apiClasses() {
        Path where;
        try {
            where = Path.of(NanoClock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("lab-api's classes are not in a folder or jar: " + e.getMessage(), e);
        }
        Set<String> names = new TreeSet<>();
        try {
            if (Files.isDirectory(where)) {
                try (Stream<Path> files = Files.walk(where)) {
                    files.map(f -> where.relativize(f).toString().replace(java.io.File.separatorChar, '/'))
                            .forEach(entry -> topLevelClass(entry).ifPresent(names::add));
                }
            } else {
                try (ZipFile jar = new ZipFile(where.toFile())) {
                    jar.stream().forEach(entry -> topLevelClass(entry.getName()).ifPresent(names::add));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading lab-api's classes at " + where, e);
        }
        if (!names.contains(NanoClock.class.getName())) {
            throw new IllegalStateException("no lab-api classes found at " + where);
        }
        return Set.copyOf(names);
    }

    private static Optional<String> topLevelClass(String entry) {
        if (!entry.startsWith("archlab/") || !entry.endsWith(".class") || entry.contains("$")
                || entry.endsWith("package-info.class") || entry.endsWith("module-info.class")) {
            return Optional.empty();
        }
        return Optional.of(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
    }

    /**
     * @return the main classes of the module at {@code moduleDir} ({@code target/classes}); the classes they use are
     *         known by name only (the rules judge names), not imported from the class path, which would import the JDK
     *         and every library behind them and take seconds
     */
    public static JavaClasses mainClassesOf(Path moduleDir) {
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
        return new ClassFileImporter().importPath(moduleDir.resolve("target/classes"));
    }

    /** A checkpoint's own code uses the harness's service side only: not the runner, reports, profiles, scenarios or chaos. */
    public static ArchRule checkpointUsesServiceSideOnly() {
        return classes().that().resideInAPackage("archlab.order..")
                .should().onlyDependOnClassesThat(new DescribedPredicate<JavaClass>(
                        "the checkpoint's own, the JDK's, its libraries' or the harness's service side " + SERVICE_SIDE_CLASSES) {
                    @Override
                    public boolean test(JavaClass c) {
                        String name = c.getName();
                        String outer = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
                        return !name.startsWith("archlab.") || name.startsWith("archlab.order.")
                                || SERVICE_SIDE_CLASSES.contains(outer);
                    }
                })
                .because("a checkpoint's service is a service: it meets the harness through its ports, never its runner or reports");
    }

    /** The packages of the database's API and of the libraries behind it: JDBC, the pool, the driver, the migrations. */
    public static final String[] DATABASE_PACKAGES = {"java.sql..", "javax.sql..", "com.zaxxer.hikari..", "org.postgresql..",
        "org.flywaydb.."};

    /**
     * Nothing of a checkpoint touches the database but its store: the classes of {@code archlab.order} whose name starts
     * with {@code Postgres} (their nested classes with them). The service, its values and its other ports stay free of
     * JDBC, so a diff of the service shows the lesson, not the plumbing.
     */
    public static ArchRule onlyTheStoreTouchesTheDatabase() {
        return noClasses().that().resideInAPackage("archlab.order..")
                .and(new DescribedPredicate<JavaClass>("are not the PostgreSQL store (archlab.order.Postgres*)") {
                    @Override
                    public boolean test(JavaClass c) {
                        String name = c.getName();
                        String outer = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
                        return !outer.substring(outer.lastIndexOf('.') + 1).startsWith("Postgres");
                    }
                })
                .should().dependOnClassesThat().resideInAnyPackage(DATABASE_PACKAGES)
                .because("the store is the one place that speaks SQL; the service meets it through its port");
    }

    /** In the harness, only {@code archlab.db} (one fixture's schema and measured pool) touches the database. */
    public static ArchRule onlyArchlabDbTouchesTheDatabase() {
        return noClasses().that().resideInAPackage("archlab..").and().resideOutsideOfPackage("archlab.db..")
                .should().dependOnClassesThat().resideInAnyPackage(DATABASE_PACKAGES)
                .because("the runner, the reports and the transports know a database only through archlab.db");
    }

    /** The harness names no checkpoint and no book tool; only the grader's own packages use the grader. */
    public static ArchRule harnessKnowsNoCheckpoint() {
        return noClasses().that().resideInAPackage("archlab..")
                .should().dependOnClassesThat().resideInAnyPackage("archlab.order..", "archlab.book..", "archlab.compare..",
                        "archlab.figures..", "archlab.grading..")
                .orShould(new ArchCondition<JavaClass>("use the grader (archlab.claims, archlab.house) outside it") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        if (c.getPackageName().startsWith("archlab.claims") || c.getPackageName().startsWith("archlab.house")) {
                            return;
                        }
                        c.getDirectDependenciesFromSelf().stream()
                                .filter(d -> d.getTargetClass().getPackageName().startsWith("archlab.claims")
                                        || d.getTargetClass().getPackageName().startsWith("archlab.house"))
                                .forEach(d -> events.add(SimpleConditionEvent.violated(d, d.getDescription())));
                    }
                })
                .because("every checkpoint runs under the same, unchanged harness, and the grader sits on top of it");
    }

    /** No cycle between the harness's top-level packages. */
    public static ArchRule harnessFreeOfCycles() {
        return slices().matching("archlab.(*)..").should().beFreeOfCycles();
    }
}
