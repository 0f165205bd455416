package archlab.figures;

import archlab.loadgen.LatencyHistogram;
import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

/** Hand-made inputs for the figure tests: histograms with chosen shapes and report JSON built from them. */
final class Samples {

    private Samples() {
    }

    /** {@code n} latencies: most near {@code typicalMillis}, a 1% tail up to {@code tailMillis}; seeded. */
    static LatencyHistogram latencies(int n, double typicalMillis, double tailMillis, long seed) {
        LatencyHistogram h = new LatencyHistogram();
        Random r = new Random(seed);
        for (int i = 0; i < n; i++) {
            double ms = r.nextDouble() < 0.99 ? typicalMillis * (0.5 + r.nextDouble())
                    : typicalMillis + r.nextDouble() * (tailMillis - typicalMillis);
            h.record((long) (ms * 1_000_000));
        }
        return h;
    }

    /**
     * Writes a run report with just the fields the figures read: module, name, the spec's timeout, the
     * overall histogram (every operation's samples) and one per operation.
     */
    static Path runReport(Path file, String module, String name, Map<String, LatencyHistogram> operations) {
        LatencyHistogram all = new LatencyHistogram();
        ObjectNode root = ReportWriter.mapper().createObjectNode();
        root.put("module", module).put("name", name);
        ObjectNode run = root.putObject("run");
        run.putObject("spec").put("timeout", "PT0.2S");
        ObjectNode ops = run.putObject("operations");
        for (Map.Entry<String, LatencyHistogram> e : operations.entrySet()) {
            ops.putObject(e.getKey()).putObject("latency").put("hdrBase64", e.getValue().summary().hdrBase64());
            // the overall histogram holds every operation's samples
            e.getValue().microsCopy().recordedValues().forEach(v -> {
                for (long c = 0; c < v.getCountAtValueIteratedTo(); c++) {
                    all.record(v.getValueIteratedTo() * 1_000);
                }
            });
        }
        run.putObject("latency").put("hdrBase64", all.summary().hdrBase64());
        ReportWriter.writeJson(file, root);
        return file;
    }
}
