package archlab.house;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Finds constructor calls ({@code new X(…)}) with more than a given number of positional arguments in Java sources:
 * past a handful, a reader can no longer tell which figure is which, and a swapped pair of {@code long}s compiles.
 * Such a value is built from named parts or by a builder instead.
 *
 * <p>Two places may call a wide constructor, since they are where the names are given: a builder's {@code build()}
 * method (no parameters), and a record's own copy method {@code with…(…)} calling that record's constructor.
 *
 * <p>The sources are only parsed (javac's tree API), never compiled: no class path is needed. Stateless.
 */
final class PositionalCalls {

    private PositionalCalls() {
    }

    /**
     * One call with too many positional arguments.
     *
     * @param file      the source file, relative to the folder scanned
     * @param line      1-based line of the {@code new}
     * @param type      the class constructed, as written ({@code RunResult.OperationResult}, {@code Row})
     * @param arguments how many arguments it passes
     */
    record Call(Path file, long line, String type, int arguments) {

        @Override
        public String toString() {
            return file + ":" + line + " new " + type + "(…" + arguments + " arguments)";
        }
    }

    /**
     * @param root          the folder the files are named relative to
     * @param sourceRoots   folders to scan for {@code *.java} (missing ones are skipped)
     * @param maxArguments  the most positional arguments a call may pass
     * @return every call passing more than {@code maxArguments}, outside the exempt places, by file and line
     */
    static List<Call> wideCalls(Path root, List<Path> sourceRoots, int maxArguments) {
        List<Path> files = sourceRoots.stream().filter(Files::isDirectory).flatMap(PositionalCalls::javaFiles).toList();
        if (files.isEmpty()) {
            return List.of();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<Call> calls = new ArrayList<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(null, fm, null, List.of("-proc:none"), null,
                    fm.getJavaFileObjectsFromPaths(files));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            for (CompilationUnitTree unit : task.parse()) {
                Path file = root.relativize(Path.of(unit.getSourceFile().toUri()));
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitNewClass(NewClassTree call, Void unused) {
                        String type = typeName(call.getIdentifier());
                        if (call.getArguments().size() > maxArguments && !exempt(getCurrentPath(), type)) {
                            long line = unit.getLineMap().getLineNumber(positions.getStartPosition(unit, call));
                            calls.add(new Call(file, line, type, call.getArguments().size()));
                        }
                        return super.visitNewClass(call, unused);
                    }
                }.scan(unit, null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        calls.sort(Comparator.comparing((Call c) -> c.file().toString()).thenComparingLong(Call::line));
        return calls;
    }

    private static Stream<Path> javaFiles(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** Whether the call at {@code path} is in a builder's {@code build()}, or a record's {@code with…} of itself. */
    private static boolean exempt(TreePath path, String type) {
        MethodTree method = null;
        for (TreePath p = path; p != null; p = p.getParentPath()) {
            Tree t = p.getLeaf();
            if (t instanceof MethodTree m && method == null) {
                method = m;
            } else if (t instanceof ClassTree c && method != null) {
                String name = method.getName().toString();
                boolean build = name.equals("build") && method.getParameters().isEmpty();
                boolean copy = c.getKind() == Tree.Kind.RECORD && name.startsWith("with")
                        && simpleName(type).equals(c.getSimpleName().toString());
                return build || copy;
            }
        }
        return false;
    }

    private static String typeName(ExpressionTree identifier) {
        ExpressionTree t = identifier instanceof ParameterizedTypeTree p ? (ExpressionTree) p.getType() : identifier;
        return t.toString();
    }

    private static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }
}
