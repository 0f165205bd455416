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
import java.util.Comparator;
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
 *   <li><b>claims</b>: the table "which test proves which claim" of one module, read from its test sources
 *       ({@code <module>/src/test/java/**}{@code /*.java}), one row per test method:
 *       <pre>{@code <!-- claims: ch12-2-cache-outbox-ratelimit -->
 * | test | claim (its @DisplayName) | needs |
 * |---|---|---|
 * | `BaselineOpenLoopTest.moneyAddsUp` | after the outbox drains: … | `-Dbaseline` |
 * <!-- /claims -->}</pre>
 *       What is recognised is described at {@link #claims(String)}.</li>
 * </ul>
 *
 * {@link #refresh} rewrites the markers' contents in place; {@link #check} reports every marker whose
 * content differs from its source (a fast test runs it, so drift fails the build).
 *
 * <p>Thread-safety: stateless.
 */
public final class BookSync {

    // Every marker pattern names its three parts: the opening marker (kept), the body (rendered), the closing marker (kept).
    private static final Pattern CODE = Pattern.compile(
            "(?<open><!-- code: (\\S+?)#(\\S+) -->\\n```(\\w*)\\n)(?<body>.*?)(?<close>```\\n<!-- /code -->)", Pattern.DOTALL);
    private static final Pattern REPORT = Pattern.compile(
            "(?<open><!-- report: (\\S+?)#(.+?) -->\\n```(\\w*)\\n)(?<body>.*?)(?<close>```\\n<!-- /report -->)", Pattern.DOTALL);
    private static final Pattern VALUE = Pattern.compile(
            "(?<open><!--v:([^:]+):([^|>]+?)(?:\\|([^>]+?))?-->)(?<body>.*?)(?<close><!--/v-->)");
    private static final Pattern CLAIMS = Pattern.compile(
            "(?<open><!-- claims: (\\S+) -->\\n)(?<body>.*?)(?<close><!-- /claims -->)", Pattern.DOTALL);

    /** The first two lines of every claims table. */
    static final String CLAIMS_HEADER = "| test | claim (its @DisplayName) | needs |\n|---|---|---|\n";
    /** The claim of a test method without a {@code @DisplayName}: shown, so that a grader sees the gap. */
    static final String NO_DISPLAY_NAME = "(no @DisplayName)";

    /**
     * What is not code in a Java source: text blocks, string and char literals, comments. Blanked out (same
     * length, newlines kept) before annotations and braces are looked for, so an {@code @Test} quoted in a
     * string or a comment, say a test's own fake source, is never taken for a test. Written as unrolled loops
     * (possessive runs of plain characters, one step per escape): a loop over single characters in alternation
     * recurses once per character in {@link Pattern} and overflows the stack on a long text block.
     */
    private static final Pattern NOT_CODE = Pattern.compile(String.join("|",
            "\"\"\"[^\\\\\"]*+(?:(?:\\\\.|\"(?!\"\"))[^\\\\\"]*+)*+\"\"\"", // a text block
            "\"[^\"\\\\\\n]*+(?:\\\\.[^\"\\\\\\n]*+)*+\"",                  // a string literal
            "'(?:\\\\.|[^'\\\\\\n])++'",                                        // a char literal
            "//[^\\n]*+",                                                    // a line comment
            "/\\*[^*]*+\\*++(?:[^/*][^*]*+\\*++)*+/"));                      // a block comment
    private static final Pattern TYPE_DECLARATION = Pattern.compile("\\b(?:class|record|enum|interface)\\s+(\\w+)");
    private static final Pattern TEST_ANNOTATION = Pattern.compile("@(?:\\w+\\.)*(?:Test|ParameterizedTest)\\b");
    private static final Pattern DISPLAY_NAME = Pattern.compile("@(?:\\w+\\.)*DisplayName\\s*\\(");
    private static final Pattern ENABLED_IF_PROPERTY = Pattern.compile("@(?:\\w+\\.)*EnabledIfSystemProperty\\s*\\(");
    private static final Pattern NAMED = Pattern.compile("\\bnamed\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern VALUE_ARGUMENT = Pattern.compile("^\\s*value\\s*=");
    private static final Pattern LAST_IDENTIFIER = Pattern.compile("(\\w+)\\s*$");
    private static final Pattern STRING_LITERAL = Pattern.compile("\"([^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+)\"");

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
            collect(chapter, text, CLAIMS, (m) -> claimsTable(m.group(2)), problems);
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
                problems.add(chapter.getFileName() + ": " + m.group("open").strip() + " -> " + e.getMessage());
                continue;
            }
            String have = m.group("body");
            if (!have.equals(want)) {
                problems.add(chapter.getFileName() + ": " + m.group("open").strip() + " is out of date (run book/refresh.sh)");
            }
        }
    }

    /** @return {@code text} with every marker's content rendered from its source */
    public String render(String text) {
        String out = replace(text, CODE, m -> codeRegion(m.group(2), m.group(3)));
        out = replace(out, REPORT, m -> reportLines(m.group(2), m.group(3)));
        out = replace(out, VALUE, m -> value(m.group(2), m.group(3), m.group(4)));
        return replace(out, CLAIMS, m -> claimsTable(m.group(2)));
    }

    private static String replace(String text, Pattern p, Source source) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(m.group("open") + source.expected(m) + m.group("close")));
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

    /**
     * One row of a claims table.
     *
     * @param test  {@code ClassName.method} ({@code Outer.Nested.method} for a {@code @Nested} class)
     * @param claim the method's {@code @DisplayName} text, or {@value #NO_DISPLAY_NAME}
     * @param needs the system properties the test needs to run, as {@code -DX} flags (space-separated), or
     *              empty: a fast test that {@code mvn test} runs
     */
    record Claim(String test, String claim, String needs) {
    }

    /** A class (record, enum, interface) declared in a test source: its qualified-within-the-file name and its body. */
    private record TypeSpan(String name, int annotationsStart, int declarationStart, int bodyStart, int bodyEnd) {
        boolean encloses(int position) {
            return position > bodyStart && position < bodyEnd;
        }
    }

    /** A test method found in a source, before sorting: where it is, for "source order". */
    private record FoundTest(String className, Path file, int position, Claim claim) {
    }

    /** The table of {@code module}'s claims: {@link #CLAIMS_HEADER}, then one line per {@link #claims(String) claim}. */
    String claimsTable(String module) {
        StringBuilder sb = new StringBuilder(CLAIMS_HEADER);
        for (Claim c : claims(module)) {
            sb.append("| `").append(c.test()).append("` | ").append(c.claim().replace("|", "\\|")).append(" | ")
                    .append(c.needs().isEmpty() ? "" : "`" + c.needs() + "`").append(" |\n");
        }
        return sb.toString();
    }

    /**
     * The test methods of {@code module}, read from {@code <root>/<module>/src/test/java/**}{@code /*.java} with
     * regular expressions (no Java parser), sorted by class name, then in source order. What is recognised:
     * <ul>
     *   <li>a <b>test method</b>: one annotated {@code @Test} or {@code @ParameterizedTest} (simple or qualified
     *       name); its name is the identifier before the first {@code (} after its annotations;</li>
     *   <li>its <b>class</b>: the innermost class, record, enum or interface whose braces enclose it, so a
     *       {@code @Nested} class's tests are {@code Outer.Nested.method};</li>
     *   <li>its <b>claim</b>: the method's {@code @DisplayName("…")} (or {@code value = "…"}), a string literal or
     *       literals joined by {@code +}, Java escapes decoded, line breaks as spaces; {@value #NO_DISPLAY_NAME} if it has none;</li>
     *   <li>what it <b>needs</b>: {@code -DX} for every {@code @EnabledIfSystemProperty(named = "X", …)} on the
     *       method or an enclosing class, outermost first.</li>
     * </ul>
     * Annotations are looked for in the code only: comments, string and char literals and text blocks are blanked
     * first. Not recognised: tests inherited from a superclass or declared in another module, {@code @RepeatedTest},
     * {@code @TestFactory}, {@code @TestTemplate}, a {@code @DisplayName} of a constant, the repeatable container
     * {@code @EnabledIfSystemProperties}, and a meta-annotation that implies one of these.
     *
     * @throws IllegalArgumentException if the module's directory or its {@code src/test/java} is missing, if it
     *                                  holds no test method, or if a {@code @DisplayName} is not string literals
     */
    List<Claim> claims(String module) {
        Path moduleDir = root.resolve(module);
        if (!Files.isDirectory(moduleDir)) {
            throw new IllegalArgumentException("no module directory " + module + " under " + root);
        }
        Path tests = moduleDir.resolve("src/test/java");
        if (!Files.isDirectory(tests)) {
            throw new IllegalArgumentException("module " + module + " has no src/test/java");
        }
        List<Path> sources;
        try (Stream<Path> files = Files.walk(tests)) {
            sources = files.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + tests, e);
        }
        List<FoundTest> found = new ArrayList<>();
        for (Path source : sources) {
            found.addAll(testsIn(source, read(source)));
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("no @Test or @ParameterizedTest method under " + module + "/src/test/java");
        }
        return found.stream()
                .sorted(Comparator.comparing(FoundTest::className).thenComparing(FoundTest::file)
                        .thenComparingInt(FoundTest::position))
                .map(FoundTest::claim).toList();
    }

    private static List<FoundTest> testsIn(Path file, String source) {
        String code = codeOnly(source);
        List<TypeSpan> types = new ArrayList<>();
        Matcher t = TYPE_DECLARATION.matcher(code);
        while (t.find()) {
            int open = code.indexOf('{', t.end());
            if (open < 0) {
                continue;
            }
            String name = t.group(1);
            for (int i = types.size() - 1; i >= 0; i--) { // the innermost type declared before it that encloses it
                if (types.get(i).encloses(t.start())) {
                    name = types.get(i).name() + "." + name;
                    break;
                }
            }
            types.add(new TypeSpan(name, annotationsStart(code, t.start()), t.start(), open, matchingBrace(code, open)));
        }
        List<FoundTest> found = new ArrayList<>();
        Matcher a = TEST_ANNOTATION.matcher(code);
        while (a.find()) {
            TypeSpan owner = null;
            List<TypeSpan> enclosing = new ArrayList<>();
            for (TypeSpan type : types) { // in declaration order: outermost first
                if (type.encloses(a.start())) {
                    enclosing.add(type);
                    owner = type;
                }
            }
            if (owner == null) {
                continue;
            }
            int annotations = annotationsStart(code, a.start());
            int open = methodParenthesis(code, a.end());
            Matcher name = LAST_IDENTIFIER.matcher(code.substring(annotations, open));
            if (!name.find()) {
                continue;
            }
            int nameStart = annotations + name.start(1);
            String claim = displayName(source, code, annotations, nameStart, file);
            List<String> needs = new ArrayList<>();
            for (TypeSpan type : enclosing) {
                needs.addAll(enabledIfProperties(source, code, type.annotationsStart(), type.declarationStart()));
            }
            needs.addAll(enabledIfProperties(source, code, annotations, nameStart));
            found.add(new FoundTest(owner.name(), file, a.start(), new Claim(owner.name() + "." + name.group(1),
                    claim == null ? NO_DISPLAY_NAME : claim, String.join(" ", needs.stream().distinct().toList()))));
        }
        return found;
    }

    /** {@code source} with its comments, string and char literals and text blocks blanked: same length, same line breaks. */
    static String codeOnly(String source) {
        char[] code = source.toCharArray();
        Matcher m = NOT_CODE.matcher(source);
        while (m.find()) {
            for (int i = m.start(); i < m.end(); i++) {
                if (code[i] != '\n') {
                    code[i] = ' ';
                }
            }
        }
        return new String(code);
    }

    /** Where the annotations before {@code position} start: back over balanced parentheses, to just after a {@code ; { }}. */
    private static int annotationsStart(String code, int position) {
        int depth = 0;
        for (int i = position - 1; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(') {
                depth--;
            } else if (depth == 0 && (c == ';' || c == '{' || c == '}')) {
                return i + 1;
            }
        }
        return 0;
    }

    /** The parameter list's {@code (} of the method whose annotations continue at {@code from}: past every {@code @A(…)}. */
    private static int methodParenthesis(String code, int from) {
        int i = from;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '(') {
                int before = i - 1;
                while (before >= 0 && Character.isWhitespace(code.charAt(before))) {
                    before--;
                }
                int word = before;
                while (word >= 0 && (Character.isJavaIdentifierPart(code.charAt(word)) || code.charAt(word) == '.')) {
                    word--;
                }
                if (word >= 0 && code.charAt(word) == '@') { // an annotation's arguments: skip them
                    i = matchingParenthesis(code, i) + 1;
                    continue;
                }
                return i;
            }
            i++;
        }
        return code.length();
    }

    private static int matchingBrace(String code, int open) {
        return matching(code, open, '{', '}');
    }

    private static int matchingParenthesis(String code, int open) {
        return matching(code, open, '(', ')');
    }

    private static int matching(String code, int open, char opening, char closing) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == opening) {
                depth++;
            } else if (c == closing && --depth == 0) {
                return i;
            }
        }
        return code.length();
    }

    /** The {@code @DisplayName} among the annotations in [from, to), decoded; {@code null} if there is none. */
    private static String displayName(String source, String code, int from, int to, Path file) {
        Matcher d = DISPLAY_NAME.matcher(code).region(from, to);
        if (!d.find()) {
            return null;
        }
        int open = d.end() - 1;
        String arguments = VALUE_ARGUMENT.matcher(source.substring(open + 1, matchingParenthesis(code, open))).replaceFirst("");
        Matcher literal = STRING_LITERAL.matcher(arguments);
        StringBuilder text = new StringBuilder();
        int at = 0;
        while (literal.find()) {
            String between = arguments.substring(at, literal.start()).strip();
            if (!(between.isEmpty() || (at > 0 && between.equals("+")))) {
                break;
            }
            text.append(unescape(literal.group(1)));
            at = literal.end();
        }
        if (at == 0 || !arguments.substring(at).isBlank()) {
            throw new IllegalArgumentException(file.getFileName() + ": @DisplayName(" + arguments.strip()
                    + ") is not a string literal (or literals joined by +)");
        }
        return text.toString().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The X of every {@code @EnabledIfSystemProperty(named = "X" …)} among the annotations in [from, to), as {@code -DX}. */
    private static List<String> enabledIfProperties(String source, String code, int from, int to) {
        List<String> flags = new ArrayList<>();
        Matcher e = ENABLED_IF_PROPERTY.matcher(code).region(from, to);
        while (e.find()) {
            int open = e.end() - 1;
            Matcher named = NAMED.matcher(source.substring(open, matchingParenthesis(code, open)));
            if (named.find()) {
                flags.add("-D" + named.group(1));
            }
        }
        return flags;
    }

    /**
     * Decodes the escapes of a string literal's content: {@code \n \r \t} become a space (a table cell is one line),
     * {@code \" \' \\} their character, a unicode escape (backslash, {@code u}, four hex digits) its character;
     * any other escaped character loses its backslash.
     */
    private static String unescape(String literal) {
        StringBuilder sb = new StringBuilder(literal.length());
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c != '\\' || i + 1 == literal.length()) {
                sb.append(c);
                continue;
            }
            char next = literal.charAt(++i);
            switch (next) {
                case 'n', 'r', 't' -> sb.append(' ');
                case 'u' -> {
                    int end = i;
                    while (end < literal.length() && literal.charAt(end) == 'u') {
                        end++;
                    }
                    if (end + 4 <= literal.length()) {
                        sb.append((char) Integer.parseInt(literal.substring(end, end + 4), 16));
                        i = end + 3;
                    }
                }
                default -> sb.append(next);
            }
        }
        return sb.toString();
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
