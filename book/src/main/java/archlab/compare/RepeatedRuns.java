package archlab.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One run kind's figures over several runs of it: each figure's median, lowest and highest.
 *
 * <p>The trap: a 3-second run on a noisy 2-core machine moves its p99 two or three times from one run to the next, so a
 * sentence that compares two checkpoints on one run each claims a direction the next refresh may reverse. Over five
 * runs, interleaved across checkpoints (run 1 of each, then run 2 of each …, so a noisy minute hits them all), a
 * direction counts only where the ranges do not overlap ({@code min} of one above {@code max} of the other), and "no
 * difference" only where they do.
 *
 * <p>Writes {@code <out>.json}: {@code {"runs": N, "files": […], "median": {…}, "min": {…}, "max": {…}, "each": {…}}}, where each of
 * the three trees has the runs' own shape ({@code run}, {@code money}, {@code downstream}; every number all runs have),
 * so a marker reads {@code median.run.latency.p99Micros} as it would {@code run.latency.p99Micros} of one run; and
 * {@code <out>.md}, a table of the headline figures as "median (min–max)"; {@code each} lists the headline figures run
 * by run ({@code "run.latency.p99Micros": [ … ]}).
 *
 * <p>Any run report serves: the book's load ({@code baseline.json}) or a scenario's ({@code scenario-<name>.json}).
 *
 * <p>Usage: {@code java archlab.compare.RepeatedRuns <out-without-extension> <run1.json> <run2.json> …} (at least 3).
 * Stateless.
 */
public final class RepeatedRuns {

    /** The parts of a run report summarised: the run's own figures, the money and the downstream's counts. */
    static final List<String> PARTS = List.of("run", "money", "downstream");
    /** The rows of the text table: figure path, label. */
    static final List<String[]> HEADLINES = List.of(
            new String[] {"run.completed", "completed"},
            new String[] {"run.timedOut", "timed out"},
            new String[] {"run.failed", "failed"},
            new String[] {"run.rejected", "rejected"},
            new String[] {"run.maxOverrunNanos", "max overrun ns"},
            new String[] {"run.latency.p50Micros", "p50 µs"},
            new String[] {"run.latency.p99Micros", "p99 µs"},
            new String[] {"run.operations.create.latency.p99Micros", "create p99 µs"},
            new String[] {"run.operations.get.latency.p99Micros", "get p99 µs"},
            new String[] {"run.operations.pay.latency.p99Micros", "pay p99 µs"},
            new String[] {"money.paidOrders", "PAID orders"},
            new String[] {"money.chargedButNotPaid", "charged not PAID"},
            new String[] {"money.doubleCharges", "double charges"},
            new String[] {"run.sendLag.p99Micros", "send lag p99 µs"},
            new String[] {"run.hiccups.p99Micros", "hiccup p99 µs"});
    private static final ObjectMapper JSON = new ObjectMapper();

    private RepeatedRuns() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            System.err.println("usage: RepeatedRuns <out-without-extension> <run1.json> <run2.json> <run3.json> [...]");
            System.exit(2);
        }
        List<Path> runs = Arrays.stream(args).skip(1).map(Path::of).toList();
        ObjectNode summary = summarise(runs);
        Path out = Path.of(args[0]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(Path.of(args[0] + ".json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary) + "\n",
                StandardCharsets.UTF_8);
        String table = table(summary);
        Files.writeString(Path.of(args[0] + ".md"), table, StandardCharsets.UTF_8);
        System.out.print(table);
    }

    /**
     * @param runs at least 3 run reports of one run kind
     * @return {@code runs}, {@code files}, and the {@code median}, {@code min} and {@code max} trees
     * @throws IllegalArgumentException for fewer than 3 runs, or a file that is not a run report
     */
    public static ObjectNode summarise(List<Path> runs) {
        if (runs.size() < 3) {
            throw new IllegalArgumentException("a median of fewer than 3 runs says nothing about their spread: " + runs.size() + " given");
        }
        List<JsonNode> reports = new ArrayList<>();
        for (Path p : runs) {
            JsonNode r = read(p);
            if (!r.path("run").isObject()) {
                throw new IllegalArgumentException(p + " is not a run report (no \"run\" object)");
            }
            reports.add(r);
        }
        ObjectNode summary = JSON.createObjectNode();
        summary.put("runs", runs.size());
        ArrayNode files = summary.putArray("files");
        runs.forEach(p -> files.add(p.getFileName().toString()));
        ObjectNode median = summary.putObject("median");
        ObjectNode min = summary.putObject("min");
        ObjectNode max = summary.putObject("max");
        for (String part : PARTS) {
            fold(reports.stream().map(r -> r.path(part)).toList(), median.putObject(part), min.putObject(part), max.putObject(part));
        }
        ObjectNode each = summary.putObject("each"); // the headline figures run by run, in the order run
        for (String[] h : HEADLINES) {
            if (reports.stream().allMatch(r -> at(r, h[0]).isNumber())) {
                ArrayNode values = each.putArray(h[0]);
                reports.forEach(r -> values.add(at(r, h[0]).asDouble()));
            }
        }
        return summary;
    }

    /** Every number (and nested object) that all {@code nodes} have, folded into the three trees. */
    private static void fold(List<JsonNode> nodes, ObjectNode median, ObjectNode min, ObjectNode max) {
        Iterator<Map.Entry<String, JsonNode>> fields = nodes.get(0).fields();
        while (fields.hasNext()) {
            String name = fields.next().getKey();
            List<JsonNode> each = nodes.stream().map(n -> n.path(name)).toList();
            if (each.stream().allMatch(JsonNode::isNumber)) {
                double[] v = each.stream().mapToDouble(JsonNode::asDouble).sorted().toArray();
                median.put(name, median(v));
                min.put(name, v[0]);
                max.put(name, v[v.length - 1]);
            } else if (each.stream().allMatch(JsonNode::isObject)) {
                ObjectNode m = median.putObject(name);
                ObjectNode lo = min.putObject(name);
                ObjectNode hi = max.putObject(name);
                fold(each, m, lo, hi);
                if (m.isEmpty()) {
                    median.remove(name);
                    min.remove(name);
                    max.remove(name);
                }
            }
        }
    }

    /** @return the middle value of sorted {@code v}, or the mean of the two middle ones */
    static double median(double[] v) {
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** @return the headline figures as a Markdown table: figure, median, min–max */
    static String table(JsonNode summary) {
        StringBuilder t = new StringBuilder();
        t.append(String.format(Locale.ROOT, "Over %d runs (%s)%n%n| figure | median | min–max |%n|---|---|---|%n",
                summary.path("runs").asInt(), String.join(", ", names(summary.path("files")))));
        for (String[] h : HEADLINES) {
            JsonNode m = at(summary.path("median"), h[0]);
            if (m.isMissingNode()) {
                continue;
            }
            t.append(String.format(Locale.ROOT, "| %s | %s | %s–%s |%n", h[1], format(m.asDouble()),
                    format(at(summary.path("min"), h[0]).asDouble()), format(at(summary.path("max"), h[0]).asDouble())));
        }
        return t.toString();
    }

    private static List<String> names(JsonNode files) {
        List<String> n = new ArrayList<>();
        files.forEach(f -> n.add(f.asText()));
        return n;
    }

    private static JsonNode at(JsonNode tree, String path) {
        JsonNode n = tree;
        for (String step : path.split("\\.")) {
            n = n.path(step);
        }
        return n;
    }

    private static String format(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.1f", v);
    }

    private static JsonNode read(Path p) {
        try {
            return JSON.readTree(p.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
