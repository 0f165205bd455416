package archlab.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the checkpoints leave their reports, and which Maven session wrote each one. The trap it avoids: a
 * cross-checkpoint table that mixes this session's runs with a report some earlier run left in a module's
 * {@code target/} — every table here filters on {@code environment.session}, the id that the root POM gives
 * every module of one {@code mvn} invocation.
 *
 * <p>Thread-safety: stateless.
 */
public final class SavedReports {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SavedReports() {
    }

    /** The folder of the harness's modules; their reports are saved, and named, as this one module's. */
    public static final String HARNESS = "common-loadgen";

    /**
     * @return every folder under {@code root} that may be a module with reports ({@code <folder>/target/reports}): the
     *         root's own folders, and the harness's modules under {@code common-loadgen/}
     */
    public static List<Path> moduleFolders(Path root) {
        List<Path> folders = new ArrayList<>();
        try (Stream<Path> top = Files.list(root)) {
            folders.addAll(top.filter(Files::isDirectory).toList());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot list modules under " + root, e);
        }
        Path harness = root.resolve(HARNESS);
        if (Files.isDirectory(harness)) {
            try (Stream<Path> modules = Files.list(harness)) {
                folders.addAll(modules.filter(Files::isDirectory).toList());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot list modules under " + harness, e);
            }
        }
        folders.sort(Comparator.naturalOrder());
        return folders;
    }

    /** @return the name a module's reports are saved and quoted under: its folder's, or {@value #HARNESS} for a harness module */
    public static String resultsName(Path moduleFolder) {
        Path parent = moduleFolder.getParent();
        return parent != null && parent.getFileName() != null && parent.getFileName().toString().equals(HARNESS)
                ? HARNESS : moduleFolder.getFileName().toString();
    }

    /**
     * @return every {@code <module>/target/reports/*.json} of the {@link #moduleFolders}, sorted by module, then
     *         {@code baseline.json} first, then by name; an empty list when no module has reports
     */
    public static List<Path> jsonFiles(Path root) {
        List<Path> found = new ArrayList<>();
        try {
            for (Path module : moduleFolders(root)) {
                Path dir = module.resolve("target").resolve("reports");
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> files = Files.list(dir)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".json")).forEach(found::add);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot list reports under " + root, e);
        }
        found.sort(Comparator.comparing(SavedReports::moduleOf)
                .thenComparing(p -> !p.getFileName().toString().equals("baseline.json"))
                .thenComparing(p -> p.getFileName().toString()));
        return found;
    }

    /** @return the module name ({@link #resultsName}) of a file found by {@link #jsonFiles} */
    public static String moduleOf(Path reportFile) {
        return resultsName(reportFile.getParent().getParent().getParent());
    }

    /** @return the file as JSON, or a missing node when it cannot be read or parsed */
    public static JsonNode readOrMissing(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException | RuntimeException e) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
    }

    /** @return the Maven session that wrote {@code file} ({@code environment.session}, or a top-level {@code session}), or "" */
    public static String sessionOf(Path file) {
        com.fasterxml.jackson.databind.JsonNode json = readOrMissing(file);
        // run and sweep reports carry it in their environment; scorecards and tables at their top
        return json.path("environment").path("session").asText(json.path("session").asText(""));
    }
}
