package archlab.compare;

import archlab.report.ReportWriter;
import archlab.report.SweepReport;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every capacity sweep of one Maven session, one row each: which checkpoint, which sweep (limiter lifted or
 * in place), the rates swept, the knee and how sure it is. The trap it avoids: comparing knees of sweeps run in
 * different sessions, on a machine whose load changed in between — only one session's sweeps are read.
 *
 * <p>Thread-safety: stateless.
 *
 * @param rows one per sweep report, ordered by module then name
 */
public record SweepTable(List<Row> rows) {

    /** File name (without extension) under the root's {@code target/reports/}. */
    public static final String FILE_NAME = "sweeps";

    /**
     * One saved sweep. In JSON ({@code sweeps.json}) its parts are unwrapped: the figures lie flat, in the order of
     * the parts and of their figures.
     *
     * @param module          the checkpoint swept
     * @param name            the sweep's report name ({@code sweep-<module>}, {@code sweep-limiter-lifted-<module>})
     * @param swept           which rates were swept
     * @param knee            the knee the sweep found
     * @param reruns          rates run again because the generator fell behind
     * @param highestCpuShare the JVM's CPU share at the highest rate, 0..1, or negative when unknown
     */
    public record Row(String module, String name, @JsonUnwrapped Swept swept, @JsonUnwrapped KneeFound knee,
                      int reruns, double highestCpuShare) {
    }

    /**
     * Which rates a sweep ran.
     *
     * @param rates       how many rates were swept
     * @param lowestRate  lowest offered rate, req/s (0 when none was)
     * @param highestRate highest offered rate, req/s (0 when none was)
     */
    public record Swept(int rates, int lowestRate, int highestRate) {
    }

    /**
     * The knee a sweep found.
     *
     * @param kneeRate         the knee, req/s; {@code null} when no rate qualified
     * @param p99CeilingMicros the knee definition's p99 ceiling, µs
     * @param belowKneeMisses  rates below the knee that did not qualify (noise or a non-monotone curve)
     */
    public record KneeFound(Integer kneeRate, long p99CeilingMicros, int belowKneeMisses) {
    }

    public SweepTable {
        rows = List.copyOf(rows);
    }

    /** @return every sweep report of {@code session} under {@code root}'s modules */
    public static SweepTable collect(Path root, String session) {
        List<Row> rows = new ArrayList<>();
        for (Path f : SavedReports.jsonFiles(root)) {
            JsonNode json = SavedReports.readOrMissing(f);
            if (SweepReport.KIND.equals(json.path("kind").asText()) && session.equals(json.path("environment").path("session").asText())) {
                rows.add(read(json));
            }
        }
        return new SweepTable(rows);
    }

    static Row read(JsonNode json) {
        JsonNode rowsJson = json.path("rows");
        int lowest = Integer.MAX_VALUE;
        int highest = Integer.MIN_VALUE;
        double cpuAtHighest = -1;
        for (JsonNode r : rowsJson) {
            int rate = r.path("ratePerSecond").asInt();
            lowest = Math.min(lowest, rate);
            if (rate > highest) {
                highest = rate;
                cpuAtHighest = r.path("cpuShare").asDouble(-1);
            }
        }
        JsonNode knee = json.path("knee");
        return new Row(json.path("module").asText("?"), json.path("name").asText("?"),
                new Swept(rowsJson.size(), rowsJson.isEmpty() ? 0 : lowest, rowsJson.isEmpty() ? 0 : highest),
                new KneeFound(knee.path("ratePerSecond").isNumber() ? knee.path("ratePerSecond").asInt() : null,
                        knee.path("p99CeilingMicros").asLong(), knee.path("nonMonotone").size()),
                json.path("reruns").size(), cpuAtHighest);
    }

    /** @return the table as Markdown */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| checkpoint | sweep | rates | offered req/s | knee req/s | p99 ceiling ms | misses below knee | reruns | cpu at highest rate |\n");
        sb.append("|---|---|---:|---|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %d–%d | %s | %.1f | %d | %d | %s |%n", r.module(), r.name(),
                    r.swept().rates(), r.swept().lowestRate(), r.swept().highestRate(),
                    r.knee().kneeRate() == null ? "none" : r.knee().kneeRate().toString(),
                    r.knee().p99CeilingMicros() / 1e3, r.knee().belowKneeMisses(), r.reruns(),
                    r.highestCpuShare() < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f%%", r.highestCpuShare() * 100)));
        }
        sb.append("\nknee = the highest offered rate with goodput >= 99% of offered and p99 <= 2 x the pay floor;"
                + " each sweep's own report (sweep-*.txt in its module) has every row and what limits past the knee.\n");
        return sb.toString();
    }

    /** Writes {@code sweeps.md} and {@code sweeps.json} to {@code dir}; returns the Markdown file. */
    public Path write(Path dir) {
        return ReportWriter.writeTable(dir, FILE_NAME, markdown(), rows, "the sweep table");
    }
}
