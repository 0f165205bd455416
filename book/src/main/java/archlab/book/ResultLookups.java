package archlab.book;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a chapter quotes from the saved results under {@code book/results/}: the lines of a report chosen by a
 * regular expression, and one value of a JSON report. The trap it avoids is the quote that silently renders as
 * nothing: a regular expression that matches no line, or a JSON path that names no value (a renamed field, a
 * report of another shape), throws with the file and what was asked for, so the chapter's marker is reported as a
 * problem instead of being emptied.
 *
 * <p>A JSON path is dotted steps; a step is a field name, an array index, or a selection of the one array element
 * whose fields have the given values: {@code rows[ratePerSecond=500].p99Micros},
 * {@code run.segments[operation=pay,segment=lock.wait].p50Micros}, {@code [scenario=normal,module=ch12-1-baseline].completed}
 * (a step may be a selection alone, for a file that is an array). A field name that holds dots is quoted, the quotes
 * not part of it: JMH's {@code [benchmark=archlab.jmh.X.y].secondaryMetrics."gc.alloc.rate.norm".score}. A selection says what it means where an index
 * would silently move to another row when a report gains a row; it must match exactly one element (dots, spaces
 * and parentheses inside the brackets belong to the values).
 *
 * <p>Thread-safety: stateless.
 */
final class ResultLookups {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern FLOATING_CONVERSION = Pattern.compile("%[-#+ 0,(]*\\d*(\\.\\d+)?[fFeEgGaA]");

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
     * One value of {@code <root>/book/results/<file>} at {@code path} (see the class comment), formatted with
     * {@code format} if given, else an integer as is, another number with two decimals, text as is.
     *
     * @throws IllegalArgumentException if the path names no value (missing or {@code null})
     */
    static String value(Path root, String file, String path, String format) {
        JsonNode node = node(root, file, path);
        if (format != null) {
            // an integral value under a floating-point conversion (%.1f of a count) is formatted as the number it is
            boolean floating = FLOATING_CONVERSION.matcher(format).find();
            return String.format(Locale.ROOT, format, node.isIntegralNumber() && !floating ? (Object) node.asLong()
                    : node.isNumber() ? node.asDouble() : node.asText());
        }
        if (node.isIntegralNumber()) {
            return Long.toString(node.asLong());
        }
        if (node.isNumber()) {
            return String.format(Locale.ROOT, "%.2f", node.asDouble());
        }
        return node.asText();
    }

    /**
     * The number at {@code path} of {@code <root>/book/results/<file>}.
     *
     * @throws IllegalArgumentException if the path names no value, or a value that is not a number
     */
    static double number(Path root, String file, String path) {
        JsonNode node = node(root, file, path);
        if (!node.isNumber()) {
            throw new IllegalArgumentException("book/results/" + file + " has no number at " + path + " (it holds "
                    + node.getNodeType().name().toLowerCase(Locale.ROOT) + " " + node + ")");
        }
        return node.asDouble();
    }

    /** @throws IllegalArgumentException if {@code path} names nothing in the file, or {@code null} */
    static JsonNode node(Path root, String file, String path) {
        JsonNode node;
        try {
            node = JSON.readTree(root.resolve("book/results").resolve(file).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read book/results/" + file, e);
        }
        for (String step : steps(path)) {
            node = step(node, step, file, path);
            if (node.isMissingNode() || node.isNull()) {
                throw new IllegalArgumentException("book/results/" + file + " has no " + path);
            }
        }
        return node;
    }

    /** @return the dotted steps of {@code path}, a dot inside {@code [...]} or {@code "..."} belonging to its step */
    static List<String> steps(String path) {
        List<String> steps = new ArrayList<>();
        StringBuilder step = new StringBuilder();
        int depth = 0;
        boolean quoted = false;
        for (char c : path.toCharArray()) {
            if (c == '"' && depth == 0) {
                quoted = !quoted;
            }
            if (c == '.' && depth == 0 && !quoted) {
                steps.add(step.toString());
                step.setLength(0);
                continue;
            }
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            step.append(c);
        }
        steps.add(step.toString());
        if (depth != 0 || quoted || steps.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("not a path: " + path);
        }
        return steps;
    }

    private static JsonNode step(JsonNode node, String step, String file, String path) {
        if (step.length() > 2 && step.startsWith("\"") && step.endsWith("\"")) {
            return node.path(step.substring(1, step.length() - 1)); // a field name with dots in it
        }
        int open = step.indexOf('[');
        if (open < 0) {
            return node.isArray() && step.matches("\\d+") ? node.path(Integer.parseInt(step)) : node.path(step);
        }
        if (!step.endsWith("]")) {
            throw new IllegalArgumentException("not a path: " + path + " (a selection ends its step: " + step + ")");
        }
        JsonNode array = open == 0 ? node : node.path(step.substring(0, open));
        Map<String, String> wanted = new LinkedHashMap<>();
        for (String condition : step.substring(open + 1, step.length() - 1).split(",")) {
            int eq = condition.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not a path: " + path + " (a selection is [field=value,...]: " + step + ")");
            }
            wanted.put(condition.substring(0, eq).strip(), condition.substring(eq + 1).strip());
        }
        if (!array.isArray()) {
            throw new IllegalArgumentException("book/results/" + file + " has no array to select " + step + " from in " + path);
        }
        List<JsonNode> matches = new ArrayList<>();
        for (JsonNode element : array) {
            if (wanted.entrySet().stream().allMatch(w -> element.path(w.getKey()).isValueNode()
                    && element.path(w.getKey()).asText().equals(w.getValue()))) {
                matches.add(element);
            }
        }
        if (matches.size() != 1) {
            throw new IllegalArgumentException("book/results/" + file + " has " + (matches.isEmpty() ? "no element "
                    : matches.size() + " elements ") + step + " in " + path + (matches.isEmpty() ? "" : ": a selection must name one"));
        }
        return matches.get(0);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
