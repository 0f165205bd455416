package archlab.profile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A {@code go tool pprof -top} table: weight by method, for one kind of event (lock waits, CPU samples,
 * allocations). Immutable; a plain record of strings, numbers and lists so that Jackson can serialise it.
 *
 * <p>Semantics, as pprof: {@code flat} is the weight of events whose leaf frame is the method; {@code cum}
 * the weight of events whose stack contains the method anywhere, counted once per event however often the
 * method recurses in it; percentages are of {@link #total}; rows are sorted by flat descending, then cum
 * descending, then method name; {@code sum%} is the running total of {@code flat%}, so it rises to 100%.
 * Every event has exactly one leaf, so the flat column adds up to the total: an event without a stack trace
 * is attributed to the pseudo-method {@value #NO_STACK}.
 *
 * @param title     what the table shows, printed above it
 * @param unit      the unit of {@code total}, {@code flat} and {@code cum}
 * @param total     the weight of all events in the table
 * @param events    how many events the table was built from
 * @param rows      every method that appears on some stack, in table order
 * @param note      a warning about what the table may be missing, or {@code ""}: {@link #render} prints it in place
 *                  of the rows when there are none (so an empty table says why it is empty), else under the title
 */
public record TopTable(String title, ValueUnit unit, double total, long events, List<TopRow> rows, String note) {

    /** The method an event without a stack trace is attributed to. */
    public static final String NO_STACK = "(no stack trace)";

    private static final Comparator<TopRow> ORDER = Comparator.comparingDouble(TopRow::flat).reversed()
            .thenComparing(Comparator.comparingDouble(TopRow::cum).reversed())
            .thenComparing(TopRow::method);

    public TopTable {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(unit, "unit");
        rows = List.copyOf(rows);
        note = note == null ? "" : note;
    }

    /**
     * Builds the table: a pure function of its arguments (no JFR needed), so the arithmetic can be checked by hand.
     *
     * @param title  the table's title
     * @param unit   the unit of the stacks' weights
     * @param stacks weighted stacks, leaf first; the same stack may appear more than once
     * @return the table, without a note
     */
    public static TopTable aggregate(String title, ValueUnit unit, Collection<WeightedStack> stacks) {
        Map<String, double[]> byMethod = new HashMap<>(); // [0] flat, [1] cum
        double total = 0;
        long events = 0;
        Set<String> seen = new HashSet<>();
        for (WeightedStack s : stacks) {
            double w = s.weight();
            total += w;
            events += s.events();
            List<String> frames = s.frames().isEmpty() ? List.of(NO_STACK) : s.frames();
            byMethod.computeIfAbsent(frames.get(0), m -> new double[2])[0] += w;
            seen.clear();
            for (String f : frames) {
                if (seen.add(f)) {
                    byMethod.computeIfAbsent(f, m -> new double[2])[1] += w;
                }
            }
        }
        List<TopRow> rows = new ArrayList<>(byMethod.size());
        for (Map.Entry<String, double[]> e : byMethod.entrySet()) {
            double flat = e.getValue()[0];
            double cum = e.getValue()[1];
            rows.add(new TopRow(e.getKey(), flat, percent(flat, total), 0, cum, percent(cum, total)));
        }
        rows.sort(ORDER);
        List<TopRow> withSum = new ArrayList<>(rows.size());
        double sum = 0;
        for (TopRow r : rows) {
            sum += r.flatPercent();
            withSum.add(new TopRow(r.method(), r.flat(), r.flatPercent(), sum, r.cum(), r.cumPercent()));
        }
        return new TopTable(title, unit, total, events, withSum, "");
    }

    /** @return a copy with {@code note} as its warning (see {@link #note()}) */
    public TopTable withNote(String note) {
        return new TopTable(title, unit, total, events, rows, note);
    }

    /** @return the row of {@code method}, if it appears on any stack */
    public Optional<TopRow> row(String method) {
        return rows.stream().filter(r -> r.method().equals(method)).findFirst();
    }

    /**
     * Prints the table as {@code pprof -top} does:
     * <pre>
     * === Lock contention top (...) ===
     * Showing top 10 of 37 methods; total 1.2s in 150 events
     *       flat  flat%   sum%        cum   cum%
     *    481.67s   100%   100%    481.67s   100%  java.util.concurrent.locks.LockSupport.park
     * </pre>
     *
     * @param topN how many rows at most; at least 1
     * @return the text, lines ending in {@code \n}
     */
    public String render(int topN) {
        return render(topN, method -> false);
    }

    /**
     * Frames that only carry a thread to the code that matters: thread entry points, continuations, the fork-join
     * pool. In a load run they sit at cum 100% and crowd the application rows out; so does the load runner's own
     * dispatch ({@link #plumbingAnd}).
     */
    public static final Predicate<String> PLUMBING = method -> method.startsWith("java.lang.Thread.")
            || method.startsWith("java.lang.VirtualThread") || method.startsWith("jdk.internal.vm.Continuation")
            || method.startsWith("java.util.concurrent.ForkJoin");

    /**
     * @param runner the class that drove the recorded load (its methods, nested classes and lambdas are its dispatch)
     * @return {@link #PLUMBING}, and the frames of {@code runner}
     */
    public static Predicate<String> plumbingAnd(Class<?> runner) {
        String frames = runner.getName();
        return PLUMBING.or(method -> method.startsWith(frames));
    }

    /**
     * Like {@link #render(int)}, but leaves out rows with no flat value whose method {@code hide} matches
     * (e.g. {@link #PLUMBING}); every percentage is still of the whole table, and the header says how many
     * rows were left out.
     */
    public String render(int topN, Predicate<String> hide) {
        if (topN < 1) {
            throw new IllegalArgumentException("topN must be >= 1, was " + topN);
        }
        StringBuilder out = new StringBuilder();
        out.append("=== ").append(title).append(" ===\n");
        if (rows.isEmpty()) {
            out.append("  (").append(note.isEmpty() ? "no events" : note).append(")\n");
            return out.toString();
        }
        if (!note.isEmpty()) {
            out.append("  ! ").append(note).append('\n');
        }
        List<TopRow> visible = rows.stream().filter(r -> r.flat() != 0 || !hide.test(r.method())).toList();
        List<TopRow> shown = visible.subList(0, Math.min(topN, visible.size()));
        int hidden = rows.size() - visible.size();
        out.append(String.format(Locale.ROOT, "Showing top %d of %d methods; total %s in %d events%s%n",
                shown.size(), rows.size(), unit.format(total), events,
                hidden == 0 ? "" : " (" + hidden + " thread/runner entry frames with no flat time left out)"));
        List<String[]> cells = new ArrayList<>();
        for (TopRow r : shown) {
            cells.add(new String[] {unit.format(r.flat()), pct(r.flatPercent()), pct(r.sumPercent()),
                    unit.format(r.cum()), pct(r.cumPercent())});
        }
        String[] header = {"flat", "flat%", "sum%", "cum", "cum%"};
        int[] width = {10, 6, 6, 10, 6};
        for (String[] c : cells) {
            for (int i = 0; i < c.length; i++) {
                width[i] = Math.max(width[i], c[i].length());
            }
        }
        appendLine(out, header, width, "");
        for (int i = 0; i < shown.size(); i++) {
            appendLine(out, cells.get(i), width, shown.get(i).method());
        }
        return out.toString();
    }

    private static void appendLine(StringBuilder out, String[] cells, int[] width, String method) {
        for (int i = 0; i < cells.length; i++) {
            out.append(' ').append(" ".repeat(width[i] - cells[i].length())).append(cells[i]);
        }
        if (!method.isEmpty()) {
            out.append("  ").append(method);
        }
        out.append('\n');
    }

    /** pprof's percentage: {@code 100%} near 100, {@code 0%} at 0, else two decimals. */
    static String pct(double p) {
        if (p == 0) {
            return "0%";
        }
        if (Math.abs(p - 100) < 0.005) {
            return "100%";
        }
        return String.format(Locale.ROOT, "%.2f%%", p);
    }

    private static double percent(double part, double total) {
        return total == 0 ? 0 : 100.0 * part / total;
    }
}
