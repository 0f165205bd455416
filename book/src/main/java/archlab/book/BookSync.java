package archlab.book;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Keeps the book's text, the lab's code and the lab's results from drifting apart: the chapters under
 * {@code book/} never paste code, figures or test lists by hand; they hold markers that this class fills in.
 * The trap it avoids is the hand-pasted excerpt that was true when it was written: {@link #check} lists every
 * marker whose content is not what its source says now (a fast test runs it, so drift fails the build), and
 * {@link #refresh} rewrites them.
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
 *       expression: {@code <!-- report: ch12-1-baseline/baseline.txt#^(offered|rps_completed)= -->} … {@code <!-- /report -->}
 *       ({@link ResultLookups#reportLines})</li>
 *   <li><b>table</b>: some columns of a Markdown table of a saved report, shown as a real table (no fence), its
 *       header cells renamed where a column says so:
 *       {@code <!-- table: scenarios.md#^\|(---| scenario | normal ) columns: scenario=场景,completed=完成 -->}
 *       … {@code <!-- /table -->}, at most {@value ResultLookups#WIDEST_TABLE} columns ({@link ResultLookups#tableRows});
 *       a report marker never shows table rows in a fence</li>
 *   <li><b>value</b>: one figure of a saved JSON report, inline:
 *       {@code <!--v:ch12-1-baseline/baseline.json:run.completed-->3254<!--/v-->}; a path segment may
 *       index an array ({@code rows.0.p99Millis}); an optional {@code |FORMAT} applies
 *       {@link String#format} (e.g. {@code |%.1f}) ({@link ResultLookups#value}); in a table cell write it
 *       {@code ~FORMAT} ({@code ~%.1f}): GitHub splits a row's cells at every pipe, a comment's included</li>
 *   <li><b>claims</b>: the table "which test proves which claim" of one module, one row per test method that the
 *       JUnit Platform discovers in the module, as the module's own test run reports them in its
 *       {@code target/reports/tests.json} ({@link TestsReports}):
 *       <pre>{@code <!-- claims: ch12-2-cache-outbox-ratelimit -->
 * | test | claim (its @DisplayName) | needs |
 * |---|---|---|
 * | `BaselineOpenLoopTest.moneyAddsUp` | after the outbox drains: … | `-Dbaseline` |
 * <!-- /claims -->}</pre>
 *       A module whose report is not written (or was written before its test sources last changed) has its table
 *       neither checked nor rewritten: {@link #notChecked} says so, one line per such marker.</li>
 *   <li><b>holds</b>: the condition under which the sentence just before it is true, over the same saved values:
 *       {@code 缓存让 get 的 p99 变高了。<!-- holds: m/on.json:run.p99 > m/off.json:run.p99 -->} ({@link Holds}). It
 *       has no content to render; {@link #check} evaluates it and reports the sentence, its file and line, and the
 *       values it read when the condition is false.</li>
 * </ul>
 *
 * <p>{@link #check} also lists the figures a page links to that are missing, and the files of {@code book/figures/}
 * no page links to ({@link FigureReferences}).
 *
 * <p>Thread-safety: stateless.
 */
public final class BookSync {

    // Every marker pattern names its three parts: the opening marker (kept), the body (rendered), the closing marker (kept).
    private static final Pattern CODE = Pattern.compile(
            "(?<open><!-- code: (\\S+?)#(\\S+) -->\\n```(\\w*)\\n)(?<body>.*?)(?<close>```\\n<!-- /code -->)", Pattern.DOTALL);
    private static final Pattern REPORT = Pattern.compile(
            "(?<open><!-- report: (\\S+?)#(.+?) -->\\n```(\\w*)\\n)(?<body>.*?)(?<close>```\\n<!-- /report -->)", Pattern.DOTALL);
    /** A table marker: its opening on one line, a body that holds no other table opening, its closing marker. */
    private static final Pattern TABLE = Pattern.compile(
            "(?<!`)(?<open><!-- table: (\\S+?)#([^\\n]+?) -->\\n)(?<body>(?:(?!<!-- table: ).)*?)(?<close><!-- /table -->)",
            Pattern.DOTALL);
    private static final Pattern VALUE = Pattern.compile(
            "(?<open><!--v:([^:\\n]+):([^|~\\n]+?)(?:[|~]([^>\\n]+?))?-->)(?<body>.*?)(?<close><!--/v-->)");
    /** Where a value marker opens; each must be the start of a whole one, or nothing fills it and nothing checks it. */
    private static final Pattern VALUE_OPENING = Pattern.compile("(?<!`)<!--v:");
    private static final Pattern CLAIMS = Pattern.compile(
            "(?<open><!-- claims: (\\S+) -->\\n)(?<body>.*?)(?<close><!-- /claims -->)", Pattern.DOTALL);
    private static final Pattern HOLDS = Pattern.compile("<!-- holds: (.+?) -->");
    /** An opening code or report marker: each must be followed by its fence, or nothing fills it and nothing checks it. */
    private static final Pattern BLOCK_OPENING = Pattern.compile("(?<!`)<!-- (code|report): [^>]*-->(?!\\n```)");
    /** An opening table marker; each must have its closing marker, or nothing fills it and nothing checks it. */
    private static final Pattern TABLE_OPENING = Pattern.compile("(?<!`)<!-- table: [^\\n]*?-->");
    /** A sentence ends at one of these (or at the start of its line). */
    private static final Pattern SENTENCE_END = Pattern.compile("[。！？；]");
    private static final int MAX_SENTENCE = 160;

    /** The first two lines of every claims table. */
    static final String CLAIMS_HEADER = "| test | claim (its @DisplayName) | needs |\n|---|---|---|\n";

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

    /**
     * Rewrites every marker of every chapter from the current sources and results, except the claims tables of
     * modules listed by {@link #notChecked} (left as they are); returns the files changed.
     */
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

    /**
     * @return one line per marker whose content is not what its source says now, or whose source is missing
     *         (empty: in sync); a claims marker listed by {@link #notChecked} is not among them
     */
    public List<String> check() {
        List<String> problems = new ArrayList<>();
        for (Path chapter : chapters()) {
            String text = read(chapter);
            collect(chapter, text, CODE, m -> codeRegion(m.group(2), m.group(3)), problems);
            collect(chapter, text, REPORT, m -> ResultLookups.reportLines(root, m.group(2), m.group(3)), problems);
            collect(chapter, text, TABLE, m -> ResultLookups.tableRows(root, m.group(2), m.group(3)), problems);
            collect(chapter, text, VALUE, m -> ResultLookups.value(root, m.group(2), m.group(3), m.group(4)), problems);
            collect(chapter, text, CLAIMS, m -> claimsTable(m.group(2)), problems);
            checkHolds(chapter, text, problems);
            Matcher bare = BLOCK_OPENING.matcher(text);
            while (bare.find()) {
                problems.add(chapter.getFileName() + ":" + line(text, bare.start()) + ": " + bare.group()
                        + " has no fenced block under it (```…```, then its closing marker): nothing fills or checks it");
            }
            Matcher value = VALUE_OPENING.matcher(text);
            while (value.find()) {
                if (!VALUE.matcher(text).region(value.start(), text.length()).lookingAt()) {
                    problems.add(chapter.getFileName() + ":" + line(text, value.start()) + ": a value marker that is not"
                            + " <!--v:file:path-->…<!--/v--> on one line: nothing fills or checks it");
                }
            }
            Matcher table = TABLE_OPENING.matcher(text);
            while (table.find()) {
                if (!TABLE.matcher(text).region(table.start(), text.length()).lookingAt()) {
                    problems.add(chapter.getFileName() + ":" + line(text, table.start()) + ": " + table.group()
                            + " has no closing <!-- /table --> after it: nothing fills or checks it");
                }
            }
        }
        problems.addAll(FigureReferences.problems(chapters(), root.resolve("book/figures")));
        return problems;
    }

    /** Evaluates every holds marker of {@code text}; adds a line per condition that is false or cannot be read. */
    private void checkHolds(Path chapter, String text, List<String> problems) {
        Matcher m = HOLDS.matcher(text);
        while (m.find()) {
            String where = chapter.getFileName() + ":" + line(text, m.start());
            Holds.Evaluation e;
            try {
                e = Holds.parse(m.group(1)).evaluate((file, path) -> ResultLookups.number(root, file, path));
            } catch (RuntimeException ex) {
                problems.add(where + ": <!-- holds: " + m.group(1) + " --> cannot be evaluated: " + ex.getMessage());
                continue;
            }
            if (!e.holds()) {
                problems.add(where + ": this sentence no longer holds: \u00ab" + sentenceBefore(text, m.start())
                        + "\u00bb — false: " + m.group(1) + " — with " + e.describeValues()
                        + " (rewrite the sentence for the new numbers, then its condition)");
            }
        }
    }

    /** @return the 1-based line of {@code offset} in {@code text} */
    static int line(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /**
     * @return the sentence that ends just before {@code offset}: back to the previous sentence end on the same line,
     *         value markers shown as their values, other markers left out, at most {@value #MAX_SENTENCE} characters
     */
    static String sentenceBefore(String text, int offset) {
        int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        String before = text.substring(lineStart, offset);
        before = VALUE.matcher(before).replaceAll(r -> Matcher.quoteReplacement(r.group("body")));
        before = before.replaceAll("<!--.*?-->", "").stripTrailing();
        String body = before.isEmpty() ? before : before.substring(0, before.length() - 1);
        Matcher end = SENTENCE_END.matcher(body);
        int start = 0;
        while (end.find()) {
            start = end.end();
        }
        String sentence = before.substring(start).strip().replaceFirst("^([-*] |\\d+\\. )", "").replaceFirst("^[*_\\s]+", "");
        return sentence.length() <= MAX_SENTENCE ? sentence : "…" + sentence.substring(sentence.length() - MAX_SENTENCE);
    }

    /**
     * @return one line per claims marker that {@link #check} and {@link #refresh} leave alone because its module's
     *         test run's report is not written, or is older than its test sources, with what to run
     */
    public List<String> notChecked() {
        List<String> lines = new ArrayList<>();
        for (Path chapter : chapters()) {
            Matcher m = CLAIMS.matcher(read(chapter));
            while (m.find()) {
                notWritten(m.group(2)).ifPresent(why -> lines.add(chapter.getFileName() + ": " + why));
            }
        }
        return lines;
    }

    /** Renders a marker's content from its source; {@code null}: leave the marker as it is (not checked). */
    private interface Source {
        String expected(Matcher m);
    }

    private static void collect(Path chapter, String text, Pattern p, Source source, List<String> problems) {
        Matcher m = p.matcher(text);
        while (m.find()) {
            String want;
            try {
                want = source.expected(m);
            } catch (RuntimeException e) {
                problems.add(chapter.getFileName() + ": " + m.group("open").strip() + " -> " + e.getMessage());
                continue;
            }
            if (want != null && !m.group("body").equals(want)) {
                problems.add(chapter.getFileName() + ": " + m.group("open").strip() + " is out of date (run book/refresh.sh)");
            }
        }
    }

    /** @return {@code text} with every marker's content rendered from its source */
    public String render(String text) {
        String out = replace(text, CODE, m -> codeRegion(m.group(2), m.group(3)));
        out = replace(out, REPORT, m -> ResultLookups.reportLines(root, m.group(2), m.group(3)));
        out = replace(out, TABLE, m -> ResultLookups.tableRows(root, m.group(2), m.group(3)));
        out = replace(out, VALUE, m -> ResultLookups.value(root, m.group(2), m.group(3), m.group(4)));
        return replace(out, CLAIMS, m -> claimsTable(m.group(2)));
    }

    private static String replace(String text, Pattern p, Source source) {
        Matcher m = p.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String body = source.expected(m);
            m.appendReplacement(sb, Matcher.quoteReplacement(body == null ? m.group() : m.group("open") + body + m.group("close")));
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

    /**
     * The table of {@code module}'s claims: {@link #CLAIMS_HEADER}, then one line per {@link TestsReports.Claim},
     * a {@code |} in a claim escaped so that it does not split the cell.
     *
     * @return the table, or {@code null} when the module's report is not written or stale (see {@link #notChecked})
     * @throws IllegalArgumentException if the module is missing, has no test sources, its report cannot be parsed,
     *                                  or it lists no test
     */
    String claimsTable(String module) {
        if (TestsReports.notWritten(root, module).isPresent()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(CLAIMS_HEADER);
        for (TestsReports.Claim c : TestsReports.claims(root, module)) {
            sb.append("| `").append(c.test()).append("` | ").append(c.claim().replace("|", "\\|")).append(" | ")
                    .append(c.needs().isEmpty() ? "" : "`" + c.needs() + "`").append(" |\n");
        }
        return sb.toString();
    }

    /** Why {@code module}'s claims are not checked; empty if they are (or if the module itself is a problem). */
    private Optional<String> notWritten(String module) {
        try {
            return TestsReports.notWritten(root, module);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // a missing module: a problem line of check, not a "not checked"
        }
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
     * what is out of date; both list on stderr the claims tables they left alone.
     */
    public static void main(String[] args) {
        if (args.length < 1 || !Arrays.asList("refresh", "check").contains(args[0])) {
            System.err.println("usage: BookSync refresh|check [projectRoot]");
            System.exit(2);
        }
        BookSync sync = new BookSync(Path.of(args.length > 1 ? args[1] : ".").toAbsolutePath().normalize());
        sync.notChecked().forEach(System.err::println);
        if (args[0].equals("refresh")) {
            sync.refresh().forEach(p -> System.out.println("refreshed " + p));
        } else {
            List<String> problems = sync.check();
            problems.forEach(System.out::println);
            System.exit(problems.isEmpty() ? 0 : 1);
        }
    }
}
