package archlab.claims;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Reads a solution's compiled classes before any of them runs, and refuses the solution — grade 0 — when a class
 * <ul>
 *   <li>lies outside the checkpoint's package ({@value IsolatedCheckpoint#SOLUTION_PACKAGE}),</li>
 *   <li>has the name of a class found elsewhere on the grader's class path (a claim, the harness, the adapter, a
 *       library): the first copy on the class path wins, so a student's {@code archlab.claims.ClaimVerdict} would
 *       replace the grader's,</li>
 *   <li>declares a native method, or</li>
 *   <li>uses a type or member {@link StudentCodeRules} refuses (reflection, files, processes, ending the JVM, the
 *       caller's stack, the grader's properties, the runner and the stubs);</li>
 * </ul>
 * and when the folder holds anything but classes (a {@code META-INF/services} file would make JUnit or the JDK run
 * the student's code before the grader's) and SQL migrations ({@code db/migration/V1__name.sql}: SQL that Flyway runs in
 * the lab's PostgreSQL for {@code -Dlab.store=postgres}, never in the grader's JVM; grading builds the service in memory). It also refuses a class path on which two places define the same
 * {@code archlab} class, whoever put it there (a dependency the student's POM added).
 *
 * <p>Stateless; each {@link #check} imports the classes anew with ArchUnit.
 */
public final class StudentCodeCheck {

    /** One reason to refuse a solution. */
    record Refusal(String className, String why) {
        @Override
        public String toString() {
            return className + ": " + why;
        }
    }

    /** A Flyway SQL migration of the checkpoint's store: {@code db/migration/V1__order_table.sql}. */
    private static final java.util.regex.Pattern MIGRATION = java.util.regex.Pattern.compile("db/migration/V\\d+__\\w+\\.sql");

    private StudentCodeCheck() {
    }

    /**
     * @param solutionClasses the solution's compiled main classes (a module's target/classes)
     * @param classPath       the grader's class path, in order (to find classes of the same name elsewhere)
     * @return every refusal, sorted by class; empty: the solution may be graded
     */
    static List<Refusal> check(Path solutionClasses, List<Path> classPath) {
        List<Refusal> refusals = new ArrayList<>();
        Path root = solutionClasses.toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            return List.of(new Refusal(root.toString(), "no compiled classes here: the solution did not build"));
        }
        List<String> classNames = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(Files::isRegularFile).forEach(f -> {
                String rel = root.relativize(f).toString().replace(File.separatorChar, '/');
                if (rel.endsWith(".class")) {
                    classNames.add(rel.substring(0, rel.length() - ".class".length()).replace('/', '.'));
                } else if (!MIGRATION.matcher(rel).matches()) {
                    refusals.add(new Refusal(rel, "only classes compiled from src/main/java (and SQL migrations under"
                            + " db/migration) are graded; a resource such as META-INF/services would run code before the grader"));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + root, e);
        }
        Map<String, List<String>> elsewhere = definedElsewhere(classNames, root, classPath);
        for (String name : classNames) {
            if (!name.startsWith(IsolatedCheckpoint.SOLUTION_PACKAGE + ".")) {
                refusals.add(new Refusal(name, "outside the checkpoint's package " + IsolatedCheckpoint.SOLUTION_PACKAGE
                        + ": a solution defines its own classes only"));
            }
            if (elsewhere.containsKey(name)) {
                refusals.add(new Refusal(name, "has the name of a class of " + String.join(", ", elsewhere.get(name))
                        + ": it would replace the grader's"));
            }
        }
        refusals.addAll(duplicatedHarnessClasses(classPath, root));
        if (!classNames.isEmpty()) {
            refusals.addAll(uses(root, classPath));
        }
        refusals.sort(Comparator.comparing(Refusal::className).thenComparing(Refusal::why));
        return List.copyOf(new LinkedHashSet<>(refusals));
    }

    /**
     * The check as its own JVM, before the student's code is on any class path that runs: {@code grade-student.sh}
     * calls it with the lab's class path only, so a student's class named like this one cannot stand in for it.
     *
     * <p>{@code java -cp <the lab's test class path> archlab.claims.StudentCodeCheck <solution classes> <class path>}:
     * prints one {@code refused <class>: <why>} line per refusal; exit 0 when there is none, 1 when there are, 2 on
     * bad usage.
     */
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: StudentCodeCheck <solution classes folder> <class path the claims run on>");
            System.exit(2);
        }
        List<Path> classPath = Stream.of(args[1].split(File.pathSeparator)).filter(s -> !s.isBlank())
                .map(s -> Path.of(s).toAbsolutePath().normalize()).toList();
        List<Refusal> refusals = check(Path.of(args[0]), classPath);
        refusals.forEach(r -> System.out.println("refused " + r));
        System.out.println(refusals.isEmpty() ? "the solution's classes pass the grader's check" : refusals.size() + " reason(s) to refuse the solution");
        System.exit(refusals.isEmpty() ? 0 : 1);
    }

    /** @return the refusals of {@code check} against this JVM's own class path */
    static List<Refusal> check(Path solutionClasses) {
        return check(solutionClasses, classPathOfThisJvm());
    }

    static List<Path> classPathOfThisJvm() {
        return Stream.of(System.getProperty("java.class.path", "").split(File.pathSeparator))
                .filter(s -> !s.isBlank()).map(s -> Path.of(s).toAbsolutePath().normalize()).toList();
    }

    private static List<Refusal> uses(Path root, List<Path> classPath) {
        try (java.net.URLClassLoader resolver = resolver(root, classPath)) {
            return uses(root, resolver);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the class loader over " + root, e);
        }
    }

    /** Loads classes by name without initialising them (no code of theirs runs): to walk a type's supertypes. */
    private static java.net.URLClassLoader resolver(Path root, List<Path> classPath) {
        List<java.net.URL> urls = new ArrayList<>();
        for (Path p : Stream.concat(Stream.of(root), classPath.stream()).toList()) {
            try {
                urls.add(p.toUri().toURL());
            } catch (java.net.MalformedURLException e) {
                throw new IllegalArgumentException("not a class path entry: " + p, e);
            }
        }
        return new java.net.URLClassLoader(urls.toArray(java.net.URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    /**
     * The rules name the type that declares a member, while a class file names the type it was called through: a
     * call of {@code getStackTrace} on an {@code Exception}, or of {@code readerForUpdating} on a subclass of
     * {@code ObjectMapper}, is judged as the declaring supertype's too. @return the supertypes of {@code owner} that
     * declare a field or method named {@code member}; empty if {@code owner} cannot be loaded
     */
    private static List<String> declaringSupertypes(String owner, String member, ClassLoader resolver) {
        List<String> out = new ArrayList<>();
        if (member.equals("<init>") || member.equals("<clinit>")) {
            return out; // constructors are not inherited
        }
        Class<?> type;
        try {
            type = Class.forName(owner, false, resolver);
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return out;
        }
        java.util.ArrayDeque<Class<?>> todo = new java.util.ArrayDeque<>();
        Set<Class<?>> seen = new java.util.HashSet<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            Class<?> t = todo.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (t != type && declares(t, member)) {
                out.add(t.getName());
            }
            if (t.getSuperclass() != null) {
                todo.add(t.getSuperclass());
            }
            todo.addAll(List.of(t.getInterfaces()));
        }
        return out;
    }

    private static boolean declares(Class<?> t, String member) {
        try {
            return Stream.of(t.getDeclaredMethods()).anyMatch(m -> m.getName().equals(member))
                    || Stream.of(t.getDeclaredFields()).anyMatch(f -> f.getName().equals(member));
        } catch (LinkageError | SecurityException e) {
            return false;
        }
    }

    private static List<Refusal> uses(Path root, ClassLoader resolver) {
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
        JavaClasses classes = new ClassFileImporter().importPath(root);
        List<Refusal> out = new ArrayList<>();
        for (JavaClass c : classes) {
            if (!c.getName().startsWith(IsolatedCheckpoint.SOLUTION_PACKAGE + ".")) {
                continue; // refused already, whatever it uses
            }
            for (JavaMethod m : c.getMethods()) {
                if (m.getModifiers().contains(JavaModifier.NATIVE)) {
                    out.add(new Refusal(c.getName(), "declares native method " + m.getName() + ": code outside the JVM's rules"));
                }
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                while (target.isArray()) {
                    target = target.getComponentType();
                }
                if (target.isPrimitive()) {
                    continue;
                }
                String type = target.getName();
                Optional<String> why = StudentCodeRules.typeDenied(type);
                why.ifPresent(w -> out.add(new Refusal(c.getName(), "uses " + type + ": " + w)));
            }
            for (JavaAccess<?> a : c.getAccessesFromSelf()) {
                String owner = a.getTargetOwner().getName();
                String member = a.getTarget().getName();
                StudentCodeRules.memberDenied(owner, member)
                        .ifPresent(w -> out.add(new Refusal(c.getName(), "uses " + owner + "." + member + ": " + w)));
                for (String declaring : declaringSupertypes(owner, member, resolver)) {
                    StudentCodeRules.memberDenied(declaring, member).ifPresent(w -> out.add(new Refusal(c.getName(),
                            "uses " + owner + "." + member + " (" + declaring + "'s): " + w)));
                }
            }
        }
        return out;
    }

    /** @return for each of {@code classNames}, the other class path entries that hold a class of that name */
    private static Map<String, List<String>> definedElsewhere(List<String> classNames, Path root, List<Path> classPath) {
        Set<String> wanted = new LinkedHashSet<>(classNames);
        Map<String, List<String>> out = new TreeMap<>();
        for (Path entry : classPath) {
            if (entry.equals(root)) {
                continue;
            }
            for (String name : classesIn(entry)) {
                if (wanted.contains(name)) {
                    out.computeIfAbsent(name, k -> new ArrayList<>()).add(describe(entry));
                }
            }
        }
        return out;
    }

    /** @return a refusal for every {@code archlab} class that two class path entries (not the solution's) define */
    private static List<Refusal> duplicatedHarnessClasses(List<Path> classPath, Path root) {
        Map<String, List<String>> where = new LinkedHashMap<>();
        for (Path entry : classPath) {
            if (entry.equals(root)) {
                continue;
            }
            for (String name : classesIn(entry)) {
                if (name.startsWith("archlab.")) {
                    where.computeIfAbsent(name, k -> new ArrayList<>()).add(describe(entry));
                }
            }
        }
        return where.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .map(e -> new Refusal(e.getKey(), "defined twice on the grader's class path (" + String.join(", ", e.getValue())
                        + "): a dependency may not carry the lab's classes"))
                .toList();
    }

    private static List<String> classesIn(Path entry) {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(entry)) {
            try (Stream<Path> files = Files.walk(entry)) {
                files.filter(f -> f.toString().endsWith(".class")).forEach(f -> names.add(className(
                        entry.relativize(f).toString().replace(File.separatorChar, '/'))));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + entry, e);
            }
        } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
            try (JarFile jar = new JarFile(entry.toFile())) {
                jar.stream().map(je -> je.getName()).filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
                        .forEach(n -> names.add(className(n)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + entry, e);
            }
        }
        return names;
    }

    private static String className(String relativePath) {
        return relativePath.substring(0, relativePath.length() - ".class".length()).replace('/', '.');
    }

    private static String describe(Path entry) {
        String s = entry.toString();
        int m2 = s.indexOf("/.m2/repository/");
        if (m2 >= 0) {
            return entry.getFileName().toString();
        }
        Path parent = entry.getParent() == null ? entry : entry.getParent();
        Path grand = parent.getParent() == null ? parent : parent.getParent();
        return grand.getFileName() + "/" + parent.getFileName() + "/" + entry.getFileName();
    }
}
