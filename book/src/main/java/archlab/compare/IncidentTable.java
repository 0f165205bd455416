package archlab.compare;

import archlab.report.ReportWriter;
import archlab.run.Transport;
import archlab.scenario.QueueWaitAroundTrigger;
import archlab.scenario.Scenario;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The article's incident over HTTP, checkpoint × the server's threads: one row per saved {@code scenario-incident-http.json}
 * (Tomcat's 200 platform threads) and {@code scenario-incident-http-virtual-threads.json} under {@code book/results/<module>/},
 * with the server's queue around the stall ({@link QueueWaitAroundTrigger}), its busiest moment and the run's
 * outcome and recovery ({@link ScenarioTable#read}). Chapter 12.3 quotes {@code incident.json}.
 *
 * <p>Thread-safety: stateless.
 */
public final class IncidentTable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BUSY = Pattern.compile("busy_threads_max=(\\d+)");
    private static final String REPORT = ScenarioTable.PREFIX + Scenario.incident().name() + Transport.HTTP_SUFFIX;

    private IncidentTable() {
    }

    /**
     * One incident run.
     *
     * @param module               the checkpoint
     * @param threads              the server's threads: platform (Tomcat's 200) or virtual
     * @param scenario       the run's figures as the scenario table reads them
     * @param queueWait      the server's queue around the stall
     * @param busyThreadsMax most server threads busy at once, whole run
     */
    public record Row(String module, String threads, ScenarioTable.Row scenario, QueueWaitAroundTrigger queueWait,
                      long busyThreadsMax) {
    }

    /** @return the rows of every incident report under {@code resultsDir}'s module folders, by module then threads */
    public static List<Row> read(Path resultsDir) {
        List<Row> rows = new ArrayList<>();
        try (Stream<Path> modules = Files.list(resultsDir)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                for (String threads : List.of("platform", "virtual")) {
                    Path f = module.resolve(REPORT + (threads.equals("virtual") ? Transport.VIRTUAL_THREADS_SUFFIX : "") + ".json");
                    if (Files.isRegularFile(f)) {
                        rows.add(read(f, threads));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + resultsDir, e);
        }
        return rows;
    }

    private static Row read(Path f, String threads) throws IOException {
        JsonNode root = JSON.readTree(f.toFile());
        Map<String, Object> extras = new LinkedHashMap<>();
        root.path("extra").forEach(e -> extras.put(e.path("name").asText(), e.path("value").asText()));
        Duration duration = Duration.parse(root.path("run").path("spec").path("duration").asText());
        QueueWaitAroundTrigger q = QueueWaitAroundTrigger.of(Scenario.incident(), extras, duration)
                .orElseThrow(() -> new IllegalArgumentException(f + " has no server timeline: not a run over HTTP"));
        Matcher busy = BUSY.matcher(String.valueOf(extras.getOrDefault("server", "")));
        return new Row(root.path("module").asText(), threads, ScenarioTable.read(f), q,
                busy.find() ? Long.parseLong(busy.group(1)) : -1);
    }

    /** @return the table as Markdown */
    public static String markdown(List<Row> rows) {
        StringBuilder b = new StringBuilder("| checkpoint | server threads | offered | amplification | completed | timed_out |"
                + " p99 ms | queue wait before | peak (at) | after | busy threads max | recovered |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            ScenarioTable.Row s = r.scenario();
            b.append(String.format(Locale.ROOT, "| %s | %s | %d | %.2f | %d | %d | %d | %.1f ms | %.1f ms (%.1f s) | %.1f ms | %d | %s |%n",
                    r.module(), r.threads(), s.requests().offered(), s.resilience().amplification(), s.requests().completed(),
                    s.requests().timedOut(), s.speed().p99Millis(), r.queueWait().beforeTriggerMillis(), r.queueWait().peakMillis(),
                    r.queueWait().peakAtSeconds(), r.queueWait().afterMillis(), r.busyThreadsMax(), ScenarioTable.recovered(s.resilience())));
        }
        Scenario incident = Scenario.incident();
        b.append("\n").append(incident.name()).append(": ").append(incident.summary()).append(" (")
                .append(String.join("; ", incident.parameters())).append(").\nQueue wait: the longest a socket event waited"
                        + " for a server thread in a 100 ms interval, before the stall, at its peak, and from ")
                .append(Scenario.RECOVERY_BOUND.toMillis()).append(" ms after the stall to the load's end.\n");
        return b.toString();
    }

    /** Writes {@code incident.md} and {@code incident.json} to {@code dir}; returns the Markdown file. */
    public static Path write(Path dir, List<Row> rows) {
        return ReportWriter.writeTable(dir, "incident", markdown(rows), rows, "the incident table");
    }
}
