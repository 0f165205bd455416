package archlab.house;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.Path;
import java.util.Set;

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
     * {@code archlab.claims.StudentCodeCheck}) may use: the ports and their values and errors, the request's context,
     * deadline and clock, spans, the profiled lock, the background loop, back-off and duration checks, the latency
     * histograms, and the workload's port. A nested class of a listed class is allowed with it.
     */
    public static final Set<String> SERVICE_SIDE_CLASSES = Set.of(
            "archlab.request.RequestContext", "archlab.clock.NanoClock", "archlab.request.Deadline",
            "archlab.request.DeadlineExceededException", "archlab.request.RequestRejectedException",
            "archlab.loadgen.OrderTarget", "archlab.loadgen.BookWorkload", "archlab.loadgen.LatencyHistogram",
            "archlab.loadgen.LatencySummary",
            "archlab.downstream.Inventory", "archlab.downstream.Payments", "archlab.downstream.Notifier",
            "archlab.downstream.Notification", "archlab.downstream.ChargeRequest", "archlab.downstream.ChargeResult",
            "archlab.downstream.DownstreamException", "archlab.downstream.DownstreamTimeoutException",
            "archlab.downstream.PaymentReplyLostException", "archlab.downstream.PaymentDeclinedException",
            "archlab.downstream.PermanentDeliveryException", "archlab.downstream.LatencyModel",
            "archlab.trace.Span", "archlab.profile.ProfiledLock",
            "archlab.background.Backoff", "archlab.background.PollingLoop", "archlab.background.Durations",
            // a second-level cache's capability: its fixture's keys on its fixture's server, no connection of its own
            "archlab.redis.GenerationalCache");

    private HouseRules() {
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

    /** The harness names no checkpoint and no book tool. */
    public static ArchRule harnessKnowsNoCheckpoint() {
        return noClasses().that().resideInAPackage("archlab..")
                .should().dependOnClassesThat().resideInAnyPackage("archlab.order..", "archlab.book..", "archlab.compare..",
                        "archlab.figures..", "archlab.claims..", "archlab.grading..")
                .because("every checkpoint runs under the same, unchanged harness");
    }

    /** No cycle between the harness's top-level packages. */
    public static ArchRule harnessFreeOfCycles() {
        return slices().matching("archlab.(*)..").should().beFreeOfCycles();
    }
}
