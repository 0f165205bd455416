package archlab.loadgen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The lab's root folder (the one holding {@code .mvn/} and the root {@code pom.xml}), for tests that read the book's
 * saved results, the README or another module's files. Maven gives it as {@code archlab.root.dir}; outside Maven it is
 * found by walking up from {@code archlab.module.dir} (or the working directory) to the first folder with a {@code .mvn}.
 *
 * <p>Stateless; thread-safe.
 */
public final class RepoRoot {

    private RepoRoot() {
    }

    /** @return the lab's root folder, absolute and normalised */
    public static Path path() {
        String given = System.getProperty("archlab.root.dir");
        if (given != null && !given.isBlank()) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        Path start = Path.of(System.getProperty("archlab.module.dir", ".")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".mvn"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no folder with .mvn/ above " + start + ": run the test from the lab's clone");
    }

    /**
     * @return every module folder of the lab that holds sources (a {@code pom.xml} and a {@code src/} folder): the
     *         checkpoints and the book at the top, the harness's modules under {@code common-loadgen/}; sorted
     */
    public static List<Path> moduleDirs() {
        Path root = path();
        try (Stream<Path> top = Files.list(root); Stream<Path> harness = Files.list(root.resolve("common-loadgen"))) {
            return Stream.concat(top, harness)
                    .filter(m -> Files.isRegularFile(m.resolve("pom.xml")) && Files.isDirectory(m.resolve("src")))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
