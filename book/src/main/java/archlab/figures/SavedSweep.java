package archlab.figures;

import archlab.report.SweepReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a saved capacity sweep ({@code sweep-<module>.json}, written by {@code CapacitySweep}) that
 * {@link SweepChart} draws. Immutable.
 *
 * @param file             the JSON file
 * @param module           the checkpoint swept
 * @param name             the sweep's report name, e.g. "sweep"
 * @param points           one per offered rate, ascending
 * @param knee             the knee the sweep found, and its definition's ceiling
 * @param payFloorNanos    the checkpoint's pay floor (the sum of the downstream calls a pay waits for), ns; 0 if unknown
 */
record SavedSweep(Path file, String module, String name, List<Point> points, Knee knee, long payFloorNanos) {

    /** One offered rate: completed per second and p99 (µs). */
    record Point(int rate, double rpsCompleted, long p99Micros) {
    }

    /**
     * The knee of a saved sweep.
     *
     * @param rate             the knee, req/s, or {@code null} when there is none
     * @param p99CeilingMicros the knee definition's p99 ceiling, µs
     */
    record Knee(Integer rate, long p99CeilingMicros) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    SavedSweep {
        points = List.copyOf(points);
    }

    /**
     * @return the chart's name for this sweep: the module for the default sweep ({@code "sweep"}), else the
     *         module and what the name adds, e.g. {@code "ch12-2-cache-outbox-ratelimit limiter-lifted"} for
     *         {@code "sweep-limiter-lifted"}
     */
    String label() {
        if (name.equals("sweep")) {
            return module;
        }
        return module + " " + (name.startsWith("sweep-") ? name.substring("sweep-".length()) : name);
    }

    /** @return whether {@code root} is a sweep report ({@code "kind": "capacity-sweep"} with rows) */
    static boolean accepts(JsonNode root) {
        return root.isObject() && SweepReport.KIND.equals(root.path("kind").asText()) && root.path("rows").isArray();
    }

    /** Reads {@code file}; throws IllegalArgumentException if it is not a sweep report. */
    static SavedSweep read(Path file) {
        try {
            return of(file, JSON.readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static SavedSweep of(Path file, JsonNode root) {
        if (!accepts(root)) {
            throw new IllegalArgumentException(file + " is not a capacity sweep report (kind " + SweepReport.KIND + ")");
        }
        List<Point> points = new ArrayList<>();
        for (JsonNode r : root.path("rows")) {
            points.add(new Point(r.path("ratePerSecond").asInt(), r.path("rpsCompleted").asDouble(),
                    r.path("p99Micros").asLong()));
        }
        points.sort(java.util.Comparator.comparingInt(Point::rate));
        JsonNode knee = root.path("knee");
        Integer kneeRate = knee.path("ratePerSecond").isNumber() ? knee.path("ratePerSecond").asInt() : null;
        return new SavedSweep(file, root.path("module").asText("?"), root.path("name").asText("sweep"), points,
                new Knee(kneeRate, knee.path("p99CeilingMicros").asLong(0)), root.path("payFloorNanos").asLong(0));
    }
}
