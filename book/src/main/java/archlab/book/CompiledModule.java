package archlab.book;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One module's compiled tests, as Maven's test run sees them: {@code <module>/target/test-classes}, its
 * {@code target/classes}, and the jars and reactor folders of its test class path, which the root POM's
 * {@code dependency:build-classpath} execution writes to {@code <module>/target/test-classpath.txt} in every module.
 *
 * <p>The traps it avoids:
 * <ul>
 *   <li><b>One class loader for every module.</b> The checkpoints' tests share package and class names
 *       ({@code archlab.order.OrderServiceTest} in each), so a shared loader would hand every module the classes of
 *       the first one it loaded. Each module gets {@linkplain #classLoader a loader of its own}, and that loader
 *       takes the module's own classes from the module's own {@code target/} even when the parent (the book's class
 *       path) has classes of the same name, as it has for {@code common-loadgen} and {@code book}: a test class
 *       and the main class it tests are then always in one runtime package.</li>
 *   <li><b>Tests that are not the sources'.</b> A fresh clone built with {@code mvn -pl book test} compiles only
 *       {@code common-loadgen} besides the book, and test classes compiled before their sources last changed would
 *       list the old tests. Such a module is {@linkplain #notCompiled not read}: the book says so and what to run,
 *       rather than pass on a guess or fail on stale classes.</li>
 * </ul>
 */
final class CompiledModule {

    /** Where each module's test class path is written (relative to the module), one line, path-separated. */
    static final String CLASSPATH_FILE = "target/test-classpath.txt";

    private final String name;
    private final Path dir;

    private CompiledModule(String name, Path dir) {
        this.name = name;
        this.dir = dir;
    }

    /**
     * @param module the module's folder name under {@code root}
     * @throws IllegalArgumentException if the module's folder or its {@code src/test/java} is missing
     */
    static CompiledModule of(Path root, String module) {
        Path dir = root.resolve(module);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no module directory " + module + " under " + root);
        }
        if (!Files.isDirectory(dir.resolve("src/test/java"))) {
            throw new IllegalArgumentException("module " + module + " has no src/test/java");
        }
        return new CompiledModule(module, dir);
    }

    String name() {
        return name;
    }

    /** @return {@code <module>/target/test-classes}: where discovery looks for test classes */
    Path testClasses() {
        return dir.resolve("target/test-classes");
    }

    /**
     * @return why this module's compiled tests cannot be read as its sources' tests, with what to run; empty if
     *         they can: its test classes exist, its test class path was written, and no test source is newer than
     *         the newest test class
     */
    Optional<String> notCompiled() {
        String why;
        if (!Files.isDirectory(testClasses())) {
            why = "its test classes are not compiled";
        } else if (!Files.isRegularFile(dir.resolve(CLASSPATH_FILE))) {
            why = "its test class path (" + CLASSPATH_FILE + ") is not written";
        } else if (newest(dir.resolve("src/test/java"), ".java").compareTo(newest(testClasses(), ".class")) > 0) {
            why = "its test classes are older than its test sources";
        } else {
            return Optional.empty();
        }
        return Optional.of("claims of " + name + " not checked: " + why + " — run `mvn test` at the root");
    }

    /**
     * A class loader of the module's tests, to be closed after use: the module's {@code target/test-classes} and
     * {@code target/classes} first, then its test class path. A class or resource found in the module's own two
     * folders is always taken from there; anything else is asked of {@code parent} first, so that the JUnit API
     * the tests are annotated with is the one the book's JUnit engine reads.
     */
    URLClassLoader classLoader(ClassLoader parent) {
        List<Path> own = Stream.of(testClasses(), dir.resolve("target/classes")).filter(Files::isDirectory).toList();
        List<URL> urls = new ArrayList<>();
        own.forEach(p -> urls.add(url(p)));
        for (String entry : read(dir.resolve(CLASSPATH_FILE)).strip().split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                urls.add(url(Path.of(entry.strip())));
            }
        }
        return new OwnClassesFirst(name, urls.toArray(URL[]::new), parent, own);
    }

    /** Parent-first, except for what the module's own folders hold. */
    private static final class OwnClassesFirst extends URLClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final List<Path> own;

        OwnClassesFirst(String module, URL[] urls, ClassLoader parent, List<Path> own) {
            super("tests of " + module, urls, parent);
            this.own = own;
        }

        @Override
        protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(className)) {
                Class<?> c = findLoadedClass(className);
                if (c == null && ownFile(className.replace('.', '/') + ".class").isPresent()) {
                    c = findClass(className); // the own folders come first among the URLs
                }
                if (c == null) {
                    return super.loadClass(className, resolve);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String resource) {
            return ownFile(resource).map(CompiledModule::url).orElseGet(() -> super.getResource(resource));
        }

        private Optional<Path> ownFile(String resource) {
            return own.stream().map(p -> p.resolve(resource)).filter(Files::isRegularFile).findFirst();
        }
    }

    /** The newest modification time of the files under {@code folder} whose name ends in {@code suffix}. */
    private static FileTime newest(Path folder, String suffix) {
        FileTime newest = FileTime.fromMillis(0);
        if (!Files.isDirectory(folder)) {
            return newest;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : files.filter(p -> p.toString().endsWith(suffix) && Files.isRegularFile(p)).toList()) {
                FileTime t = Files.getLastModifiedTime(f);
                if (t.compareTo(newest) > 0) {
                    newest = t;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder, e);
        }
        return newest;
    }

    private static URL url(Path p) {
        try {
            return p.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a class path entry: " + p, e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
