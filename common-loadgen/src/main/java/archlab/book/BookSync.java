package archlab.book;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keeps the book's text, the lab's code and the lab's results from drifting apart. The chapters under
 * {@code book/} never paste code or figures by hand; they hold markers that this class fills in:
 *
 * <ul>
 *   <li><b>code</b>: a tagged region of a source file, between {@code // tag::NAME[]} and
 *       {@code // end::NAME[]} (the tag lines themselves left out, common indentation removed):
 *       <pre>{@code <!-- code: ch12-1-baseline/src/main/java/archlab/order/OrderService.java#pay -->
 * ```java
 * …
 * ```
 * <!-- /code -->}</pre></li>
 *   <li><b>report</b>: lines of a saved report under {@code book/results/}, chosen by a regular
 *       expression: {@code <!-- report: ch12-1-baseline/baseline.txt#^(offered|rps_completed)= -->} … {@code <!-- /report -->}</li>
 *   <li><b>value</b>: one figure of a saved JSON report, inline:
 *       {@code <!--v:ch12-1-baseline/baseline.json:run.completed-->3254<!--/v-->}; a path segment may
 *       index an array ({@code rows.0.p99Millis}); an optional {@code |FORMAT} applies
 *       {@link String#format} (e.g. {@code |%.1f}).</li>
 * </ul>
 *
 * {@link #refresh} rewrites the markers' contents in place; {@link #check} reports every marker whose
 * content differs from its source (a fast test runs it, so drift fails the build).
 *
 * <p>Thread-safety: stateless.
 */
public final class BookSync {

    private static final Pattern CODE = Pattern.compile(
            "(<!-- code: (\\S+?)#(\\S+) -->\\n```(\\w*)\\n)(.*?)(```\\n<!-- /code -->)", Pattern.DOTALL);
    private static final Pattern REPORT = Pattern.compile(
            "(<!-- report: (\\S+?)#(.+?) -->\\n```(\\w*)\\n)(.*?)(```\\n<!-- /report -->)", Pattern.DOTALL);
    private static final Pattern VALUE = Pattern.compile("(<!--v:([^:]+):([^|>]+?)(?:\\|([^>]+?))?-->)(.*?)(<!--/v-->)");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;

    /** @param root the project root (holds {@code book/} and the modules) */
    public BookSync(Path root) {
        this.root = root;
    }

    /** @return the chapters: every {@code .md} directly under {@code book/} */
    public List<Path> chapters() {
        Path book = root.resolve("book");
        if (!Files.isDirectory(book)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(book)) {
            return files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Rewrites every marker of every chapter from the current sources and results; returns the files changed. */
    public List<Path> refresh() {
        List<Path> changed = new ArrayList<>();
        for (Path chapter : chapters()) {
            String before = read(chapter);
            String after = render(before);
            if (!after.equals(before)) {
                write(chapter, after);
                changed.add(chapter);
            }
        }
        return changed;
    }

    /** @return one line per marker whose content is not what its source says now (empty: in sync) */
    public List<String> check() {
        List<String> problems = new ArrayList<>();
        for (Path chapter : chapters()) {
            String text = read(chapter);
            collect(chapter, text, CODE, (m) -> codeRegion(m.group(2), m.group(3)), problems);
            collect(chapter, text, REPORT, (m) -> reportLines(m.group(2), m.group(3)), problems);
            collect(chapter, text, VALUE, (m) -> value(m.group(2), m.group(3), m.group(4)), problems);
        }
        return problems;
    }

    private interface Source {
        String expected(Matcher m);
    }

    private void collect(Path chapter, String text, Pattern p, Source source, List<String> problems) {
        Matcher m = p.matcher(text);
        while (m.find()) {
            String want;
            try {
                want = source.expected(m);
            } catch (RuntimeException e) {
                problems.add(chapter.getFileName() + ": " + m.group(1).strip() + " -> " + e.getMessage());
                continue;
            }
            String have = m.group(5);
            if (!have.equals(want)) {
                problems.add(chapter.getFileName() + ": " + m.group(1).strip() + " is out of date (run book/refresh.sh)");
            }
        }
    }

    /** @return {@code text} with every marker's content rendered from its source */
    public String render(String text) {
        String out = replace(text, CODE, m -> codeRegion(m.group(2), m.group(3)));
        out = replace(out, REPORT, m -> reportLines(m.group(2), m.group(3)));
        return replace(out, VALUE, m -> value(m.group(2), m.group(3), m.group(4)));
    }

    private static String replace(String text, Pattern p, Source source) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + source.expected(m) + m.group(6)));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** The lines between {@code tag::name[]} and {@code end::name[]} of {@code file}, dedented, each ending in a newline. */
    String codeRegion(String file, String tag) {
        List<String> lines = read(root.resolve(file)).lines().toList();
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("tag::" + tag + "[]")) {
                start = i + 1;
            } else if (lines.get(i).contains("end::" + tag + "[]") && start >= 0) {
                end = i;
                break;
            }
        }
        if (start < 0 || end < 0) {
            throw new IllegalArgumentException("no region tag::" + tag + "[] … end::" + tag + "[] in " + file);
        }
        List<String> region = lines.subList(start, end).stream()
                .filter(l -> !l.contains("tag::") && !l.contains("end::")).toList();
        int indent = region.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (String l : region) {
            sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return sb.toString();
    }

    /** The lines of {@code book/results/<file>} matching {@code regex}, each ending in a newline. */
    String reportLines(String file, String regex) {
        Pattern p = Pattern.compile(regex);
        StringBuilder sb = new StringBuilder();
        read(root.resolve("book/results").resolve(file)).lines().filter(l -> p.matcher(l).find())
                .forEach(l -> sb.append(l).append('\n'));
        if (sb.isEmpty()) {
            throw new IllegalArgumentException("no line of book/results/" + file + " matches " + regex);
        }
        return sb.toString();
    }

    /** One value of {@code book/results/<file>} at dotted {@code path}, formatted. */
    String value(String file, String path, String format) {
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

    private static void write(Path p, String s) {
        try {
            Files.writeString(p, s, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + p, e);
        }
    }

    /**
     * {@code BookSync refresh|check [projectRoot]}: refresh rewrites the markers, check exits 1 and lists
     * what is out of date.
     */
    public static void main(String[] args) {
        if (args.length < 1 || !Arrays.asList("refresh", "check").contains(args[0])) {
            System.err.println("usage: BookSync refresh|check [projectRoot]");
            System.exit(2);
        }
        BookSync sync = new BookSync(Path.of(args.length > 1 ? args[1] : ".").toAbsolutePath().normalize());
        if (args[0].equals("refresh")) {
            sync.refresh().forEach(p -> System.out.println("refreshed " + p));
        } else {
            List<String> problems = sync.check();
            problems.forEach(System.out::println);
            System.exit(problems.isEmpty() ? 0 : 1);
        }
    }
}
