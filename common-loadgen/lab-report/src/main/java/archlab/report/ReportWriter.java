package archlab.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import archlab.loadgen.Arrival;
import archlab.timeline.IntervalLog;
import archlab.timeline.RunTimeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.time.Duration;

/**
 * Writes a {@link RunReport} as text (human first) and JSON (for tools) under a reports folder:
 * {@code <dir>/<name>.txt} and {@code <dir>/<name>.json}, and its timeline as an HdrHistogram interval log
 * {@code <dir>/<name>.hlog} ({@link IntervalLog}) when the run recorded one. The folder defaults to the module's
 * {@code target/reports/} (system property {@code archlab.reports.dir}, set by the build).
 *
 * <p>Thread-safety: stateless apart from a thread-safe ObjectMapper.
 */
public final class ReportWriter {

    private static final ObjectMapper JSON = mapper();

    /** What a report's name may hold: it becomes a file name under the reports folder. */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._-]+");

    private ReportWriter() {
    }

    /**
     * @return {@code name}, when it is safe as a report's file name: letters, digits, '.', '_' or '-'
     * @throws IllegalArgumentException otherwise ('/', spaces, an empty name …)
     */
    public static String checkedName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("report name must be letters, digits, '.', '_' or '-', was " + name);
        }
        return name;
    }

    /** @return the module's reports folder: {@code archlab.reports.dir}, else {@code target/reports} */
    public static Path reportsDir() {
        return Path.of(System.getProperty("archlab.reports.dir", "target/reports"));
    }

    /**
     * Writes {@code <name>.json}, {@code <name>.txt} (the report's text with its {@link RunVerdict} under the first line),
     * {@code <name>.html} (the {@link ReportPage}) and, when the run recorded a timeline, {@code <name>.hlog} (an older
     * interval log of that name is removed otherwise, so none is left beside a report it does not belong to); returns
     * the text file's path.
     */
    public static Path write(Path dir, RunReport report) {
        try {
            Files.createDirectories(dir);
            Path txt = dir.resolve(report.name() + ".txt");
            Path json = dir.resolve(report.name() + ".json");
            JSON.writeValue(json.toFile(), report);
            JsonNode written = JSON.readTree(json.toFile());
            List<String> verdict = RunVerdict.lines(written, savedInTheBook(report.module(), report.name(), json));
            Files.writeString(txt, withVerdict(report.text(), verdict), StandardCharsets.UTF_8);
            ReportPage.write(json, written, verdict);
            Path hlog = dir.resolve(report.name() + IntervalLog.SUFFIX);
            RunTimeline timeline = report.run().timeline();
            if (timeline.histograms().isEmpty()) {
                Files.deleteIfExists(hlog);
            } else {
                IntervalLog.write(hlog, timeline, report.module() + " / " + report.name());
            }
            return txt;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write report " + report.name() + " to " + dir, e);
        }
    }

    /** The report's text with the verdict right under its first line: what a reader reads first. */
    static String withVerdict(String text, List<String> verdict) {
        int firstLine = text.indexOf('\n') + 1;
        StringBuilder out = new StringBuilder(text.substring(0, firstLine)).append("--- verdict (read this first) ---\n");
        verdict.forEach(line -> out.append("  ").append(line).append('\n'));
        return out.append('\n').append(text.substring(firstLine)).toString();
    }

    /**
     * @return the book's saved report of {@code module}'s {@code name} ({@code book/results/<module>/<name>.json} of the
     *         project the module sits in), unless that is {@code written} itself or there is none
     */
    static Optional<JsonNode> savedInTheBook(String module, String name, Path written) {
        String moduleDir = System.getProperty("archlab.module.dir");
        if (moduleDir == null) {
            return Optional.empty();
        }
        Path root = Path.of(System.getProperty("archlab.root.dir", Path.of(moduleDir).toAbsolutePath().getParent().toString()));
        Path saved = root.toAbsolutePath().normalize().resolve("book/results/" + module + "/" + name + ".json");
        try {
            if (!Files.isRegularFile(saved) || Files.isSameFile(saved, written)) {
                return Optional.empty();
            }
            return Optional.of(JSON.readTree(saved.toFile()));
        } catch (IOException e) {
            return Optional.empty(); // an unreadable saved report: nothing to put beside this run
        }
    }

    /**
     * Writes a report table: {@code <dir>/<name>.md}, its Markdown, and {@code <dir>/<name>.json}, its rows (any
     * JSON-friendly value); the one writer of every such pair (the book's sweep, scenario, incident, claims and
     * side-by-side tables, the grader's scorecard).
     *
     * @param what what the table is, for the error message: {@code "the sweep table"}
     * @return the Markdown file
     * @throws UncheckedIOException naming {@code what} and {@code dir} when either file cannot be written
     */
    public static Path writeTable(Path dir, String name, String markdown, Object rows, String what) {
        try {
            Files.createDirectories(dir);
            Path md = dir.resolve(name + ".md");
            Files.writeString(md, markdown, StandardCharsets.UTF_8);
            writeJson(dir.resolve(name + ".json"), rows);
            return md;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + what + " to " + dir, e);
        }
    }

    /** Writes any JSON-friendly value to {@code file}. */
    public static void writeJson(Path file, Object value) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            JSON.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** @return the shared mapper: Durations as ISO-8601 strings, arrivals by description, indented */
    public static ObjectMapper mapper() {
        SimpleModule module = new SimpleModule("archlab");
        module.addSerializer(Duration.class, new StdSerializer<>(Duration.class) {
            @Override
            public void serialize(Duration value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeString(value.toString());
            }
        });
        module.addSerializer(Arrival.class, new StdSerializer<>(Arrival.class) {
            @Override
            public void serialize(Arrival value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeString(value.describe());
            }
        });
        return new ObjectMapper().registerModule(module).enable(SerializationFeature.INDENT_OUTPUT);
    }
}
