package archlab.compare;

import archlab.report.ReportWriter;
import archlab.run.LongRunReport;
import archlab.run.LongRunSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The article's baseline table, for the lab's interfaces: one row per saved long run ({@code -Dlong},
 * {@code <module>/baseline-long.json}), its measured window's mean, P99 and P99.9, its database time, cache hit ratio,
 * GC frequency and the process's writes per request, beside how far a short run's p99 of the same code may land. The
 * trap it answers: a baseline taken from one 3 s run is a number the next 3 s run misses by chance; the article's rule
 * (minutes, the last two of them) is what the table keeps, and the {@link P99Gate} compares a candidate table with it.
 *
 * <p>Written as {@code book/results/baseline-table.md} and {@code .json} ({@code kind: baseline-table}, rows with
 * {@code id} and {@code latency.p99Micros}, which the gate reads). Thread-safety: stateless.
 */
public final class BaselineTable {

    /** The file name, without extension, under {@code book/results/}. */
    public static final String NAME = "baseline-table";
    /** The JSON's {@code kind}: what tells the gate a table from a run report. */
    public static final String KIND = "baseline-table";
    /**
     * The long runs the table reads, in its row order: each checkpoint under the book's load, then the article's query
     * interface before and after the ladder (its first and last rung, {@code -Dladder -Dlong}).
     */
    public static final List<String> SOURCES = List.of("ch12-1-baseline/baseline-long.json",
            "ch12-2-cache-outbox-ratelimit/baseline-long.json", "ch12-3-fault-scenarios/baseline-long.json",
            "common-loadgen/ladder-start-long.json", "common-loadgen/ladder-sampled-trace-long.json");

    private static final ObjectMapper JSON = new ObjectMapper();

    private BaselineTable() {
    }

    /** The table: its kind (for the gate) and its rows. */
    public record Table(String kind, List<Row> rows) {
        public Table {
            rows = List.copyOf(rows);
        }
    }

    /**
     * The measured window's latency, µs.
     *
     * @param requests requests that ended in the window
     * @param meanMicros mean; @param p99Micros P99; @param p999Micros P99.9
     */
    public record Latency(long requests, double meanMicros, long p99Micros, long p999Micros) {
    }

    /**
     * The article's other columns.
     *
     * @param database          where the orders were kept, and the database's time when there was one
     * @param cacheHitRatio     hits over reads of the read cache, over the whole long run; "no cache" without one
     * @param gcPausesPerMinute the collectors' pauses per minute in the measured window
     * @param bytesWrittenPerRequest what the process wrote to files per request in the window; −1 unknown
     */
    public record Sides(String database, String cacheHitRatio, double gcPausesPerMinute, double bytesWrittenPerRequest) {
    }

    /**
     * One interface.
     *
     * @param id          the row's key for the gate: the module and the run ({@code ch12-1-baseline/baseline})
     * @param load        the load: rate, timeout, the windows
     * @param latency     the measured window's latency
     * @param sides       database, cache, GC, writes
     * @param trustFactor how far a short run's p99 of this code may land from the window's (the long report's verdict)
     * @param articlesRule whether the long run kept the article's rule, by its windows' seconds as run (30 s warm-up,
     *                     2 minutes measured, 30 s after)
     */
    public record Row(String id, String load, Latency latency, Sides sides, double trustFactor, boolean articlesRule) {
    }

    /** @return the table of the long runs saved under {@code results} ({@link #SOURCES}; a missing one is left out) */
    public static Table read(Path results) {
        List<Row> rows = new ArrayList<>();
        for (String source : SOURCES) {
            Path file = results.resolve(source);
            if (Files.isRegularFile(file)) {
                rows.add(row(tree(file)));
            }
        }
        return new Table(KIND, rows);
    }

    static Row row(JsonNode r) {
        JsonNode run = r.path("run");
        JsonNode measured = null;
        for (JsonNode w : r.path("windows")) {
            if (w.path("name").asText().equals("measured")) {
                measured = w;
            }
        }
        if (measured == null) {
            throw new IllegalArgumentException("a long report without a measured window: " + run);
        }
        JsonNode l = measured.path("latency");
        JsonNode extra = r.path("extra");
        JsonNode s = r.path("settings");
        String load = String.format(Locale.ROOT, "%d req/s, timeout %d ms; measured %s after %s of warm-up",
                run.path("ratePerSecond").asInt(), run.path("timeoutMillis").asLong(), seconds(s.path("measured").asText()),
                seconds(s.path("warmup").asText()));
        String database = !extra.path("database_mean_us").isMissingNode()
                ? String.format(Locale.ROOT, "%.2f ms mean (PostgreSQL, the servlet's read)",
                        Double.parseDouble(extra.path("database_mean_us").asText()) / 1e3)
                : extra.path("store").isMissingNode() ? "none (in memory)" : "PostgreSQL (time not split out)";
        String cache = extra.path("cache_hit_ratio").isMissingNode() ? "no cache"
                : String.format(Locale.ROOT, "%.1f %%", 100 * Double.parseDouble(extra.path("cache_hit_ratio").asText()));
        long requests = l.path("requests").asLong();
        long written = measured.path("process").path("bytesWritten").asLong(-1);
        double seconds = measured.path("seconds").asDouble();
        double gc = seconds == 0 ? 0 : measured.path("process").path("gcPauses").asLong() * 60.0 / seconds;
        boolean rule = true; // the article's rule, by the windows' seconds as run (a phase rounded short would not keep it)
        for (JsonNode w : r.path("windows")) {
            java.time.Duration needed = switch (w.path("name").asText()) {
                case LongRunReport.WARMUP -> LongRunSettings.ARTICLE.warmup();
                case LongRunReport.MEASURED -> LongRunSettings.ARTICLE.measured();
                default -> LongRunSettings.ARTICLE.stability();
            };
            rule &= w.path("seconds").asDouble() >= needed.toMillis() / 1e3 - 0.5;
        }
        return new Row(run.path("module").asText() + "/" + run.path("name").asText(), load,
                new Latency(requests, l.path("meanMicros").asDouble(), l.path("p99Micros").asLong(), l.path("p999Micros").asLong()),
                new Sides(database, cache, gc, written < 0 ? -1 : (double) written / Math.max(1, requests)),
                r.path("verdict").path("trustFactor").asDouble(Double.NaN), rule);
    }

    private static String seconds(String isoDuration) {
        return java.time.Duration.parse(isoDuration).toSeconds() + " s";
    }

    /** @return the table as Markdown: the article's columns, then the short run's trust */
    public static String markdown(Table t) {
        StringBuilder md = new StringBuilder();
        md.append("# The baseline table: each interface's long run (-Dlong), its measured window\n\n");
        md.append("| interface | load | requests | mean ms | P99 ms | P99.9 ms | database time | cache hit ratio"
                + " | GC pauses / min | file bytes / request | a 3 s p99 within |\n");
        md.append("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |\n");
        for (Row r : t.rows()) {
            md.append(String.format(Locale.ROOT, "| %s | %s%s | %d | %.3f | %.3f | %.3f | %s | %s | %.1f | %s | %s |%n", r.id(),
                    r.load(), r.articlesRule() ? "" : " (short form, not the article's rule)", r.latency().requests(),
                    r.latency().meanMicros() / 1e3, r.latency().p99Micros() / 1e3, r.latency().p999Micros() / 1e3,
                    r.sides().database(), r.sides().cacheHitRatio(), r.sides().gcPausesPerMinute(),
                    r.sides().bytesWrittenPerRequest() < 0 ? "unknown"
                            : String.format(Locale.ROOT, "%.1f", r.sides().bytesWrittenPerRequest()),
                    Double.isNaN(r.trustFactor()) ? "not judged" : String.format(Locale.ROOT, "x%.2f", r.trustFactor())));
        }
        md.append("\nDatabase time: the book's load keeps its orders in memory; the ladder's rows read PostgreSQL."
                + " Cache hit ratio: over the whole long run."
                + " File bytes: what the test's JVM wrote to files in the window (/proc/self/io's write_bytes: its logs and"
                + " traces; not its sockets or console), per request."
                + " The gate: `P99Gate baseline-table.json candidate-table.json` flags a row whose P99 is more than 20 % worse.\n");
        return md.toString();
    }

    /** Writes {@code <dir>/baseline-table.md} and {@code .json}; @return the Markdown file */
    public static Path write(Path dir, Table t) {
        return ReportWriter.writeTable(dir, NAME, markdown(t), t, "the baseline table");
    }

    private static JsonNode tree(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the long report " + file, e);
        }
    }
}
