package archlab.book;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a chapter quotes from the saved results under {@code book/results/}: the lines of a report chosen by a
 * regular expression, and one value of a JSON report. The trap it avoids is the quote that silently renders as
 * nothing: a regular expression that matches no line, or a JSON path that names no value (a renamed field, a
 * report of another shape), throws with the file and what was asked for, so the chapter's marker is reported as a
 * problem instead of being emptied.
 *
 * <p>Thread-safety: stateless.
 */
final class ResultLookups {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultLookups() {
    }

    /**
     * The lines of {@code <root>/book/results/<file>} matching {@code regex}, each ending in a newline.
     *
     * @throws IllegalArgumentException if no line matches
     */
    static String reportLines(Path root, String file, String regex) {
        Pattern p = Pattern.compile(regex);
        StringBuilder sb = new StringBuilder();
        read(root.resolve("book/results").resolve(file)).lines().filter(l -> p.matcher(l).find())
                .forEach(l -> sb.append(l).append('\n'));
        if (sb.isEmpty()) {
            throw new IllegalArgumentException("no line of book/results/" + file + " matches " + regex);
        }
        return sb.toString();
    }

    /**
     * One value of {@code <root>/book/results/<file>} at dotted {@code path} (a numeric segment indexes an array),
     * formatted with {@code format} if given, else an integer as is, another number with two decimals, text as is.
     *
     * @throws IllegalArgumentException if the path names no value (missing or {@code null})
     */
    static String value(Path root, String file, String path, String format) {
        JsonNode node;
        try {
            node = JSON.readTree(root.resolve("book/results").resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read book/results/" + file, e);
        }
        for (String part : path.split("\\.")) {
            node = node.isArray() && part.matches("\\d+") ? node.path(Integer.parseInt(part)) : node.path(part);
        }
        if (node.isMissingNode() || node.isNull()) {
            throw new IllegalArgumentException("book/results/" + file + " has no " + path);
        }
        if (format != null) {
            return String.format(Locale.ROOT, format, node.isIntegralNumber() ? (Object) node.asLong() : node.isNumber() ? node.asDouble() : node.asText());
        }
        if (node.isIntegralNumber()) {
            return Long.toString(node.asLong());
        }
        if (node.isNumber()) {
            return String.format(Locale.ROOT, "%.2f", node.asDouble());
        }
        return node.asText();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
