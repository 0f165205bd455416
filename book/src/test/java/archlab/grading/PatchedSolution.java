package archlab.grading;

import archlab.claims.SolutionGrade;
import archlab.claims.SourceCompiler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A checkpoint's code as a student hands it in: the module's {@code src/main} copied to a folder of its own, a patch
 * applied ({@code git apply -p1}), compiled in this JVM, with the module's own adapter
 * ({@code src/test/java/archlab/order/GradedCheckpoint.java}) compiled beside it — what {@link SolutionGrade} grades.
 *
 * @param classes the solution's compiled main classes
 * @param adapter where its {@code archlab.order.GradedCheckpoint} is
 */
record PatchedSolution(Path classes, Path adapter) {

    /**
     * @param book  the book module's folder (the checkpoints are its siblings)
     * @param label names the temporary folder
     * @param base  the checkpoint module, e.g. {@code ch12-1-baseline}
     * @param patch the patch, or null for the checkpoint as shipped
     */
    static PatchedSolution build(Path book, String label, String base, Path patch) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("archlab-" + label.replace('/', '-'));
        Path module = book.resolveSibling(base);
        copy(module.resolve("src/main"), work.resolve("src/main"));
        if (patch != null) {
            apply(patch, work);
        }
        Path classes = work.resolve("classes");
        SourceCompiler.compileTree(work.resolve("src/main/java"), classes);
        Path adapterSrc = work.resolve("adapter-src/archlab/order/GradedCheckpoint.java");
        Files.createDirectories(adapterSrc.getParent());
        Files.copy(module.resolve("src/test/java/archlab/order/GradedCheckpoint.java"), adapterSrc);
        Path adapter = work.resolve("adapter");
        SourceCompiler.compileTree(work.resolve("adapter-src"), adapter, List.of(classes));
        return new PatchedSolution(classes, adapter);
    }

    /** @return the solution graded with {@code chapter}'s claims, as {@code -Dgrade} grades a module */
    /** Grades it as a student's is graded: in processes of its own, over the wire (an attack, untrusted). */
    SolutionGrade grade(String module, String chapter, long seed) {
        return SolutionGrade.of(module, classes, adapter, chapter, seed);
    }

    /** Grades it in this JVM, a class loader per claim: for the lab's own wrong solutions, many times faster. */
    SolutionGrade gradeInThisJvm(String module, String chapter, long seed) {
        return SolutionGrade.inThisJvm(module, classes, adapter, chapter, seed);
    }

    private static void apply(Path patch, Path work) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "apply", "-p1", patch.toAbsolutePath().toString())
                .directory(work.toFile()).redirectErrorStream(true).start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
            throw new IllegalStateException(patch + " does not apply to its base: " + out);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
