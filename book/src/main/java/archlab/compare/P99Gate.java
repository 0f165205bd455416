package archlab.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The CI performance gate of the article ("if p99 regresses by more than 20% against the baseline, block
 * the merge"): compares a candidate run with a saved baseline report, operation by operation, and flags
 * every operation whose p99 is more than {@code threshold} worse.
 *
 * <p>The trap it avoids: an absolute limit ("p99 under 10 ms") breaks on a slower machine and hides a
 * regression on a faster one. The gate compares two runs of the same load, relative to each other, so
 * both reports must come from the same machine; that is also why this lab's own CI does not run it on
 * fresh timings (a shared 2-core machine is too noisy to gate on), only on hand-made reports in its tests.
 *
 * <p>Compared: the overall latency ({@code all}) and each operation of the baseline
 * ({@code run.operations.<op>.latency.p99Micros}, HdrHistogram, µs). An operation the candidate lacks is
 * flagged; one without samples in the baseline is skipped (nothing to compare against).
 *
 * <p>The same gate compares two baseline tables ({@link BaselineTable}, {@code kind: baseline-table}): row by row, by
 * {@code id}, on each row's {@code latency.p99Micros} (the long run's measured window); a row the candidate lacks is
 * flagged. A table is compared with a table only.
 *
 * <p>Usage: {@code java -cp <classpath> archlab.compare.P99Gate baseline.json candidate.json [--threshold 0.20]}.
 * Exit status: 0 nothing flagged, 1 something flagged, 2 bad input (usage, a missing file, a file that is not
 * a run report, a bad threshold), with a message on standard error.
 *
 * <p>Stateless and thread-safe.
 */
public final class P99Gate {

    /** The article's threshold: 20% worse. */
    public static final double DEFAULT_THRESHOLD = 0.20;
    public static final int PASS = 0;
    public static final int FLAGGED = 1;
    public static final int BAD_INPUT = 2;
    /** The name of the whole run's latency among the operations. */
    public static final String ALL = "all";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One operation's comparison.
     *
     * @param operation          e.g. "pay", or {@value #ALL}
     * @param baselineP99Micros  the baseline's p99, µs
     * @param candidateP99Micros the candidate's p99, µs; -1 if the candidate lacks the operation
     * @param change             candidate / baseline − 1 (0.25 = 25% worse); NaN if missing
     * @param flagged            whether it is more than the threshold worse, or missing
     */
    public record OperationP99(String operation, long baselineP99Micros, long candidateP99Micros, double change,
                               boolean flagged) {

        /** @return e.g. {@code pay      baseline_p99=6.291ms candidate_p99=7.900ms change=+25.6% FLAGGED} */
        public String render(double threshold) {
            if (candidateP99Micros < 0) {
                return String.format(Locale.ROOT, "%-8s baseline_p99=%.3fms candidate_p99=missing FLAGGED (the candidate has no %s)",
                        operation, baselineP99Micros / 1e3, operation);
            }
            return String.format(Locale.ROOT, "%-8s baseline_p99=%.3fms candidate_p99=%.3fms change=%+.1f%% %s",
                    operation, baselineP99Micros / 1e3, candidateP99Micros / 1e3, change * 100,
                    flagged ? String.format(Locale.ROOT, "FLAGGED (more than %+.0f%%)", threshold * 100) : "ok");
        }
    }

    private P99Gate() {
    }

    /**
     * Compares two run reports.
     *
     * @param threshold how much worse is tolerated, as a fraction (0.20 = 20%); not negative
     * @throws IllegalArgumentException if either tree is not a run report
     */
    public static List<OperationP99> compare(JsonNode baseline, JsonNode candidate, double threshold) {
        requireReport(baseline, "baseline");
        requireReport(candidate, "candidate");
        if (!(threshold >= 0) || Double.isInfinite(threshold)) {
            throw new IllegalArgumentException("threshold must be a number ≥ 0, was " + threshold);
        }
        if (isTable(baseline) != isTable(candidate)) {
            throw new IllegalArgumentException("a baseline table is compared with a baseline table, a run report with a run"
                    + " report: the baseline is " + (isTable(baseline) ? "a table" : "a run report") + ", the candidate is not");
        }
        List<OperationP99> verdicts = new ArrayList<>();
        if (isTable(baseline)) {
            requireRows(baseline, "baseline");
            requireRows(candidate, "candidate");
            for (JsonNode row : baseline.path("rows")) {
                JsonNode match = null;
                for (JsonNode c : candidate.path("rows")) {
                    if (c.path("id").asText().equals(row.path("id").asText())) {
                        match = c;
                    }
                }
                if (match != null && !match.path("load").asText().equals(row.path("load").asText())) {
                    throw new IllegalArgumentException("row " + row.path("id").asText() + ": the candidate ran another load ("
                            + match.path("load").asText() + ") than the baseline (" + row.path("load").asText() + ")");
                }
                add(verdicts, row.path("id").asText(), counted(row.path("latency")),
                        match == null ? null : counted(match.path("latency")), threshold);
            }
            return verdicts;
        }
        add(verdicts, ALL, baseline.path("run").path("latency"), candidate.path("run").path("latency"), threshold);
        for (Iterator<String> it = baseline.path("run").path("operations").fieldNames(); it.hasNext(); ) {
            String op = it.next();
            JsonNode candidateOp = candidate.path("run").path("operations").path(op);
            add(verdicts, op, baseline.path("run").path("operations").path(op).path("latency"),
                    candidateOp.isMissingNode() ? null : candidateOp.path("latency"), threshold);
        }
        return verdicts;
    }

    /** @return a table row's latency as a run report's: {@code requests} as {@code count} */
    private static JsonNode counted(JsonNode latency) {
        com.fasterxml.jackson.databind.node.ObjectNode n = JSON.createObjectNode();
        n.put("count", latency.path("requests").asLong(0));
        n.set("p99Micros", latency.path("p99Micros"));
        return n;
    }

    /** Refuses a table with no rows (it would pass anything) or with one id twice (which row would be gated?). */
    private static void requireRows(JsonNode table, String role) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (JsonNode row : table.path("rows")) {
            if (!ids.add(row.path("id").asText())) {
                throw new IllegalArgumentException("the " + role + " table has the row " + row.path("id").asText() + " twice");
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("the " + role + " table has no rows: nothing to gate");
        }
    }

    private static boolean isTable(JsonNode tree) {
        return tree != null && BaselineTable.KIND.equals(tree.path("kind").asText()) && tree.path("rows").isArray();
    }

    private static void add(List<OperationP99> out, String op, JsonNode base, JsonNode cand, double threshold) {
        if (base.path("count").asLong(0) == 0 || !base.path("p99Micros").isNumber()) {
            return; // no baseline samples: nothing to compare against
        }
        long b = base.path("p99Micros").asLong();
        if (cand == null || !cand.path("p99Micros").isNumber() || cand.path("count").asLong(0) == 0) {
            out.add(new OperationP99(op, b, -1, Double.NaN, true));
            return;
        }
        long c = cand.path("p99Micros").asLong();
        double change = b == 0 ? (c == 0 ? 0 : Double.POSITIVE_INFINITY) : (double) c / b - 1;
        out.add(new OperationP99(op, b, c, change, change > threshold));
    }

    /** Runs the gate as the command line does; returns the exit status instead of exiting. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String usage = "usage: P99Gate baseline.json candidate.json [--threshold 0.20]";
        List<String> files = new ArrayList<>();
        double threshold = DEFAULT_THRESHOLD;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            if (a.equals("--threshold")) {
                if (i + 1 >= args.length) {
                    err.println("--threshold needs a value, e.g. --threshold 0.20\n" + usage);
                    return BAD_INPUT;
                }
                value = args[++i];
            } else if (a.startsWith("--threshold=")) {
                value = a.substring("--threshold=".length());
            } else if (a.startsWith("--")) {
                err.println("unknown option " + a + "\n" + usage);
                return BAD_INPUT;
            } else {
                files.add(a);
            }
            if (value != null) {
                try {
                    threshold = Double.parseDouble(value.trim());
                } catch (NumberFormatException e) {
                    threshold = Double.NaN;
                }
                if (!(threshold >= 0) || Double.isInfinite(threshold)) {
                    err.println("--threshold must be a fraction ≥ 0 such as 0.20 (20%), was '" + value + "'");
                    return BAD_INPUT;
                }
            }
        }
        if (files.size() != 2) {
            err.println((files.isEmpty() ? "no report files given" : "expected 2 report files, got " + files.size()) + "\n" + usage);
            return BAD_INPUT;
        }
        JsonNode baseline;
        JsonNode candidate;
        try {
            baseline = read(Path.of(files.get(0)), "baseline");
            candidate = read(Path.of(files.get(1)), "candidate");
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return BAD_INPUT;
        }
        double limit = threshold;
        List<OperationP99> verdicts;
        try {
            verdicts = compare(baseline, candidate, limit);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return BAD_INPUT;
        }
        out.printf(Locale.ROOT, "p99 gate: %s (baseline, %s) vs %s (candidate, %s), threshold %+.0f%%%n", what(baseline),
                files.get(0), what(candidate), files.get(1), limit * 100);
        verdicts.forEach(v -> out.println(v.render(limit)));
        long flagged = verdicts.stream().filter(OperationP99::flagged).count();
        String unit = isTable(baseline) ? "row" : "operation";
        out.println(flagged == 0 ? "PASS: no " + unit + "'s p99 is more than " + Math.round(threshold * 100) + "% worse"
                : "FAIL: " + flagged + " " + unit + "(s) flagged");
        return flagged == 0 ? PASS : FLAGGED;
    }

    private static String what(JsonNode tree) {
        return isTable(tree) ? "the baseline table" : tree.path("module").asText() + "/" + tree.path("name").asText();
    }

    /** {@code java archlab.compare.P99Gate baseline.json candidate.json [--threshold 0.20]}; exits 0, 1 or 2. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    private static JsonNode read(Path file, String role) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(role + " report not found: " + file);
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(role + " report is not JSON: " + file + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        try {
            requireReport(tree, role);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ": " + file);
        }
        return tree;
    }

    private static void requireReport(JsonNode tree, String role) {
        if (isTable(tree)) {
            return;
        }
        if (tree == null || !tree.isObject() || !tree.path("run").path("latency").path("p99Micros").isNumber()
                || !tree.path("run").path("operations").isObject()) {
            throw new IllegalArgumentException(role + " is not a run report (no run.latency.p99Micros and run.operations)"
                    + " nor a baseline table (kind " + BaselineTable.KIND + ")");
        }
    }
}
