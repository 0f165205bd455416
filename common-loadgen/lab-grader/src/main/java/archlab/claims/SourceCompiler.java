package archlab.claims;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a solution's sources in this JVM (the JDK's own {@code javax.tools} compiler), against this JVM's class
 * path, without annotation processing: how the grader builds a wrong solution from a patch, and how its tests build
 * a cheating student's classes. Thread-safe: each call uses a compiler task of its own.
 */
public final class SourceCompiler {

    private SourceCompiler() {
    }

    /**
     * @param sources Java sources by path relative to a source root, e.g. {@code archlab/order/Cheat.java} → its text
     * @param out     the folder the classes go to (created)
     * @throws IllegalStateException with javac's messages when the sources do not compile
     */
    public static void compile(Map<String, String> sources, Path out) {
        try {
            Path src = Files.createTempDirectory("archlab-src");
            for (Map.Entry<String, String> e : sources.entrySet()) {
                Path file = src.resolve(e.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, e.getValue());
            }
            compileTree(src, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compiles every {@code .java} file under {@code sourceRoot} into {@code out}. */
    public static void compileTree(Path sourceRoot, Path out) {
        compileTree(sourceRoot, out, List.of());
    }

    /** Compiles every {@code .java} file under {@code sourceRoot} into {@code out}, with {@code extra} before the class path. */
    public static void compileTree(Path sourceRoot, Path out, List<Path> extra) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("this JVM has no Java compiler (a JRE?): run the grader on a JDK");
        }
        try (Stream<Path> walk = Files.walk(sourceRoot);
             StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            List<File> java = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toFile).toList();
            Files.createDirectories(out);
            StringWriter messages = new StringWriter();
            List<String> options = new ArrayList<>(List.of("-d", out.toString(), "-proc:none", "-nowarn",
                    "-classpath", classPath(extra), "-encoding", "UTF-8"));
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromFiles(java);
            boolean ok = javac.getTask(messages, files, null, options, null, units).call();
            if (!ok) {
                throw new IllegalStateException("the sources under " + sourceRoot + " do not compile:\n" + messages);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String classPath(List<Path> extra) {
        List<String> entries = new ArrayList<>(extra.stream().map(Path::toString).toList());
        entries.add(System.getProperty("java.class.path"));
        return String.join(File.pathSeparator, entries);
    }
}
