package archlab.report;

import archlab.loadgen.LatencyHistogram;
import archlab.profile.FlameGraphs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * A run's report as one HTML page a reader opens offline: the verdict, the run's timeline (completed, timed out,
 * retried per second; p99, send lag and the machine's stalls), the percentile curve of every operation, the segment
 * table, the flame graphs of its JFR recording (CPU, allocation, lock) and the text report. Written beside the report as
 * {@code <name>.html}.
 *
 * <p>The trap it avoids: a page that is only whole on the author's machine. Nothing is fetched: uPlot's script and
 * style come from its resource jar and are inlined, the data is inlined as JSON, the flame graphs (async-profiler's
 * converter, self-contained HTML) are inlined as {@code srcdoc}. And the page is built from the report's JSON, not from
 * the live run, so a saved report (the book's, a colleague's) gets the same page.
 *
 * <p>Stateless; thread-safe.
 */
public final class ReportPage {

    /** Where uPlot's files sit in its resource jar ({@code org.webjars.npm:uplot}), by the version the jar says it is. */
    static final String UPLOT = "META-INF/resources/webjars/uplot/" + webjarVersion("org.webjars.npm/uplot") + "/dist/";
    /** Percentiles each curve is drawn at, as "nines" (1 / (1 − q)), from the median to 99.99 %. */
    private static final double[] QUANTILES = {0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999, 0.9995, 0.9999};

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z-]+)}}");

    private ReportPage() {
    }

    /**
     * Writes {@code <name>.html} beside {@code json}, reading the report from it.
     *
     * @param json    a report as {@link ReportWriter} writes it
     * @param verdict the verdict's lines ({@link RunVerdict})
     * @return the page's path
     * @throws UncheckedIOException if the report cannot be read or the page written
     */
    public static Path write(Path json, List<String> verdict) {
        try {
            return write(json, JSON.readTree(json.toFile()), verdict);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report " + json, e);
        }
    }

    /**
     * Writes {@code <name>.html} beside {@code json}, from {@code report} already read (the tree of that file).
     *
     * @throws UncheckedIOException if the page cannot be written
     */
    public static Path write(Path json, JsonNode report, List<String> verdict) {
        try {
            String name = json.getFileName().toString().replaceFirst("\\.json$", "");
            Path txt = json.resolveSibling(name + ".txt");
            String text = Files.exists(txt) ? Files.readString(txt, StandardCharsets.UTF_8) : "";
            Path page = json.resolveSibling(name + ".html");
            Files.writeString(page, html(report, verdict, text, flameGraphs(report, json)), StandardCharsets.UTF_8);
            return page;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report page of " + json, e);
        }
    }

    /**
     * The script a flame graph gets inside its frame: async-profiler draws the root at the bottom of a canvas taller than
     * the frame, so a frame opened at its top shows blank space until the reader scrolls; this scrolls it to the root
     * (not for an inverted graph, whose root is on top) and tells the page how far, for the browser test.
     */
    static final String OPEN_ON_ROOT = "<script>window.addEventListener('load', function () {"
            + " var inv = typeof inverted !== 'undefined' && inverted, d = document.documentElement;"
            + " if (!inv) { window.scrollTo(0, d.scrollHeight); }"
            + " parent.postMessage({flameOnRoot: inv || window.scrollY + window.innerHeight >= d.scrollHeight - 1}, '*'); });</script>";

    /**
     * Registered before the frames exist (a frame can load and post before the page's own script runs): counts on
     * {@code <body>} the flame graphs whose frame opened on its root, {@code data-flames-on-root}, for the browser test.
     */
    static final String COUNT_FLAMES_ON_ROOT = "<script>window.addEventListener('message', function (e) {"
            + " var frames = Array.prototype.map.call(document.querySelectorAll('iframe.flame'), function (f) { return f.contentWindow; });"
            + " if (e.data && e.data.flameOnRoot === true && frames.indexOf(e.source) >= 0) {"
            + " document.body.setAttribute('data-flames-on-root', String(Number(document.body.getAttribute('data-flames-on-root') || '0') + 1)); } });"
            + "</script>\n";

    /** @return the flame graph's HTML with {@link #OPEN_ON_ROOT} before its body ends */
    static String opensOnItsRoot(String graph) {
        int end = graph.lastIndexOf("</body>");
        return end < 0 ? graph + OPEN_ON_ROOT : graph.substring(0, end) + OPEN_ON_ROOT + graph.substring(end);
    }

    /** The page's HTML: the template with the style, the scripts, the data and the flame graphs filled in. */
    static String html(JsonNode report, List<String> verdict, String text, Map<String, String> flameGraphs) {
        String title = report.path("module").asText() + " / " + report.path("name").asText();
        StringBuilder graphs = new StringBuilder(flameGraphs.isEmpty() ? "" : COUNT_FLAMES_ON_ROOT);
        flameGraphs.forEach((kind, graph) -> graphs.append("<h3>").append(kind).append("</h3>\n<iframe class=\"flame\" title=\"")
                .append(kind).append(" flame graph\" sandbox=\"allow-scripts\" srcdoc=\"").append(attribute(opensOnItsRoot(graph)))
                .append("\"></iframe>\n"));
        if (flameGraphs.isEmpty()) {
            graphs.append("<p>No JFR recording with this report: run with <code>-Dbaseline</code> (profiled) to get its flame graphs.</p>");
        }
        Map<String, String> values = Map.of(
                "title", text(title),
                "uplot-css", resource(UPLOT + "uPlot.min.css"),
                "page-css", resource("archlab/report/page/report.css"),
                "uplot-js", script(resource(UPLOT + "uPlot.iife.min.js")),
                "page-js", script(resource("archlab/report/page/report.js")),
                "verdict", verdict.stream().map(l -> "<li>" + text(l) + "</li>\n").reduce("", String::concat),
                "data", json(data(report, verdict, text)),
                "flame-graphs", graphs.toString());
        return fill(resource("archlab/report/page/report.html"), values);
    }

    /**
     * Fills every {@code {{name}}} of {@code template} in one pass: a value is never scanned again, so text from a
     * report that happens to hold {@code {{data}}} stays text.
     */
    static String fill(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder(template.length() * 2);
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("the page template names an unknown placeholder: " + m.group());
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /** JSON inside a {@code <script>}: every {@code <}, {@code >}, {@code &} and JavaScript line separator escaped. */
    static String json(JsonNode value) {
        return value.toString().replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    /** What the page's script draws, as one JSON object. */
    static ObjectNode data(JsonNode report, List<String> verdict, String text) {
        ObjectNode data = JSON.createObjectNode();
        data.put("title", report.path("module").asText() + " / " + report.path("name").asText());
        data.put("offered", report.path("run").path("offered").asLong());
        ArrayNode v = data.putArray("verdict");
        verdict.forEach(v::add);
        data.set("timeline", timeline(report.path("run").path("timeline").path("intervals")));
        ObjectNode curves = data.putObject("percentiles");
        curve(report.path("run").path("latency")).ifPresent(c -> curves.set("all", c));
        report.path("run").path("operations").fields().forEachRemaining(op ->
                curve(op.getValue().path("latency")).ifPresent(c -> curves.set(op.getKey(), c)));
        data.set("segments", report.path("run").path("segments"));
        data.put("tracedRequests", report.path("run").path("tracedRequests").asLong());
        data.put("text", text);
        return data;
    }

    /** The run's intervals as columns: start (s), rates per second, latencies in ms. */
    static ObjectNode timeline(JsonNode intervals) {
        ObjectNode t = JSON.createObjectNode();
        ArrayNode start = t.putArray("start");
        ArrayNode offered = t.putArray("offered");
        ArrayNode completed = t.putArray("completed");
        ArrayNode timedOut = t.putArray("timedOut");
        ArrayNode retried = t.putArray("retried");
        ArrayNode p50 = t.putArray("p50");
        ArrayNode p99 = t.putArray("p99");
        ArrayNode sendLag = t.putArray("sendLagP99");
        ArrayNode hiccup = t.putArray("hiccupMax");
        ArrayNode phase = t.putArray("phase");
        for (JsonNode i : intervals) {
            double perSecond = 1_000 / Math.max(1e-9, i.path("lengthMillis").asDouble());
            start.add(i.path("startMillis").asDouble() / 1_000);
            offered.add(i.path("offered").asLong() * perSecond);
            completed.add(i.path("completed").asLong() * perSecond);
            timedOut.add(i.path("timedOut").asLong() * perSecond);
            retried.add(i.path("retried").asLong() * perSecond);
            p50.add(i.path("p50Micros").asDouble() / 1_000);
            p99.add(i.path("p99Micros").asDouble() / 1_000);
            sendLag.add(i.path("sendLagP99Micros").asDouble() / 1_000);
            hiccup.add(i.path("hiccupMaxMicros").asDouble() / 1_000);
            phase.add(i.path("phase").asText());
        }
        return t;
    }

    /** A percentile curve from a latency summary's full histogram: x in nines (1 / (1 − q)), y in ms. */
    static Optional<ObjectNode> curve(JsonNode latency) {
        String encoded = latency.path("hdrBase64").asText("");
        if (encoded.isEmpty() || latency.path("count").asLong() == 0) {
            return Optional.empty();
        }
        Histogram h = LatencyHistogram.decode(encoded);
        ObjectNode c = JSON.createObjectNode();
        ArrayNode x = c.putArray("nines");
        ArrayNode y = c.putArray("ms");
        for (double q : QUANTILES) {
            x.add(1 / (1 - q));
            y.add(h.getValueAtPercentile(100 * q) / 1_000.0);
        }
        c.put("maxMs", h.getMaxValue() / 1_000.0);
        c.put("count", h.getTotalCount());
        return Optional.of(c);
    }

    /**
     * The flame graphs of the report's recording, kind → self-contained HTML; none when the report has no recording or
     * the recording is gone. Rendered into a scratch folder beside the report and read back.
     */
    static Map<String, String> flameGraphs(JsonNode report, Path json) throws IOException {
        String jfrFile = report.path("profile").path("jfrFile").asText("");
        Path jfr = jfrFile.isEmpty() ? null : json.resolveSibling(Path.of(jfrFile).getFileName().toString());
        if (jfr == null || !Files.isRegularFile(jfr)) {
            return Map.of();
        }
        Path dir = Files.createTempDirectory(json.toAbsolutePath().getParent(), ".flame-");
        try {
            Map<String, String> graphs = new java.util.LinkedHashMap<>();
            String title = report.path("module").asText() + " / " + report.path("name").asText();
            for (Path f : FlameGraphs.render(jfr, dir, "page", title)) {
                String kind = f.getFileName().toString().replaceFirst("^page-(.*)\\.html$", "$1");
                graphs.put(switch (kind) {
                    case "cpu" -> "CPU";
                    case "alloc" -> "allocation";
                    default -> "lock wait";
                }, Files.readString(f, StandardCharsets.UTF_8));
            }
            return graphs;
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** @return the version in a webjar's own {@code META-INF/maven/<group>/<artifact>/pom.properties} */
    private static String webjarVersion(String groupAndArtifact) {
        java.util.Properties p = new java.util.Properties();
        try (InputStream in = ReportPage.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/" + groupAndArtifact + "/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException(groupAndArtifact + " is missing from the class path");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + groupAndArtifact + "'s pom.properties", e);
        }
        return p.getProperty("version");
    }

    private static String resource(String name) {
        try (InputStream in = ReportPage.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + name, e);
        }
    }

    /** Text inside a {@code <script>}: no {@code </script>} (or {@code <!--}) can end or change it early. */
    static String script(String s) {
        return s.replace("</", "<\\/").replace("<!--", "<\\!--");
    }

    /** Text inside an element. */
    static String text(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Text inside a double-quoted attribute. */
    static String attribute(String s) {
        return text(s).replace("\"", "&quot;");
    }
}
