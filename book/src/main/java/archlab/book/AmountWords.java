package archlab.book;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The book's words for amounts (几十, 上千, 翻倍, 一个数量级 …), each a fixed range, read from the table in
 * {@code book/authoring.md}, and the check that a sentence using one bounds it in its {@code holds}.
 *
 * <p>The table's rows are {@code | words | from | to | of |}: the words (separated by 、), the lowest and highest value
 * they mean ({@code —} for none), and {@code count} (a number of things or an amount in the word's unit, whose range
 * runs to just below {@code to + 1}) or {@code ratio} (one quantity over another, {@code from..to} exactly; also
 * accepted as a percentage). Rows with another {@code of} (such as 约, ±10 % of a figure in the sentence) are
 * left to the review.
 *
 * <p>A use of a word is <em>bounded</em> when a {@code holds} after it in its sentence or right after the sentence has no {@code or} and its {@code and}s put on one quantity a lower bound at least
 * the word's {@code from} and, unless the word is followed by 以上 or has no {@code to}, an upper bound within its
 * {@code to}, in the word's unit or a power of a thousand of it (a count) or as a ratio. A quantity is the text of
 * one side of a comparison whose other side is a number, or {@code a / b} for {@code a op k * b}. A use followed
 * by {@code <!-- words: why -->} (a reason required) is not a measurement and is not checked. Uses in code, inline
 * code, comments and 「quotes of the sources」 are not the book's prose and are skipped.
 *
 * <p>Immutable and thread-safe.
 */
public final class AmountWords {

    /** One word's meaning. */
    record Word(String text, double from, Double to, boolean ratio) {}

    /**
     * One use of a word in a text.
     *
     * @param word     the word
     * @param line     its line, from 1
     * @param sentence its sentence, markers included
     * @param problem  why it is not bounded, or empty when it is
     */
    public record Use(String word, int line, String sentence, Optional<String> problem) {}

    private static final Pattern ROW = Pattern.compile("^\\|\\s*([^|]+?)\\s*\\|\\s*([-0-9.]+)\\s*\\|\\s*([-0-9.]+|—)\\s*\\|\\s*(count|ratio)\\s*\\|\\s*$",
            Pattern.MULTILINE);
    private static final Pattern HIDDEN = Pattern.compile("```.*?```|<!--.*?-->|`[^`\n]*`|「[^」]*」", Pattern.DOTALL);
    private static final Pattern MARKER = Pattern.compile("\\G[ \\t]*<!-- (holds|words):(.*?)-->");
    private static final Pattern ANY_MARKER = Pattern.compile("<!-- (holds|words):(.*?)-->");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
    /** 几 alone is everywhere (几个、几乎、这几条); as an amount it stands before a unit of measure. */
    private static final String BARE_JI_UNITS = "(?=毫秒|微秒|纳秒|秒|笔|倍)";
    private static final double[] COUNT_SCALES = {1, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9};
    private static final Pattern TIME_UNIT = Pattern.compile("的?(毫秒|微秒|纳秒|秒)");
    private static final Pattern PERCENT_NAMED = Pattern.compile("(?i)percent");
    private static final Pattern RATIO_NAMED = Pattern.compile("(?i)(ratio|share|amplification|goodput)[A-Za-z_]*(\\]|\\.value|$|\\s)");

    private final List<Word> words;
    private final Pattern anyWord;

    private AmountWords(List<Word> words) {
        this.words = List.copyOf(words);
        List<String> alternatives = new ArrayList<>();
        words.stream().map(Word::text).sorted(Comparator.comparingInt(String::length).reversed())
                .forEach(w -> alternatives.add(w.equals("几") ? "(?<![十百千])几" + BARE_JI_UNITS : Pattern.quote(w)));
        this.anyWord = Pattern.compile(String.join("|", alternatives));
    }

    /**
     * @param page the text holding the table (rows of {@code | words | from | to | of |})
     * @return the words of its rows of {@code count} or {@code ratio}
     * @throws IllegalArgumentException when no row is found
     */
    public static AmountWords fromTable(String page) {
        List<Word> words = new ArrayList<>();
        Matcher m = ROW.matcher(page);
        while (m.find()) {
            double from = Double.parseDouble(m.group(2));
            Double to = m.group(3).equals("—") ? null : Double.valueOf(m.group(3));
            for (String w : m.group(1).split("、")) {
                words.add(new Word(w.strip(), from, to, m.group(4).equals("ratio")));
            }
        }
        if (words.isEmpty()) {
            throw new IllegalArgumentException("no row | words | from | to | count or ratio | in the table (book/authoring.md)");
        }
        Matcher table = Pattern.compile("(?m)^\\| words \\| from \\| to \\| of \\|\\n\\|[- |]+\\|\\n((?:\\|.*\\|\\n?)+)").matcher(page);
        if (table.find()) {
            for (String row : table.group(1).split("\n")) {
                if (!row.isBlank() && !ROW.matcher(row).matches() && !row.matches("^\\|.*\\|\\s*review\\s*\\|\\s*$")) {
                    throw new IllegalArgumentException("a row of the words table is neither count, ratio nor review: " + row);
                }
            }
        }
        return new AmountWords(words);
    }

    /** @return how many words the table gave */
    public int size() {
        return words.size();
    }

    /** @return every use of a word in {@code text}'s prose, each judged */
    public List<Use> uses(String text) {
        StringBuilder prose = new StringBuilder(text);
        Matcher hidden = HIDDEN.matcher(text);
        while (hidden.find()) {
            for (int i = hidden.start(); i < hidden.end(); i++) {
                if (prose.charAt(i) != '\n') {
                    prose.setCharAt(i, ' ');
                }
            }
        }
        List<Use> uses = new ArrayList<>();
        Matcher m = anyWord.matcher(prose);
        while (m.find()) {
            Word word = words.stream().filter(w -> w.text().equals(m.group())).findFirst().orElseThrow();
            int end = sentenceEnd(prose, m.end());
            boolean lineEnd = end >= prose.length() || prose.charAt(end) == '\n';
            List<String[]> markers = new ArrayList<>();
            Matcher within = ANY_MARKER.matcher(text.substring(m.end(), end)); // "…小一个数量级以上：<!-- holds -->…。"
            while (within.find()) {
                markers.add(new String[] {within.group(1), within.group(2).strip()});
            }
            if (!lineEnd) {
                Matcher after = MARKER.matcher(text);
                int at = end + 1;
                while (at < text.length() && after.find(at) && after.start() == at) {
                    markers.add(new String[] {after.group(1), after.group(2).strip()});
                    at = after.end();
                }
            }
            boolean openEnded = word.to() == null || followedBy以上(prose, m.end());
            boolean timeUnit = TIME_UNIT.matcher(prose.subSequence(m.end(), Math.min(prose.length(), m.end() + 3))).lookingAt();
            int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
            String sentence = text.substring(sentenceStart(prose, m.start()), Math.min(text.length(), lineEnd ? end : end + 1)).strip();
            uses.add(new Use(word.text(), line, sentence, judge(word, openEnded, timeUnit, markers)));
        }
        return uses;
    }

    private static int sentenceEnd(CharSequence prose, int from) {
        for (int i = from; i < prose.length(); i++) {
            char c = prose.charAt(i);
            if (c == '。' || c == '！' || c == '？' || c == '\n') {
                return i;
            }
        }
        return prose.length();
    }

    private static int sentenceStart(CharSequence prose, int from) {
        for (int i = from - 1; i >= 0; i--) {
            char c = prose.charAt(i);
            if (c == '。' || c == '！' || c == '？' || c == '\n') {
                return i + 1;
            }
        }
        return 0;
    }

    /** 以上 right after the word, or after the word and a unit of at most two characters (几十笔以上). */
    private static boolean followedBy以上(CharSequence prose, int from) {
        String next = prose.subSequence(from, Math.min(prose.length(), from + 4)).toString();
        return next.startsWith("以上") || next.matches("^.{1,2}以上.*");
    }

    private static Optional<String> judge(Word word, boolean openEnded, boolean timeUnit, List<String[]> markers) {
        for (String[] marker : markers) {
            if (marker[0].equals("words")) {
                return marker[1].isBlank() ? Optional.of("has <!-- words: --> without a reason") : Optional.empty();
            }
        }
        String range = describe(word, openEnded);
        List<String> conditions = markers.stream().filter(mk -> mk[0].equals("holds")).map(mk -> mk[1]).toList();
        if (conditions.isEmpty()) {
            return Optional.of("(" + range + ") has no holds after its sentence");
        }
        for (String condition : conditions) {
            if (bounds(word, openEnded, timeUnit, condition)) {
                return Optional.empty();
            }
        }
        return Optional.of("(" + range + ") is not implied by its holds: no quantity bounded to " + range + (word.ratio()
                ? " (as a ratio a / b or a op k * b, or a share, ratio or percentage by name)"
                : timeUnit ? " (in its unit, or ×10^±3, 10^±6, 10^±9 of it)" : " (as a count: no scale)"));
    }

    private static String describe(Word word, boolean openEnded) {
        String from = Holds.format(word.from());
        return openEnded || word.to() == null ? "≥ " + from : from + ".." + Holds.format(word.to());
    }

    /** @return whether {@code condition}'s top-level {@code and}s bound one quantity to the word's range */
    static boolean bounds(Word word, boolean openEnded, boolean timeUnit, String condition) {
        List<String> tokens = Holds.tokens(condition);
        if (tokens.contains("or")) {
            return false;
        }
        Map<String, double[]> byQuantity = new LinkedHashMap<>(); // quantity -> {lowest lower bound … , upper}
        List<String> comparison = new ArrayList<>();
        for (int i = 0; i <= tokens.size(); i++) {
            if (i == tokens.size() || tokens.get(i).equals("and")) {
                addBound(comparison, byQuantity);
                comparison.clear();
            } else {
                comparison.add(tokens.get(i));
            }
        }
        for (Map.Entry<String, double[]> e : byQuantity.entrySet()) {
            double[] b = e.getValue();
            for (double s : scales(word, timeUnit, e.getKey())) {
                boolean lowOk = b[0] >= word.from() * s * (1 - 1e-9)
                        || (!word.ratio() && s == 1 && b[1] == 1 && b[0] >= word.from() - 1); // "> 999" of a count is ≥ 1000
                boolean highOk;
                if (openEnded || word.to() == null) {
                    highOk = true;
                } else if (word.ratio()) {
                    highOk = b[2] <= word.to() * s * (1 + 1e-9);
                } else { // a count's range runs to just below to + 1: "< 100" and "<= 99" both bound 几十
                    double limit = (word.to() + 1) * s;
                    highOk = b[3] == 1 ? b[2] <= limit * (1 + 1e-9) : b[2] < limit * (1 - 1e-9);
                }
                if (lowOk && highOk) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The scales a bound on {@code quantity} may be written in for {@code word}: a time amount in its unit or a power of
     * a thousand of it (µs, ns for 毫秒); a count as it is; a ratio as {@code a / b} (or {@code a op k * b}), or a
     * quantity named a share, ratio, amplification or goodput as it is, or one named a percentage ×100.
     */
    private static double[] scales(Word word, boolean timeUnit, String quantity) {
        if (!word.ratio()) {
            return timeUnit ? COUNT_SCALES : new double[] {1};
        }
        if (quantity.contains(" / ")) {
            return new double[] {1};
        }
        if (PERCENT_NAMED.matcher(quantity).find()) {
            return new double[] {100};
        }
        return RATIO_NAMED.matcher(quantity).find() ? new double[] {1} : new double[0];
    }

    /** Records one comparison's bound: {lower, lower is strict (1) or not (0), upper, upper is strict (1) or not (0)}. */
    private static void addBound(List<String> comparison, Map<String, double[]> byQuantity) {
        int op = -1;
        for (int i = 0; i < comparison.size(); i++) {
            if (List.of("<", "<=", ">", ">=", "==").contains(comparison.get(i))) {
                op = i;
            }
        }
        if (op <= 0 || op == comparison.size() - 1) {
            return;
        }
        List<String> left = comparison.subList(0, op);
        List<String> right = comparison.subList(op + 1, comparison.size());
        String operator = comparison.get(op);
        Side l = side(left);
        Side r = side(right);
        String quantity;
        double k;
        if (r.constant != null && l.constant == null && l.times == null) {
            quantity = l.text;
            k = r.constant;
            if (r.times != null) {
                quantity = l.text + " / " + r.times;
            }
        } else if (l.constant != null && r.constant == null && r.times == null) {
            quantity = r.text;
            k = l.constant;
            if (l.times != null) {
                quantity = r.text + " / " + l.times;
            }
            operator = switch (operator) {
                case "<" -> ">";
                case "<=" -> ">=";
                case ">" -> "<";
                case ">=" -> "<=";
                default -> operator;
            };
        } else {
            return;
        }
        double[] b = byQuantity.computeIfAbsent(quantity, q -> new double[] {Double.NEGATIVE_INFINITY, 0, Double.POSITIVE_INFINITY, 0});
        if (operator.startsWith(">") || operator.equals("==")) {
            if (k > b[0] || (k == b[0] && operator.equals(">"))) {
                b[0] = k;
                b[1] = operator.equals(">") ? 1 : 0;
            }
        }
        if (operator.startsWith("<") || operator.equals("==")) {
            if (k < b[2] || (k == b[2] && operator.equals("<"))) {
                b[2] = k;
                b[3] = operator.equals("<") ? 1 : 0;
            }
        }
    }

    /** One side of a comparison: a constant, a constant times a quantity, or a quantity. */
    private record Side(String text, Double constant, String times) {}

    private static Side side(List<String> tokens) {
        String text = String.join(" ", tokens).replace("( ", "(").replace(" )", ")");
        if (tokens.size() == 1 && NUMBER.matcher(tokens.get(0)).matches()) {
            return new Side(text, Double.parseDouble(tokens.get(0)), null);
        }
        if (tokens.size() >= 3 && tokens.get(1).equals("*") && NUMBER.matcher(tokens.get(0)).matches() && simple(tokens.subList(2, tokens.size()))) {
            return new Side(text, Double.parseDouble(tokens.get(0)), String.join(" ", tokens.subList(2, tokens.size())));
        }
        int n = tokens.size();
        if (n >= 3 && tokens.get(n - 2).equals("*") && NUMBER.matcher(tokens.get(n - 1)).matches() && simple(tokens.subList(0, n - 2))) {
            return new Side(text, Double.parseDouble(tokens.get(n - 1)), String.join(" ", tokens.subList(0, n - 2)));
        }
        return new Side(text, null, null);
    }

    /** @return whether the tokens are one value or one parenthesised sum: a factor {@code k *} applies to all of it */
    private static boolean simple(List<String> tokens) {
        return tokens.size() == 1 || (tokens.get(0).equals("(") && tokens.get(tokens.size() - 1).equals(")"));
    }

    /**
     * Prints every use of a word that its sentence does not bound, as {@code AmountWordsTest} judges it, and exits 1 when
     * there is one: {@code java -cp book/target/classes archlab.book.AmountWords book/authoring.md book/12-1-baseline.md …}.
     */
    public static void main(String[] args) throws java.io.IOException {
        if (args.length < 2) {
            System.err.println("usage: AmountWords <authoring.md with the table> <chapter.md> ...");
            System.exit(2);
        }
        AmountWords words = fromTable(java.nio.file.Files.readString(java.nio.file.Path.of(args[0])));
        int loose = 0;
        int uses = 0;
        for (int i = 1; i < args.length; i++) {
            for (Use use : words.uses(java.nio.file.Files.readString(java.nio.file.Path.of(args[i])))) {
                uses++;
                if (use.problem().isPresent()) {
                    loose++;
                    System.out.println(args[i] + ":" + use.line() + " 「" + use.word() + "」 " + use.problem().get() + "\n    in: " + use.sentence());
                }
            }
        }
        System.out.println(uses + " use(s) of amount words, " + loose + " not bounded by their sentence");
        System.exit(loose == 0 ? 0 : 1);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d amount words", words.size());
    }
}
