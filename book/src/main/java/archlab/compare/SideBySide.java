package archlab.compare;

import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Many saved runs in one table, side by side: each report a column, each figure a row, so that one
 * checkpoint's run can be read against another's (and against its own ablations) figure by figure.
 *
 * <p>The trap it avoids: comparing runs by memory, or by two terminal windows, invites comparing
 * different loads or stale numbers. The table is built only from the saved JSON reports ({@link ReportWriter}),
 * names each column {@code module/name}, and prints every report's timestamp as its first row, so a
 * stale column shows.
 *
 * <p>Rows, in order: report time and Maven session ({@code environment.session}: runs of one
 * {@code mvn test -Dbaseline} at the root share it); offered, completed, timed_out, failed, rejected, rps_completed; latency
 * p50/p99/p999 in ms (HdrHistogram) overall and per operation (every operation any report has); charged but
 * not PAID and double charges; total lock wait in ms, from the traced {@code lock.wait} segments and from
 * the JFR profile when there is one; allocation per offered request in KiB (JFR estimate); then every
 * numeric or boolean {@code extra} figure any report has. A figure a report lacks is shown as {@value #MISSING}.
 *
 * <p>Reports are read as JSON trees (Jackson), so the table works on reports written by any version
 * that has the fields it reads. Immutable and thread-safe.
 */
public final class SideBySide {

    /** What a figure a report does not have looks like in the text. */
    public static final String MISSING = "–";
    /** The file names {@link #write} uses, without extension, under a reports folder. */
    public static final String FILE_NAME = "side-by-side";

    /**
     * One report.
     *
     * @param id     {@code module/name}
     * @param at     when the report was made (its {@code environment.at}), or "" if not recorded
     * @param file   where it was read from
     */
    public record Column(String id, String at, String file) {
    }

    /**
     * One figure across the reports.
     *
     * @param metric the figure's name, e.g. {@code "pay p99_ms"}
     * @param values one per column, in column order; {@code null} where the report lacks it; numbers are
     *               Double, flags Boolean, the report time a String
     */
    public record Row(String metric, List<Object> values) {
    }

    private static final ObjectMapper JSON = ReportWriter.mapper();

    private final List<Column> columns;
    private final List<Row> rows;

    private SideBySide(List<Column> columns, List<Row> rows) {
        this.columns = List.copyOf(columns);
        this.rows = List.copyOf(rows);
    }

    /**
     * {@code SideBySide <report.json>...}: prints the table of the given run reports, one column each, in that order, e.g.
     * the same checkpoint's run in process and over HTTP ({@code baseline.json baseline-http.json}): what the wire cost.
     * Exits 2 on bad input (a missing file, not a run report), with one line saying which.
     */
    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: SideBySide <report.json>...   e.g. ch12-1-baseline/target/reports/baseline.json"
                    + " ch12-1-baseline/target/reports/baseline-http.json");
            System.exit(2);
        }
        try {
            System.out.print(of(java.util.Arrays.stream(args).map(Path::of).toList()).markdown());
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Builds the table of {@code reportFiles}, in that order.
     *
     * @throws IllegalArgumentException if the list is empty, or a file is missing, not JSON or not a run report
     *                                  (the message names the file)
     */
    public static SideBySide of(List<Path> reportFiles) {
        if (reportFiles == null || reportFiles.isEmpty()) {
            throw new IllegalArgumentException("no report files given");
        }
        List<JsonNode> reports = new ArrayList<>();
        List<Column> columns = new ArrayList<>();
        for (Path file : reportFiles) {
            JsonNode report = readReport(file);
            reports.add(report);
            columns.add(new Column(report.path("module").asText() + "/" + report.path("name").asText(),
                    report.path("environment").path("at").asText(""), file.toString()));
        }
        return new SideBySide(columns, rows(reports));
    }

    /**
     * Finds the run reports of every module under {@code root}: {@code <root>/<module>/target/reports/*.json}
     * that are run reports (other JSON files there, such as this table's own, are skipped). Sorted by
     * module, then the run named "baseline" first, then by name.
     */
    public static List<Path> findReports(Path root) {
        return SavedReports.jsonFiles(root).stream().filter(SideBySide::isReport).toList();
    }

    /**
     * The reports of one Maven session ({@code environment.session}), so that a root
     * {@code mvn test -Dbaseline} compares exactly the runs it made and never a stale report; a module
     * with no report of this session (e.g. {@code -pl} ran another module alone) still contributes its
     * saved {@code baseline.json}, whose session row shows it is older.
     */
    public static List<Path> findReports(Path root, String session) {
        List<Path> all = findReports(root);
        List<Path> ofSession = all.stream().filter(p -> session.equals(SavedReports.sessionOf(p))).toList();
        java.util.Set<Path> modulesWithSession = new java.util.HashSet<>();
        ofSession.forEach(p -> modulesWithSession.add(p.getParent().getParent().getParent()));
        List<Path> out = new ArrayList<>();
        for (Path p : all) {
            Path module = p.getParent().getParent().getParent();
            boolean fallbackBaseline = !modulesWithSession.contains(module) && p.getFileName().toString().equals("baseline.json");
            if (ofSession.contains(p) || fallbackBaseline) {
                out.add(p);
            }
        }
        return out;
    }

    /** @return whether {@code file} reads as a run report (module, name and run.offered present) */
    public static boolean isReport(Path file) {
        try {
            return looksLikeReport(JSON.readTree(file.toFile()));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    public List<Column> columns() {
        return columns;
    }

    public List<Row> rows() {
        return rows;
    }

    /** @return the value of {@code metric} in column {@code columnId}, or {@code null} if either is absent */
    public Object value(String metric, String columnId) {
        int c = -1;
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).id().equals(columnId)) {
                c = i;
            }
        }
        if (c < 0) {
            return null;
        }
        for (Row row : rows) {
            if (row.metric().equals(metric)) {
                return row.values().get(c);
            }
        }
        return null;
    }

    /** @return the table as Markdown: one column per report, one row per figure */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| metric |");
        columns.forEach(c -> sb.append(' ').append(c.id()).append(" |"));
        sb.append('\n').append("| --- |");
        columns.forEach(c -> sb.append(" ---: |"));
        sb.append('\n');
        for (Row row : rows) {
            sb.append("| ").append(row.metric()).append(" |");
            row.values().forEach(v -> sb.append(' ').append(format(v)).append(" |"));
            sb.append('\n');
        }
        return sb.toString();
    }

    /** @return a JSON-friendly value: {@code {columns: [...], rows: [{metric, values}]}} */
    public Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("columns", columns);
        out.put("rows", rows);
        return out;
    }

    /**
     * Writes {@code <dir>/side-by-side.md} and {@code <dir>/side-by-side.json}.
     *
     * @return the Markdown file
     */
    public Path write(Path dir) {
        return write(dir, FILE_NAME);
    }

    /**
     * Writes {@code <dir>/<name>.md} and {@code <dir>/<name>.json}.
     *
     * @return the Markdown file
     */
    public Path write(Path dir, String name) {
        return ReportWriter.writeTable(dir, name, markdown(), json(), "the side-by-side table");
    }

    private static JsonNode readReport(Path file) {
        if (file == null || !Files.isRegularFile(file)) {
            throw new IllegalArgumentException("report file not found: " + file);
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON file: " + file + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (!looksLikeReport(tree)) {
            throw new IllegalArgumentException("not a run report (no module, name and run.offered): " + file);
        }
        return tree;
    }

    private static boolean looksLikeReport(JsonNode tree) {
        return tree != null && tree.isObject() && tree.path("module").isTextual() && tree.path("name").isTextual()
                && tree.path("run").path("offered").isNumber();
    }

    private static List<Row> rows(List<JsonNode> reports) {
        List<Row> rows = new ArrayList<>();
        rows.add(row("report time (UTC)", reports, r -> text(r.path("environment").path("at"))));
        rows.add(row("session", reports, r -> text(r.path("environment").path("session"))));
        for (String f : List.of("offered", "completed", "timedOut", "failed", "rejected")) {
            rows.add(row(f.equals("timedOut") ? "timed_out" : f, reports, r -> number(r.path("run").path(f))));
        }
        rows.add(row("rps_completed", reports, r -> {
            Double completed = number(r.path("run").path("completed"));
            Double wall = number(r.path("run").path("wallNanos"));
            return completed == null || wall == null || wall == 0 ? null : completed / (wall / 1e9);
        }));
        addLatency(rows, "", reports, r -> r.path("run").path("latency"));
        // whether the machine disturbed the run: the generator's lateness and the machine's own stalls (n/a for a
        // report written before runs had a hiccup probe, or by a run without one)
        rows.add(row("send_lag_p99_ms", reports, r -> {
            Double micros = number(r.path("run").path("sendLag").path("p99Micros"));
            return micros == null ? null : micros / 1e3;
        }));
        rows.add(row("hiccup_p99_ms", reports, r -> {
            JsonNode h = r.path("run").path("hiccups");
            Double samples = number(h.path("samples"));
            return samples == null || samples == 0 ? null : number(h.path("p99Micros")) / 1e3;
        }));
        Set<String> operations = new TreeSet<>();
        for (JsonNode r : reports) {
            r.path("run").path("operations").fieldNames().forEachRemaining(operations::add);
        }
        for (String op : operations) {
            addLatency(rows, op + " ", reports, r -> r.path("run").path("operations").path(op).path("latency"));
        }
        rows.add(row("charged_not_paid", reports, r -> number(r.path("money").path("chargedButNotPaid"))));
        rows.add(row("double_charges", reports, r -> number(r.path("money").path("doubleCharges"))));
        // a run on PostgreSQL has a "store" line (its pool's figures follow among the extras); one in memory has none
        rows.add(row("store", reports, r -> java.util.stream.StreamSupport.stream(r.path("extra").spliterator(), false)
                .anyMatch(l -> l.path("name").asText().equals("store")) ? "postgres" : "memory"));
        rows.add(row("lock_wait_ms (traced)", reports, SideBySide::tracedLockWaitMillis));
        rows.add(row("lock_wait_ms (JFR)", reports, r -> {
            JsonNode byBlocker = profile(r).path("lockWaitByBlocker");
            if (!byBlocker.isObject()) {
                return null;
            }
            double sum = 0;
            for (Iterator<JsonNode> it = byBlocker.elements(); it.hasNext(); ) {
                sum += it.next().asDouble();
            }
            return sum / 1e6;
        }));
        rows.add(row("alloc_per_request_KiB (JFR)", reports, r -> {
            Double bytes = number(profile(r).path("gc").path("allocatedBytesEstimate"));
            Double offered = number(r.path("run").path("offered"));
            return bytes == null || offered == null || offered == 0 ? null : bytes / offered / 1024;
        }));
        Set<String> extras = new LinkedHashSet<>();
        for (JsonNode r : reports) {
            for (JsonNode line : r.path("extra")) {
                JsonNode v = line.path("value");
                if (line.path("name").isTextual() && (v.isNumber() || v.isBoolean())) {
                    extras.add(line.path("name").asText());
                }
            }
        }
        for (String name : extras) {
            rows.add(row(name, reports, r -> {
                for (JsonNode line : r.path("extra")) {
                    if (name.equals(line.path("name").asText())) {
                        JsonNode v = line.path("value");
                        return v.isBoolean() ? (Object) v.asBoolean() : number(v);
                    }
                }
                return null;
            }));
        }
        return rows;
    }

    private static void addLatency(List<Row> rows, String prefix, List<JsonNode> reports, Function<JsonNode, JsonNode> latency) {
        for (String p : List.of("p50", "p99", "p999")) {
            rows.add(row(prefix + p + "_ms", reports, r -> {
                JsonNode l = latency.apply(r);
                Double micros = number(l.path(p + "Micros"));
                return micros == null || number(l.path("count")) == null ? null : micros / 1e3;
            }));
        }
    }

    /** Σ self time of every traced {@code lock.wait} segment, ms; null when the run was not traced. */
    private static Object tracedLockWaitMillis(JsonNode report) {
        JsonNode segments = report.path("run").path("segments");
        if (!segments.isArray() || segments.isEmpty()) {
            return null;
        }
        double nanos = 0;
        for (JsonNode s : segments) {
            if ("lock.wait".equals(s.path("segment").asText())) {
                nanos += s.path("selfTotalNanos").asDouble();
            }
        }
        return nanos / 1e6;
    }

    /** The profile figures: {@code profile.json} as {@link LabRun} writes them, or {@code profile} itself. */
    private static JsonNode profile(JsonNode report) {
        JsonNode p = report.path("profile");
        return p.has("json") ? p.path("json") : p;
    }

    private static Row row(String metric, List<JsonNode> reports, Function<JsonNode, Object> value) {
        List<Object> values = new ArrayList<>();
        for (JsonNode r : reports) {
            values.add(value.apply(r));
        }
        return new Row(metric, java.util.Collections.unmodifiableList(values));
    }

    private static String text(JsonNode n) {
        return n != null && n.isTextual() ? n.asText() : null;
    }

    private static Double number(JsonNode n) {
        return n != null && n.isNumber() ? n.asDouble() : null;
    }

    static String format(Object v) {
        if (v == null) {
            return MISSING;
        }
        if (v instanceof Double d) {
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.valueOf(d.longValue());
            }
            return Math.abs(d) >= 100 ? String.format(Locale.ROOT, "%.1f", d) : String.format(Locale.ROOT, "%.3f", d);
        }
        return Objects.toString(v);
    }
}
