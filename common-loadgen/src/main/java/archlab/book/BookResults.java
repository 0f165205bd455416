package archlab.book;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Copies the runs' saved reports into {@code book/results/}, where the chapters quote them from:
 * each module's {@code target/reports/*} to {@code book/results/<module>/}, the root's
 * {@code target/reports/*} (cross-module tables) to {@code book/results/}. Text, JSON and Markdown are
 * committed; {@code .jfr} recordings are copied for the flame graphs but ignored by git (they are large).
 *
 * <p>Thread-safety: stateless.
 */
public final class BookResults {

    private BookResults() {
    }

    /** @return the files copied */
    public static List<Path> collect(Path root) {
        List<Path> copied = new ArrayList<>();
        Path results = root.resolve("book/results");
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(p -> Files.isDirectory(p.resolve("target/reports"))).sorted().toList()) {
                Path target = module.equals(root) ? results : results.resolve(module.getFileName().toString());
                copied.addAll(copyReports(module.resolve("target/reports"), target));
            }
            if (Files.isDirectory(root.resolve("target/reports"))) {
                copied.addAll(copyReports(root.resolve("target/reports"), results));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot collect reports under " + root, e);
        }
        return copied;
    }

    private static List<Path> copyReports(Path from, Path to) throws IOException {
        List<Path> copied = new ArrayList<>();
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).filter(BookResults::isReport).sorted().toList()) {
                Path dest = to.resolve(f.getFileName().toString());
                Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING);
                copied.add(dest);
            }
        }
        return copied;
    }

    private static boolean isReport(Path f) {
        String n = f.getFileName().toString();
        return n.endsWith(".txt") || n.endsWith(".json") || n.endsWith(".md") || n.endsWith(".jfr");
    }
}
