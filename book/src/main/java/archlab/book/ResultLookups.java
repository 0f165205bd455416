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

    /** The longest line a chapter shows inside a code fence, in characters: a printed page holds no more. */
    static final int WIDEST_FENCED_LINE = 200;
    /** The most columns a table on a page shows: a printed page holds no more. */
    static final int WIDEST_TABLE = 8;
    /** What a table marker's regex is followed by, then the columns it shows: {@code  columns: a,b=title,c}. */
    private static final String COLUMNS = " columns: ";

    /**
     * The lines of {@code <root>/book/results/<file>} matching {@code regex}, each ending in a newline, none longer than
     * {@value #WIDEST_FENCED_LINE} characters: a longer line is wrapped at spaces, its continuations indented by four.
     * Table rows are refused: a table shows as one ({@link #tableRows}).
     *
     * @throws IllegalArgumentException if no line matches, or a matching line is a table row ({@code |…})
     */
    static String reportLines(Path root, String file, String regex) {
        if (regex.contains(COLUMNS)) {
            throw new IllegalArgumentException("a report marker of " + file + " names columns: a table shows as a table"
                    + " on the page (<!-- table: " + file + "#REGEX" + COLUMNS + "a,b=title,c --> … <!-- /table -->)");
        }
        Pattern p = Pattern.compile(regex);
        List<String> lines = read(root.resolve("book/results").resolve(file)).lines().filter(l -> p.matcher(l).find()).toList();
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no line of book/results/" + file + " matches " + regex);
        }
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            if (l.startsWith("|")) {
                throw new IllegalArgumentException("a line of book/results/" + file + " matching " + regex
                        + " is a table row: a table shows as a table on the page, not in a fence"
                        + " (<!-- table: " + file + "#REGEX" + COLUMNS + "a,b=title,c --> … <!-- /table -->)");
            }
            wrapped(l).forEach(w -> sb.append(w).append('\n'));
        }
        return sb.toString();
    }

    /**
     * The rows of a Markdown table in {@code <root>/book/results/<file>} that match {@code spec}'s regex, narrowed to
     * its columns, as a Markdown table for the page (each row ending in a newline). {@code spec} is a regex, then
     * {@code " columns: "}, then at most {@value #WIDEST_TABLE} columns separated by commas, each the name of a column
     * of the saved table's header, optionally followed by {@code =} and the title the page shows for it:
     * {@code ^\|(---| scenario | normal ) columns: scenario=场景,completed=完成}. The regex must select the header and
     * the separator row too.
     *
     * @throws IllegalArgumentException if {@code spec} names no columns or more than {@value #WIDEST_TABLE}, a title
     *                                  is empty or holds a {@code |}, no line matches, the first row selected is not a
     *                                  header naming every column, no separator row is right under it, or a second
     *                                  header or separator is selected
     */
    static String tableRows(Path root, String file, String spec) {
        int cut = spec.lastIndexOf(COLUMNS);
        if (cut < 0) {
            throw new IllegalArgumentException("a table marker names its columns: <!-- table: " + file + "#REGEX"
                    + COLUMNS + "a,b=title,c -->");
        }
        String regex = spec.substring(0, cut);
        List<String> names = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        for (String c : spec.substring(cut + COLUMNS.length()).split(",")) {
            int eq = c.indexOf('=');
            String name = (eq < 0 ? c : c.substring(0, eq)).strip();
            String title = (eq < 0 ? c : c.substring(eq + 1)).strip();
            if (name.isEmpty() || title.isEmpty() || title.contains("|")) {
                throw new IllegalArgumentException("a table column of " + file + " is \"" + c.strip()
                        + "\": give a column name, optionally =title (no |)");
            }
            names.add(name);
            titles.add(title);
        }
        if (names.size() > WIDEST_TABLE) {
            throw new IllegalArgumentException("a table of " + file + " shows " + names.size() + " columns; a page holds "
                    + WIDEST_TABLE + " at most: keep fewer (the whole table stays in book/results/" + file + ")");
        }
        Pattern p = Pattern.compile(regex);
        List<String> lines = read(root.resolve("book/results").resolve(file)).lines().filter(l -> p.matcher(l).find()).toList();
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("no line of book/results/" + file + " matches " + regex);
        }
        if (regex.contains("-->")) {
            throw new IllegalArgumentException("a table marker's regex may not hold \"-->\" (it ends the comment): " + regex);
        }
        if (!cells(lines.get(0)).containsAll(names)) {
            throw new IllegalArgumentException("the first row of book/results/" + file + " matching " + regex
                    + " is not a header naming " + names + ": select the header first");
        }
        if (lines.size() < 2 || !isSeparator(lines.get(1))) {
            throw new IllegalArgumentException("the rows of book/results/" + file + " matching " + regex
                    + " have no separator row (| --- |) right under the header: select it too");
        }
        for (int i = 2; i < lines.size(); i++) {
            if (isSeparator(lines.get(i)) || cells(lines.get(i)).equals(cells(lines.get(0)))) {
                throw new IllegalArgumentException("the rows of book/results/" + file + " matching " + regex
                        + " hold a second header or separator (row " + (i + 1) + "): select one table");
            }
        }
        List<String> rows = new ArrayList<>(narrowed(lines, names, file));
        rows.set(0, "| " + String.join(" | ", titles) + " |");
        StringBuilder sb = new StringBuilder();
        rows.forEach(r -> sb.append(r).append('\n'));
        return sb.toString();
    }

    /** A Markdown table's separator row: {@code | --- | ---: |}. */
    private static boolean isSeparator(String row) {
        return cells(row).stream().allMatch(c -> c.matches(":?-{3,}:?"));
    }

    /** The rows of a Markdown table with only {@code columns}; the header is the first row that names them all. */
    private static List<String> narrowed(List<String> rows, List<String> columns, String file) {
        List<String> header = null;
        for (String row : rows) {
            List<String> cells = cells(row);
            if (cells.containsAll(columns)) {
                header = cells;
                break;
            }
        }
        if (header == null) {
            throw new IllegalArgumentException("no selected line of book/results/" + file + " is a table header naming "
                    + columns);
        }
        List<Integer> keep = new ArrayList<>();
        for (String c : columns) {
            keep.add(header.indexOf(c));
        }
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            List<String> cells = cells(row);
            StringBuilder sb = new StringBuilder("|");
            for (int i : keep) {
                sb.append(' ').append(i < cells.size() ? cells.get(i) : "").append(" |");
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static List<String> cells(String row) {
        String inner = row.strip();
        if (inner.startsWith("|")) {
            inner = inner.substring(1);
        }
        if (inner.endsWith("|")) {
            inner = inner.substring(0, inner.length() - 1);
        }
        List<String> cells = new ArrayList<>();
        for (String c : inner.split("\\|", -1)) {
            cells.add(c.strip());
        }
        return cells;
    }

    /** {@code line}, wrapped at spaces into pieces of at most {@value #WIDEST_FENCED_LINE} characters, continuations indented. */
    static List<String> wrapped(String line) {
        List<String> out = new ArrayList<>();
        String rest = line;
        String indent = "";
        while (rest.codePointCount(0, rest.length()) + indent.length() > WIDEST_FENCED_LINE) {
            int limit = rest.offsetByCodePoints(0, WIDEST_FENCED_LINE - indent.length());
            int at = rest.lastIndexOf(' ', limit);
            if (at <= 0) {
                break; // one word wider than a line: kept whole (the width check names it)
            }
            out.add(indent + rest.substring(0, at));
            rest = rest.substring(at + 1);
            indent = "    ";
        }
        out.add(indent + rest);
        return out;
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
