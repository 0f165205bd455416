package archlab.figures;

import archlab.loadgen.LatencyHistogram;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The parts of a saved run report ({@code <name>.json}, written by {@code ReportWriter}) the figures need:
 * who ran it, and its latency histograms decoded from {@code run.latency.hdrBase64} and
 * {@code run.operations.<op>.latency.hdrBase64} (microseconds, as {@link LatencyHistogram} recorded them).
 * Immutable.
 *
 * @param file       the JSON file
 * @param module     e.g. "ch12-1-baseline"
 * @param name       the run's name, e.g. "baseline"
 * @param latency    every request that reached the service, µs
 * @param operations the same per operation, in the report's order (create, get, pay)
 * @param timeout    the run's timeout, or {@code null} if the report does not say
 */
record SavedRunReport(Path file, String module, String name, Histogram latency, Map<String, Histogram> operations,
                      Duration timeout) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** @return whether {@code root} looks like a run report (module, name and an encoded latency histogram) */
    static boolean accepts(JsonNode root) {
        return root.isObject() && root.path("module").isTextual() && root.path("name").isTextual()
                && root.path("run").path("latency").path("hdrBase64").isTextual();
    }

    /** Reads {@code file}; throws IllegalArgumentException if it is not a run report. */
    static SavedRunReport read(Path file) {
        try {
            return of(file, JSON.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Reads {@code file}'s timeline; throws IllegalArgumentException if it is not a run report with one. */
    static SavedTimeline readTimeline(Path file) {
        try {
            return SavedTimeline.of(file, JSON.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** @return the report's {@code server_timeline} line (runs over HTTP only), if any */
    static java.util.Optional<String> readServerTimeline(Path file) {
        try {
            for (JsonNode e : JSON.readTree(file.toFile()).path("extra")) {
                if (e.path("name").asText().equals(archlab.scenario.QueueWaitAroundTrigger.SERVER_TIMELINE)) {
                    return java.util.Optional.of(e.path("value").asText());
                }
            }
            return java.util.Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Builds the report from an already parsed {@code root}. */
    static SavedRunReport of(Path file, JsonNode root) {
        if (!accepts(root)) {
            throw new IllegalArgumentException(file + " is not a run report (no module / name / run.latency.hdrBase64)");
        }
        JsonNode run = root.path("run");
        Map<String, Histogram> ops = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : run.path("operations").properties()) {
            JsonNode hdr = e.getValue().path("latency").path("hdrBase64");
            if (hdr.isTextual() && !hdr.asText().isEmpty()) {
                ops.put(e.getKey(), LatencyHistogram.decode(hdr.asText()));
            }
        }
        Duration timeout = null;
        JsonNode t = run.path("spec").path("timeout");
        if (t.isTextual()) {
            try {
                timeout = Duration.parse(t.asText());
            } catch (DateTimeParseException e) {
                timeout = null; // a figure without the timeout line, not a failure
            }
        }
        return new SavedRunReport(file, root.path("module").asText(), root.path("name").asText(),
                LatencyHistogram.decode(run.path("latency").path("hdrBase64").asText()), Map.copyOf(ops), timeout);
    }
}
