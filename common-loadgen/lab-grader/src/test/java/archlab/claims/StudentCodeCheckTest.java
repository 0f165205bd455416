package archlab.claims;

import archlab.loadgen.testing.MultiSecondCheck;
import static org.assertj.core.api.Assertions.assertThat;

import archlab.claims.StudentCodeCheck.Refusal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cheating student against the grader's check: each attack is a few lines a student could put in their
 * {@code src/main}, compiled here, and the check must refuse it, naming the class and why. The honest solution beside
 * them — a service that uses the ports, a lock, a Caffeine cache and Jackson — passes.
 */
@MultiSecondCheck
class StudentCodeCheckTest {

    @TempDir
    Path dir;

    private static String service(String body) {
        return "package archlab.order;\npublic final class Cheat {\n" + body + "\n}\n";
    }

    static List<Arguments> attacks() {
        return List.of(
                Arguments.of("a ClaimVerdict of its own that always passes", "archlab/claims/ClaimVerdict.java",
                        "package archlab.claims;\npublic record ClaimVerdict(String outcome, String measured) {}\n",
                        "outside the checkpoint's package"),
                Arguments.of("a harness class of its own", "archlab/downstream/PaymentsStub.java",
                        "package archlab.downstream;\npublic class PaymentsStub {}\n", "has the name of a class of"),
                Arguments.of("reflection on the ledger", "archlab/order/Cheat.java", service(
                        "static Object peek(Object o) throws Exception { var f = o.getClass().getDeclaredField(\"ledger\");"
                                + " f.setAccessible(true); return f.get(o); }"), "java.lang.reflect"),
                Arguments.of("writing the scorecard with java.nio.file", "archlab/order/Cheat.java", service(
                        "static void forge() throws Exception { java.nio.file.Files.writeString(java.nio.file.Path.of("
                                + "\"target/reports/grade-12.2.md\"), \"points 20/20\"); }"), "java.nio.file"),
                Arguments.of("writing the scorecard with a FileWriter", "archlab/order/Cheat.java", service(
                        "static void forge() throws Exception { try (var w = new java.io.FileWriter(\"target/reports/grade-12.2.md\"))"
                                + " { w.write(\"points 20/20\"); } }"), "java.io.FileWriter"),
                Arguments.of("writing the scorecard with a Formatter", "archlab/order/Cheat.java", service(
                        "static void forge() throws Exception { try (var f = new java.util.Formatter(\"target/reports/grade-12.2.md\"))"
                                + " { f.format(\"points 20/20\"); } }"), "java.util.Formatter"),
                Arguments.of("writing the scorecard with a PrintStream", "archlab/order/Cheat.java", service(
                        "static void forge() throws Exception { new java.io.PrintStream(\"target/reports/grade-12.2.md\").print(1); }"),
                        "java.io.PrintStream.<init>"),
                Arguments.of("ending the JVM before the scorecard", "archlab/order/Cheat.java", service(
                        "static void end() { System.exit(0); }"), "java.lang.System.exit"),
                Arguments.of("halting the JVM", "archlab/order/Cheat.java", service(
                        "static void end() { Runtime.getRuntime().halt(0); }"), "java.lang.Runtime"),
                Arguments.of("a shutdown hook that rewrites the scorecard", "archlab/order/Cheat.java", service(
                        "static void hook() { Runtime.getRuntime().addShutdownHook(new Thread(() -> {})); }"), "java.lang.Runtime"),
                Arguments.of("reading the caller's stack to know the claim", "archlab/order/Cheat.java", service(
                        "static String caller() { return new Throwable().getStackTrace()[2].getMethodName(); }"),
                        "java.lang.Throwable.getStackTrace"),
                Arguments.of("walking the stack", "archlab/order/Cheat.java", service(
                        "static Object caller() { return StackWalker.getInstance().walk(s -> s.skip(2).findFirst()); }"),
                        "java.lang.StackWalker"),
                Arguments.of("asking whether it is being graded", "archlab/order/Cheat.java", service(
                        "static boolean graded() { return System.getProperty(\"grade\") != null; }"), "java.lang.System.getProperty"),
                Arguments.of("the environment", "archlab/order/Cheat.java", service(
                        "static String env() { return System.getenv(\"CI\"); }"), "java.lang.System.getenv"),
                Arguments.of("a system property through Integer.getInteger", "archlab/order/Cheat.java", service(
                        "static Integer graded() { return Integer.getInteger(\"grade\"); }"), "java.lang.Integer.getInteger"),
                Arguments.of("loading the claims by name", "archlab/order/Cheat.java", service(
                        "static Object claims() throws Exception { return Class.forName(\"archlab.claims.Suite\"); }"),
                        "java.lang.Class.forName"),
                Arguments.of("reading the claims' class files", "archlab/order/Cheat.java", service(
                        "static Object expected() { return Cheat.class.getClassLoader().getResourceAsStream("
                                + "\"archlab/claims/RefactorClaims.class\"); }"), "java.lang.Class.getClassLoader"),
                Arguments.of("a private lookup", "archlab/order/Cheat.java", service(
                        "static Object lookup(Class<?> c) throws Exception { return java.lang.invoke.MethodHandles.privateLookupIn(c,"
                                + " java.lang.invoke.MethodHandles.lookup()); }"), "java.lang.invoke.MethodHandles"),
                Arguments.of("a field updater by name", "archlab/order/Cheat.java", service(
                        "volatile long n; static Object u() { return java.util.concurrent.atomic.AtomicLongFieldUpdater.newUpdater("
                                + "Cheat.class, \"n\"); }"), "AtomicLongFieldUpdater"),
                Arguments.of("Jackson writing into the grader's stub", "archlab/order/Cheat.java", service(
                        "static void rewrite(Object stub) throws Exception { new com.fasterxml.jackson.databind.ObjectMapper()"
                                + ".readerForUpdating(stub).readValue(\"{}\"); }"), "readerForUpdating"),
                Arguments.of("Jackson building classes named in its input", "archlab/order/Cheat.java", service(
                        "static Object any(String json) throws Exception { var m = new com.fasterxml.jackson.databind.ObjectMapper();"
                                + " m.activateDefaultTyping(m.getPolymorphicTypeValidator()); return m.readValue(json, Object.class); }"),
                        "activateDefaultTyping"),
                Arguments.of("the ledger reached by a cast", "archlab/order/Cheat.java", service(
                        "static long charges(archlab.downstream.Payments p) { return ((archlab.downstream.PaymentsStub) p)"
                                + ".ledger().charges(); }"), "archlab.downstream.PaymentsStub"),
                Arguments.of("a database connection of its own, past the DataSource a store is given", "archlab/order/Cheat.java",
                        service("static Object db() throws Exception { return java.sql.DriverManager.getConnection("
                                + "\"jdbc:postgresql://127.0.0.1/archlab\"); }"), "java.sql.DriverManager"),
                Arguments.of("the runner", "archlab/order/Cheat.java", service(
                        "static Object runner() { return new archlab.loadgen.OpenLoopRunner(); }"), "archlab.loadgen.OpenLoopRunner"),
                Arguments.of("state left on the grader's thread", "archlab/order/Cheat.java", service(
                        "static void mark() { Thread.currentThread().setName(\"claim-3\"); }"), "java.lang.Thread.setName"),
                Arguments.of("the JDK's internals", "archlab/order/Cheat.java", service(
                        "static Object unsafe() { return sun.misc.Unsafe.class; }"), "sun.misc"),
                Arguments.of("a process", "archlab/order/Cheat.java", service(
                        "static void run() throws Exception { new ProcessBuilder(\"true\").start(); }"), "java.lang.ProcessBuilder"),
                Arguments.of("a socket", "archlab/order/Cheat.java", service(
                        "static void call() throws Exception { new java.net.Socket(\"127.0.0.1\", 1).close(); }"), "java.net"),
                // a call names the type it went through, not the one declaring the member: judged as the declarer's too
                Arguments.of("the stack through an Exception, not a Throwable", "archlab/order/Cheat.java", service(
                        "static Object[] who() { return new Exception().getStackTrace(); }"), "(java.lang.Throwable's)"),
                Arguments.of("Jackson through a subclass of ObjectMapper", "archlab/order/Cheat.java", service(
                        "static final class M extends com.fasterxml.jackson.databind.ObjectMapper {}\n"
                                + "static Object into(Object grader) { return new M().readerForUpdating(grader); }"),
                        "(com.fasterxml.jackson.databind.ObjectMapper's)"),
                Arguments.of("a JVM-wide time zone through SimpleTimeZone", "archlab/order/Cheat.java", service(
                        "static void mark() { java.util.SimpleTimeZone.setDefault(new java.util.SimpleTimeZone(7, \"x\")); }"),
                        "(java.util.TimeZone's)"),
                Arguments.of("every thread's stack through ForkJoinWorkerThread", "archlab/order/Cheat.java", service(
                        "static Object all() { return java.util.concurrent.ForkJoinWorkerThread.getAllStackTraces(); }"),
                        "(java.lang.Thread's)"));
    }

    @ParameterizedTest(name = "refused: {0}")
    @MethodSource("attacks")
    @DisplayName("each attack a student could hide in src/main is refused before it runs, naming the class and why")
    void refused(String attack, String file, String source, String named) {
        Path classes = dir.resolve("classes");
        SourceCompiler.compile(Map.of(file, source), classes);

        List<Refusal> refusals = StudentCodeCheck.check(classes);

        assertThat(refusals).as(attack).isNotEmpty();
        assertThat(refusals.toString()).as(attack).contains(named);
        String className = file.replace(".java", "").replace('/', '.');
        assertThat(refusals).as(attack).anyMatch(r -> r.className().startsWith(className));
    }

    @Test
    @DisplayName("an honest service — ports, a deadline, a lock, a Caffeine-free map, Jackson, a virtual thread, a record — passes")
    void honestServicePasses() {
        Path classes = dir.resolve("classes");
        SourceCompiler.compile(Map.of("archlab/order/Honest.java", """
                package archlab.order;
                import archlab.downstream.Payments;
                import archlab.request.RequestContext;
                import com.fasterxml.jackson.databind.ObjectMapper;
                import java.util.concurrent.ConcurrentHashMap;
                import java.util.concurrent.locks.ReentrantLock;
                public final class Honest {
                    record Row(String id, int version) {}
                    private static final ObjectMapper JSON = new ObjectMapper();
                    private final ConcurrentHashMap<String, Row> rows = new ConcurrentHashMap<>();
                    private final ReentrantLock lock = new ReentrantLock();
                    Row copy(Row r) throws Exception { return JSON.readValue(JSON.writeValueAsBytes(r), Row.class); }
                    void put(RequestContext ctx, Payments payments, String id) {
                        lock.lock();
                        try { rows.merge(id, new Row(id, 0), (a, b) -> new Row(id, a.version() + 1)); } finally { lock.unlock(); }
                        Thread.ofVirtual().start(() -> System.out.println("row " + id + " at " + System.nanoTime()));
                        switch (rows.get(id)) { case Row r when r.version() > 0 -> System.out.println(r); default -> { } }
                    }
                }
                """), classes);

        assertThat(StudentCodeCheck.check(classes)).isEmpty();
    }

    @Test
    @DisplayName("a resource beside the classes (a META-INF/services file would run the student's code before the grader) is refused; a SQL migration under db/migration is not")
    void resourcesRefused() throws IOException {
        Path classes = dir.resolve("classes");
        SourceCompiler.compile(Map.of("archlab/order/Listener.java", "package archlab.order;\npublic class Listener {}\n"), classes);
        Path services = classes.resolve("META-INF/services/org.junit.platform.launcher.LauncherSessionListener");
        Files.createDirectories(services.getParent());
        Files.writeString(services, "archlab.order.Listener\n");
        Path migration = classes.resolve("db/migration/V1__order_table.sql");
        Files.createDirectories(migration.getParent());
        Files.writeString(migration, "CREATE TABLE orders (id text PRIMARY KEY);\n");
        Files.writeString(classes.resolve("db/migration/not-a-migration.class.txt"), "x\n");

        assertThat(StudentCodeCheck.check(classes)).extracting(Refusal::className)
                .contains("META-INF/services/org.junit.platform.launcher.LauncherSessionListener",
                        "db/migration/not-a-migration.class.txt")
                .doesNotContain("db/migration/V1__order_table.sql");
    }

    @Test
    @DisplayName("a class named like the grader's adapter or a library's, and a dependency carrying a lab class, are refused")
    void collisionsOnTheClassPathRefused() {
        Path grader = dir.resolve("grader");
        SourceCompiler.compile(Map.of("archlab/order/GradedCheckpoint.java", "package archlab.order;\nclass GradedCheckpoint {}\n"), grader);
        Path dependency = dir.resolve("dependency");
        SourceCompiler.compile(Map.of("archlab/claims/ClaimVerdict.java", "package archlab.claims;\npublic class ClaimVerdict {}\n"), dependency);
        Path student = dir.resolve("student");
        SourceCompiler.compile(Map.of("archlab/order/GradedCheckpoint.java", "package archlab.order;\nclass GradedCheckpoint {}\n"), student);
        List<Path> classPath = new ArrayList<>(StudentCodeCheck.classPathOfThisJvm());
        classPath.add(0, grader);
        classPath.add(0, dependency);

        List<Refusal> refusals = StudentCodeCheck.check(student, classPath);

        assertThat(refusals.toString()).contains("archlab.order.GradedCheckpoint: has the name of a class of")
                .contains("archlab.claims.ClaimVerdict: defined twice on the grader's class path");
    }

    @Test
    @DisplayName("a native method is refused")
    void nativeRefused() {
        Path classes = dir.resolve("classes");
        SourceCompiler.compile(Map.of("archlab/order/Native.java", "package archlab.order;\npublic class Native { static native void go(); }\n"), classes);

        assertThat(StudentCodeCheck.check(classes).toString()).contains("declares native method go");
    }
}
