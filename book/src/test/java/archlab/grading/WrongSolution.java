package archlab.grading;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One wrong solution the guide names, as book/grading/wrong/&lt;name&gt;.patch holds it: a header saying which
 * checkpoint's code it changes, which chapter grades it, which claims must catch it and how the guide describes it,
 * then a unified diff against that checkpoint (paths relative to the module, for {@code git apply -p1}).
 *
 * @param name  the file's name without {@code .patch}
 * @param base  the checkpoint module it patches, e.g. {@code ch12-2-cache-outbox-ratelimit}
 * @param grade the chapter that grades it: 12.2 or 12.3
 * @param loses the claims it must lose — exactly these, no more
 * @param guide the guide's one-line description of the mistake
 * @param patch the patch file
 */
record WrongSolution(String name, String base, String grade, Set<String> loses, String guide, Path patch) {

    static final Path FOLDER = Path.of("grading", "wrong");

    /** @return every wrong solution under {@code book/grading/wrong}, by name */
    static List<WrongSolution> all(Path bookDir) {
        try (Stream<Path> files = Files.list(bookDir.resolve(FOLDER))) {
            return files.filter(f -> f.toString().endsWith(".patch")).sorted().map(WrongSolution::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + bookDir.resolve(FOLDER), e);
        }
    }

    static WrongSolution read(Path patch) {
        Map<String, String> header = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(patch)) {
                if (line.isBlank() || line.startsWith("diff ")) {
                    break;
                }
                int colon = line.indexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException(patch + ": header line without a colon: " + line);
                }
                header.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String file = patch.getFileName().toString();
        String name = file.substring(0, file.length() - ".patch".length());
        for (String key : List.of("Wrong solution", "Base", "Grade", "Loses", "Guide")) {
            if (!header.containsKey(key)) {
                throw new IllegalArgumentException(patch + ": the header has no '" + key + ":' line");
            }
        }
        if (!header.get("Wrong solution").equals(name)) {
            throw new IllegalArgumentException(patch + ": 'Wrong solution: " + header.get("Wrong solution") + "' is not the file's name");
        }
        Set<String> loses = new TreeSet<>(Arrays.stream(header.get("Loses").split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList());
        return new WrongSolution(name, header.get("Base"), header.get("Grade"), loses, header.get("Guide"), patch);
    }

    /** @return the guide's table row: the description, then the claims that catch it */
    String guideRow() {
        List<String> ids = new ArrayList<>(loses);
        return "| " + guide + " | " + String.join("、", ids.stream().map(id -> "`" + id + "`").toList()) + " | `" + name + "` |";
    }
}
