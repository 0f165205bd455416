package archlab.claims;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A solution loaded afresh for every claim: its classes (the package {@value #SOLUTION_PACKAGE} and below) come from
 * its own folders through a class loader of their own, so every static field of the solution starts anew with each
 * claim. The trap it closes: a solution that counts in a static how many services were built, or remembers what an
 * earlier claim did, can tell which claim is judging it and answer that claim alone. Everything else (the ports, the
 * stubs, the claims, the libraries) comes from the grader's own class path, so the ports the claims hand in are the
 * types the solution sees.
 *
 * <p>{@link #forClaim()} gives one loader; every service a claim opens through it shares that loader's statics, as
 * the services of one process would.
 */
final class IsolatedCheckpoint {

    /** The package a solution's classes live in: the checkpoint's own. */
    static final String SOLUTION_PACKAGE = "archlab.order";

    private final List<Path> classFolders;
    private final String checkpointClassName;

    /**
     * @param classFolders        where the solution's classes and its {@code GradedCheckpoint} are (class folders or jars)
     * @param checkpointClassName the adapter's binary name, e.g. {@code archlab.order.GradedCheckpoint}
     */
    IsolatedCheckpoint(List<Path> classFolders, String checkpointClassName) {
        this.classFolders = List.copyOf(classFolders);
        this.checkpointClassName = Objects.requireNonNull(checkpointClassName, "checkpointClassName");
        if (!checkpointClassName.startsWith(SOLUTION_PACKAGE + ".")) {
            throw new IllegalArgumentException(checkpointClassName + " is not in " + SOLUTION_PACKAGE);
        }
    }

    /** @return the adapter of {@code checkpoint}'s class, loaded from its own folder and the module's main classes */
    static IsolatedCheckpoint of(Checkpoint checkpoint, Path mainClasses) {
        Path adapterFolder = codeSource(checkpoint.getClass());
        return new IsolatedCheckpoint(List.of(mainClasses, adapterFolder), checkpoint.getClass().getName());
    }

    /** @return a checkpoint whose every {@code open} uses one new loader, for one claim */
    Checkpoint forClaim() {
        SolutionLoader loader = new SolutionLoader(urls(), IsolatedCheckpoint.class.getClassLoader());
        Checkpoint adapter;
        try {
            Class<?> type = Class.forName(checkpointClassName, true, loader);
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            adapter = (Checkpoint) constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot load " + checkpointClassName + " from " + classFolders + ": " + e, e);
        }
        return new Checkpoint() {
            @Override
            public OrderPort open(Inventory inventory, Payments payments, Notifier notifier) {
                return adapter.open(inventory, payments, notifier);
            }

            @Override
            public String toString() {
                return checkpointClassName + " in a loader of its own";
            }
        };
    }

    private URL[] urls() {
        return classFolders.stream().map(p -> {
            try {
                return p.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException(p.toString(), e);
            }
        }).toArray(URL[]::new);
    }

    static Path codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell where " + type.getName() + " was loaded from", e);
        }
    }

    /**
     * Child-first for the solution's package, parent-first for everything else: the solution's classes are defined
     * here even though the grader's class path holds copies of them too (the module's own target/classes).
     */
    private static final class SolutionLoader extends URLClassLoader {

        static {
            registerAsParallelCapable();
        }

        SolutionLoader(URL[] urls, ClassLoader parent) {
            super("solution", urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(SOLUTION_PACKAGE + ".")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String name) {
            return findResource(name) != null ? findResource(name) : super.getResource(name);
        }
    }

    @Override
    public String toString() {
        return checkpointClassName + " from " + classFolders;
    }
}
