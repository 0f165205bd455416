package archlab.book;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The condition under which a sentence of the book is true, over the saved results: the {@code <!-- holds: … -->}
 * marker placed right after a sentence that compares or interprets the lab's numbers. The numbers beside a sentence
 * are refreshed from {@code book/results/} on every run of {@code book/refresh.sh}; the sentence is not. A sentence
 * that says "the cache made gets slower" stays in the chapter after a refresh in which it did not; its condition
 * makes {@link BookSync#check} fail instead, naming the sentence and the values.
 *
 * <p>Grammar (whitespace separates every token from the next, except next to a parenthesis: {@code -} and
 * {@code /} also occur inside file names):
 * <pre>
 * condition  = conjunction { "or" conjunction }
 * conjunction = comparison { "and" comparison }
 * comparison = sum ( "&lt;" | "&lt;=" | "&gt;" | "&gt;=" | "==" | "!=" ) sum
 * sum        = product { ( "+" | "-" ) product }
 * product    = factor { ( "*" | "/" ) factor }
 * factor     = number | value | "(" sum ")"
 * number     = [ "-" ] digits [ "." digits ] [ ( "e" | "E" ) [ "+" | "-" ] digits ]
 * value      = file ":" path
 * </pre>
 * A {@code value} addresses one number of a saved JSON report exactly as the {@code <!--v:file:path-->} marker does
 * (file under {@code book/results/}; path as {@link ResultLookups} reads it, including selections such as
 * {@code rows[ratePerSecond=500].p99Micros}, whose brackets may hold spaces and parentheses). {@code and} binds
 * tighter than {@code or}; {@code *} and {@code /} tighter than {@code +} and {@code -}; arithmetic is in doubles.
 * Example:
 * <pre>{@code <!-- holds: ch12-2-cache-outbox-ratelimit/cache-read-0ms-on.json:run.operations.get.latency.p99Micros
 *     > ch12-2-cache-outbox-ratelimit/cache-read-0ms-off.json:run.operations.get.latency.p99Micros -->}</pre>
 *
 * <p>A value whose path names nothing, or names something that is not a number, is an error, never a false: a
 * renamed field must not read as a sentence that stopped being true, nor a typo as one that holds.
 *
 * <p>Immutable and thread-safe; {@link #evaluate} reads values through the lookup it is given.
 */
public final class Holds {

    /** Reads the number a value names. */
    @FunctionalInterface
    public interface Lookup {
        /**
         * @return the number at {@code path} of {@code file}
         * @throws IllegalArgumentException if there is none
         */
        double number(String file, String path);
    }

    /**
     * An evaluated condition.
     *
     * @param holds  whether the condition is true
     * @param values every value the condition read, in the order it names them: "file:path" to its number
     */
    public record Evaluation(boolean holds, Map<String, Double> values) {
        public Evaluation {
            values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }

        /** @return the values read, as {@code file:path = number}, separated by {@code "; "} */
        public String describeValues() {
            List<String> parts = new ArrayList<>();
            values.forEach((k, v) -> parts.add(k + " = " + format(v)));
            return String.join("; ", parts);
        }
    }

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
    private static final List<String> COMPARISONS = List.of("<", "<=", ">", ">=", "==", "!=");

    private final String text;
    private final Node root;

    private Holds(String text, Node root) {
        this.text = text;
        this.root = root;
    }

    /**
     * @param text the condition, as written in the marker
     * @throws IllegalArgumentException if it does not follow the grammar, saying where
     */
    public static Holds parse(String text) {
        Objects.requireNonNull(text, "text");
        Parser p = new Parser(text, tokens(text));
        Node condition = p.condition();
        if (p.pos < p.tokens.size()) {
            throw p.error("unexpected '" + p.tokens.get(p.pos) + "'");
        }
        return new Holds(text, condition);
    }

    /** @return the condition as written */
    public String text() {
        return text;
    }

    /**
     * @param lookup reads each value the condition names
     * @throws IllegalArgumentException if a value names nothing or something that is not a number
     */
    public Evaluation evaluate(Lookup lookup) {
        Map<String, Double> values = new LinkedHashMap<>();
        boolean holds = root.truth(new Reader(lookup, values));
        return new Evaluation(holds, values);
    }

    @Override
    public String toString() {
        return text;
    }

    static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v).replaceFirst("\\.?0+(e|$)", "$1");
    }

    // ---- tokens ----

    /** Splits on whitespace (outside brackets) and around parentheses (outside brackets). */
    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (depth == 0 && (Character.isWhitespace(c) || c == '(' || c == ')')) {
                if (!word.isEmpty()) {
                    tokens.add(word.toString());
                    word.setLength(0);
                }
                if (c == '(' || c == ')') {
                    tokens.add(String.valueOf(c));
                }
                continue;
            }
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("holds: unbalanced ']' at character " + (i + 1) + " of: " + text);
                }
            }
            word.append(c);
        }
        if (depth != 0) {
            throw new IllegalArgumentException("holds: unclosed '[' in: " + text);
        }
        if (!word.isEmpty()) {
            tokens.add(word.toString());
        }
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("holds: an empty condition");
        }
        return tokens;
    }

    // ---- syntax tree ----

    private record Reader(Lookup lookup, Map<String, Double> values) {
        double read(String file, String path) {
            double v = lookup.number(file, path);
            values.put(file + ":" + path, v);
            return v;
        }
    }

    private sealed interface Node permits Num, Value, Arith, Compare, Logic {
        default double number(Reader r) {
            throw new IllegalStateException("not a number: " + this);
        }

        default boolean truth(Reader r) {
            throw new IllegalStateException("not a condition: " + this);
        }
    }

    private record Num(double v) implements Node {
        @Override
        public double number(Reader r) {
            return v;
        }
    }

    private record Value(String file, String path) implements Node {
        @Override
        public double number(Reader r) {
            return r.read(file, path);
        }
    }

    private record Arith(String op, Node left, Node right) implements Node {
        @Override
        public double number(Reader r) {
            double a = left.number(r);
            double b = right.number(r);
            return switch (op) {
                case "+" -> a + b;
                case "-" -> a - b;
                case "*" -> a * b;
                case "/" -> a / b;
                default -> throw new IllegalStateException(op);
            };
        }
    }

    private record Compare(String op, Node left, Node right) implements Node {
        @Override
        public boolean truth(Reader r) {
            double a = left.number(r);
            double b = right.number(r);
            return switch (op) {
                case "<" -> a < b;
                case "<=" -> a <= b;
                case ">" -> a > b;
                case ">=" -> a >= b;
                case "==" -> a == b;
                case "!=" -> a != b;
                default -> throw new IllegalStateException(op);
            };
        }
    }

    /** Both sides are always evaluated, so that every value the condition names is reported. */
    private record Logic(boolean and, Node left, Node right) implements Node {
        @Override
        public boolean truth(Reader r) {
            boolean a = left.truth(r);
            boolean b = right.truth(r);
            return and ? a && b : a || b;
        }
    }

    // ---- parser: recursive descent over the grammar in the class comment ----

    private static final class Parser {
        final String text;
        final List<String> tokens;
        int pos;

        Parser(String text, List<String> tokens) {
            this.text = text;
            this.tokens = tokens;
        }

        Node condition() {
            Node left = conjunction();
            while (accept("or")) {
                left = new Logic(false, left, conjunction());
            }
            return left;
        }

        Node conjunction() {
            Node left = comparison();
            while (accept("and")) {
                left = new Logic(true, left, comparison());
            }
            return left;
        }

        Node comparison() {
            Node left = sum();
            String op = peek();
            if (op == null || !COMPARISONS.contains(op)) {
                throw error(op == null ? "a comparison (< <= > >= == !=) expected at the end"
                        : "a comparison (< <= > >= == !=) expected before '" + op + "'");
            }
            pos++;
            return new Compare(op, left, sum());
        }

        Node sum() {
            Node left = product();
            while ("+".equals(peek()) || "-".equals(peek())) {
                String op = tokens.get(pos++);
                left = new Arith(op, left, product());
            }
            return left;
        }

        Node product() {
            Node left = factor();
            while ("*".equals(peek()) || "/".equals(peek())) {
                String op = tokens.get(pos++);
                left = new Arith(op, left, factor());
            }
            return left;
        }

        Node factor() {
            String t = peek();
            if (t == null) {
                throw error("a number, a value or '(' expected at the end");
            }
            pos++;
            if (t.equals("(")) {
                Node inner = sum();
                if (!accept(")")) {
                    throw error("')' expected" + (peek() == null ? " at the end" : " before '" + peek() + "'"));
                }
                return inner;
            }
            if (NUMBER.matcher(t).matches()) {
                return new Num(Double.parseDouble(t));
            }
            int colon = t.indexOf(':');
            if (colon > 0 && colon < t.length() - 1 && !t.startsWith("[")) {
                return new Value(t.substring(0, colon), t.substring(colon + 1));
            }
            pos--;
            throw error("'" + t + "' is neither a number nor a value (file.json:path)");
        }

        String peek() {
            return pos < tokens.size() ? tokens.get(pos) : null;
        }

        boolean accept(String t) {
            if (t.equals(peek())) {
                pos++;
                return true;
            }
            return false;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("holds: " + what + " (token " + (pos + 1) + " of " + tokens.size() + ") in: " + text);
        }
    }
}
