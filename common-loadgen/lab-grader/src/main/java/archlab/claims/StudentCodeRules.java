package archlab.claims;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a graded solution's classes may use — an allow list of packages and harness classes, and inside it a deny
 * list of the types and members through which code in the grader's JVM could reach past the ports: the grader's
 * files, its process, its class loaders, its stack, its system properties, reflection on the grader's objects.
 *
 * <p>The trap it closes: the claims run in the same JVM as the solution, so a solution that can reflect on the
 * ledger, write {@code target/reports/grade-12.2.md}, end the JVM before the scorecard is written, or read its
 * caller's stack to learn which claim is judging it, can award itself points. Nothing here is needed by a service
 * that keeps orders, calls its downstreams and runs background work: the three checkpoints pass these rules, and a
 * test ({@code StudentCodeCheckTest}) shows each attack refused.
 *
 * <p>It is a deny list inside an allow list, not a sandbox: what it does not name (a side channel through timing,
 * answers hard-coded to the claims' inputs) is not caught here; book/guide.md says what is and what is not.
 */
final class StudentCodeRules {

    private StudentCodeRules() {
    }

    /** Packages whose every type a solution may use (exact package names), unless denied below. */
    static final Set<String> PACKAGES = Set.of(
            "java.lang", "java.lang.annotation", "java.lang.runtime", "java.lang.invoke",
            "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.util.concurrent.locks",
            "java.util.function", "java.util.stream", "java.util.random", "java.math", "java.text", "java.nio.charset",
            "java.time", "java.time.format", "java.time.temporal", "java.time.chrono",
            // a store in PostgreSQL (-Dlab.store=postgres) works on the DataSource its fixture hands it; the graders'
            // GradedCheckpoint builds the service in memory, so none of it runs while a solution is graded
            "java.sql", "javax.sql");

    /** Package prefixes of the libraries a solution may use (its own package, Caffeine, Bucket4j, Jackson, HdrHistogram). */
    static final List<String> PACKAGE_PREFIXES = List.of(
            IsolatedCheckpoint.SOLUTION_PACKAGE + ".", "com.github.benmanes.caffeine.", "io.github.bucket4j.",
            "com.fasterxml.jackson.", "org.HdrHistogram.");

    /** The harness's service side, the only part of the harness a solution may use ({@link archlab.house.HouseRules}). */
    static final Set<String> HARNESS_CLASSES = archlab.house.HouseRules.SERVICE_SIDE_CLASSES;

    /** The few types of java.io a service has a use for: no file, no descriptor, no serialization. */
    static final Set<String> JAVA_IO = Set.of(
            "java.io.IOException", "java.io.UncheckedIOException", "java.io.Serializable", "java.io.Closeable",
            "java.io.Flushable", "java.io.InputStream", "java.io.OutputStream", "java.io.ByteArrayInputStream",
            "java.io.ByteArrayOutputStream", "java.io.StringReader", "java.io.StringWriter", "java.io.Reader",
            "java.io.Writer", "java.io.PrintStream", "java.io.InterruptedIOException", "java.io.EOFException");

    /** Types refused inside the allowed packages, with why. */
    static final Map<String, String> DENIED_TYPES = Map.ofEntries(
            Map.entry("java.lang.Runtime", "ends or inspects the grader's JVM (exit, halt, shutdown hooks, exec)"),
            Map.entry("java.lang.ProcessBuilder", "starts processes outside the grader"),
            Map.entry("java.lang.Process", "starts processes outside the grader"),
            Map.entry("java.lang.ProcessHandle", "reaches other processes"),
            Map.entry("java.lang.ClassLoader", "loads or reads classes and resources of the grader"),
            Map.entry("java.lang.Module", "opens the grader's packages to reflection"),
            Map.entry("java.lang.ModuleLayer", "opens the grader's packages to reflection"),
            Map.entry("java.lang.StackWalker", "reads the caller's stack: which claim is judging"),
            Map.entry("java.lang.StackTraceElement", "reads the caller's stack: which claim is judging"),
            Map.entry("java.lang.ThreadGroup", "reaches the grader's threads"),
            Map.entry("java.lang.SecurityManager", "changes the JVM's security"),
            Map.entry("java.lang.invoke.MethodHandles", "reflection on the grader's objects"),
            Map.entry("java.lang.invoke.MethodHandles$Lookup", "reflection on the grader's objects"),
            Map.entry("java.lang.invoke.VarHandle", "reflection on the grader's objects"),
            Map.entry("java.lang.invoke.MethodHandle", "reflection on the grader's objects"),
            Map.entry("java.lang.invoke.MethodHandleProxies", "reflection on the grader's objects"),
            Map.entry("java.util.ServiceLoader", "loads classes of the grader's class path by name"),
            Map.entry("java.sql.DriverManager", "loads drivers of the grader's class path by name and connects anywhere;"
                    + " a store uses the DataSource it is given"),
            Map.entry("java.util.Formatter", "writes files by name"),
            Map.entry("java.util.concurrent.atomic.AtomicIntegerFieldUpdater", "reflection on fields by name"),
            Map.entry("java.util.concurrent.atomic.AtomicLongFieldUpdater", "reflection on fields by name"),
            Map.entry("java.util.concurrent.atomic.AtomicReferenceFieldUpdater", "reflection on fields by name"),
            Map.entry("com.fasterxml.jackson.annotation.JsonTypeInfo", "makes Jackson build any class named in the input"),
            Map.entry("com.fasterxml.jackson.annotation.JsonSubTypes", "makes Jackson build classes named in the input"),
            Map.entry("com.fasterxml.jackson.annotation.JacksonInject", "injects the grader's objects"));

    /**
     * Members of otherwise allowed types that a solution may use, where the type itself holds dangerous members:
     * every other member of these types is refused.
     */
    static final Map<String, Set<String>> ONLY_MEMBERS = Map.of(
            "java.lang.System", Set.of("nanoTime", "currentTimeMillis", "arraycopy", "identityHashCode", "lineSeparator",
                    "out", "err"),
            "java.lang.Class", Set.of("getName", "getSimpleName", "getTypeName", "isInstance", "cast",
                    "desiredAssertionStatus", "hashCode", "equals", "toString", "isAssignableFrom", "getEnumConstants",
                    "isEnum", "isRecord", "isArray"),
            "java.io.PrintStream", Set.of("print", "println", "printf", "format", "flush", "write", "append", "checkError"));

    /** Members refused by name on the type that declares them (or a library's types, for Jackson), with why. */
    static final Map<String, Map<String, String>> DENIED_MEMBERS = Map.of(
            "java.lang.Thread", Map.of(
                    "getStackTrace", "reads the caller's stack: which claim is judging",
                    "getAllStackTraces", "reads every thread's stack, the grader's included",
                    "enumerate", "reaches the grader's threads", "getThreadGroup", "reaches the grader's threads",
                    "setName", "leaves state on the grader's thread for a later claim",
                    "setPriority", "leaves state on the grader's thread for a later claim",
                    "getContextClassLoader", "loads or reads classes and resources of the grader",
                    "setContextClassLoader", "changes how the grader loads classes",
                    "setDefaultUncaughtExceptionHandler", "changes how the grader's threads end",
                    "stop", "ends the grader's threads"),
            "java.lang.Throwable", Map.of("getStackTrace", "reads the caller's stack: which claim is judging",
                    "setStackTrace", "rewrites a stack the grader reports"),
            "java.lang.Integer", Map.of("getInteger", "reads the grader's system properties"),
            "java.lang.Long", Map.of("getLong", "reads the grader's system properties"),
            "java.lang.Boolean", Map.of("getBoolean", "reads the grader's system properties"),
            "java.util.Locale", Map.of("setDefault", "leaves state in the JVM for a later claim"),
            "java.util.TimeZone", Map.of("setDefault", "leaves state in the JVM for a later claim"));

    /** Jackson members, on any Jackson type, that write into existing objects or build classes named by the input. */
    static final Map<String, String> DENIED_JACKSON_MEMBERS = Map.ofEntries(
            Map.entry("readerForUpdating", "writes into an existing object (the grader's)"),
            Map.entry("updateValue", "writes into an existing object (the grader's)"),
            Map.entry("withValueToUpdate", "writes into an existing object (the grader's)"),
            Map.entry("setVisibility", "reads and writes private fields of every class"),
            Map.entry("visibility", "reads and writes private fields of every class"),
            Map.entry("activateDefaultTyping", "builds any class named in the input"),
            Map.entry("activateDefaultTypingAsProperty", "builds any class named in the input"),
            Map.entry("enableDefaultTyping", "builds any class named in the input"),
            Map.entry("enableDefaultTypingAsProperty", "builds any class named in the input"),
            Map.entry("setDefaultTyping", "builds any class named in the input"),
            Map.entry("setPolymorphicTypeValidator", "builds any class named in the input"),
            Map.entry("polymorphicTypeValidator", "builds any class named in the input"),
            Map.entry("registerSubtypes", "builds classes named in the input"),
            Map.entry("addMixIn", "adds annotations to the grader's classes"),
            Map.entry("addMixIns", "adds annotations to the grader's classes"),
            Map.entry("setMixIns", "adds annotations to the grader's classes"),
            Map.entry("setMixInResolver", "adds annotations to the grader's classes"),
            Map.entry("setInjectableValues", "injects the grader's objects"),
            Map.entry("injectableValues", "injects the grader's objects"),
            Map.entry("findAndRegisterModules", "loads classes of the grader's class path by name"),
            Map.entry("findModules", "loads classes of the grader's class path by name"),
            Map.entry("constructFromCanonical", "loads classes by name"),
            Map.entry("findClass", "loads classes by name"));

    /**
     * @param owner  the binary name of the type a member belongs to
     * @param member the member's name ({@code <init>} for a constructor)
     * @return why the solution may not use it, or empty if it may
     */
    static Optional<String> memberDenied(String owner, String member) {
        Set<String> only = ONLY_MEMBERS.get(owner);
        if (only != null && !only.contains(member)) {
            return Optional.of("only " + String.join(", ", new java.util.TreeSet<>(only)) + " of " + owner
                    + " may be used (the rest reach the grader's JVM, files or properties)");
        }
        Map<String, String> denied = DENIED_MEMBERS.get(owner);
        if (denied != null && denied.containsKey(member)) {
            return Optional.of(denied.get(member));
        }
        if (owner.startsWith("com.fasterxml.jackson.") && DENIED_JACKSON_MEMBERS.containsKey(member)) {
            return Optional.of(DENIED_JACKSON_MEMBERS.get(member));
        }
        return Optional.empty();
    }

    /**
     * @param type a referenced type's binary name (arrays already stripped)
     * @return why the solution may not use it, or empty if it may
     */
    static Optional<String> typeDenied(String type) {
        if (DENIED_TYPES.containsKey(type)) {
            return Optional.of(DENIED_TYPES.get(type));
        }
        if (type.startsWith("java.lang.reflect.")) {
            return Optional.of("reflection on the grader's objects");
        }
        if (PACKAGE_PREFIXES.stream().anyMatch(type::startsWith)) {
            return Optional.empty();
        }
        String outer = type.contains("$") ? type.substring(0, type.indexOf('$')) : type;
        if (type.startsWith("archlab.")) {
            return HARNESS_CLASSES.contains(outer) ? Optional.empty()
                    : Optional.of("not a port of the harness: a solution may use only " + harnessPackages()
                    + " (the runner, the stubs, the ledger, the claims and the reports are the grader's)");
        }
        if (type.startsWith("java.io.")) {
            return JAVA_IO.contains(type) ? Optional.empty()
                    : Optional.of("files, descriptors and serialization are the grader's; only " + JAVA_IO.size()
                    + " stream and exception types of java.io may be used");
        }
        String pkg = type.contains(".") ? type.substring(0, type.lastIndexOf('.')) : "";
        if (PACKAGES.contains(pkg)) {
            return Optional.empty();
        }
        return Optional.of("package " + pkg + " is outside what a service needs (files, network, reflection, the JVM's"
                + " management); allowed: " + String.join(", ", new java.util.TreeSet<>(PACKAGES)) + " and "
                + String.join(", ", PACKAGE_PREFIXES));
    }

    private static String harnessPackages() {
        return String.join(", ", new java.util.TreeSet<>(HARNESS_CLASSES));
    }
}
