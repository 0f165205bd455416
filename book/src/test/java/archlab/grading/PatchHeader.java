package archlab.grading;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The header of a patch kept under book/grading (a wrong solution of {@code wrong/}, an attack of {@code attacks/}):
 * {@code Key: value} lines before the first blank line or {@code diff} line, then a unified diff against a
 * checkpoint's code.
 *
 * @param name   the file's name without {@code .patch}
 * @param fields the header's lines, in order
 * @param patch  the patch file
 */
record PatchHeader(String name, Map<String, String> fields, Path patch) {

    /** @return every {@code .patch} of {@code folder}, by name */
    static List<Path> patches(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".patch")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + folder, e);
        }
    }

    /**
     * @param required the keys the header must have; the first names the patch and must be the file's name
     * @throws IllegalArgumentException for a line without a colon, a missing key or a first key that is not the name
     */
    static PatchHeader read(Path patch, List<String> required) {
        Map<String, String> fields = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(patch)) {
                if (line.isBlank() || line.startsWith("diff ")) {
                    break;
                }
                int colon = line.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException(patch + ": header line without a colon: " + line);
                }
                fields.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String file = patch.getFileName().toString();
        String name = file.substring(0, file.length() - ".patch".length());
        for (String key : required) {
            if (!fields.containsKey(key)) {
                throw new IllegalArgumentException(patch + ": the header has no '" + key + ":' line");
            }
        }
        String named = required.get(0);
        if (!fields.get(named).equals(name)) {
            throw new IllegalArgumentException(patch + ": '" + named + ": " + fields.get(named) + "' is not the file's name");
        }
        return new PatchHeader(name, Map.copyOf(fields), patch);
    }

    String get(String key) {
        return fields.get(key);
    }
}
