package archlab.jmh;

import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs a module's JMH benchmarks from its test JVM ({@code mvn -pl <module> test -Djmh}, through common-loadgen's
 * {@code archlab.jmh.HarnessJmhTest} or a checkpoint's {@code archlab.jmh.CheckpointJmhTest}: names of their own, as a
 * checkpoint's test classes may not repeat common-loadgen's) and writes what JMH measured:
 * {@code target/reports/jmh.json}, JMH's own JSON, and {@code jmh.txt} beside it, one line per benchmark (threads,
 * ns/op ± error, bytes/op).
 *
 * <p>Every benchmark runs in one forked JVM (JMH's own isolation) with JMH's GC profiler ({@code -prof gc}), so each
 * carries {@code gc.alloc.rate.norm}, its bytes per operation. The full run warms 3 × 1 s (a JSON copy's path takes a
 * second or two to compile) and measures 5 × 1 s; {@code -Djmh.smoke} (CI) warms 1 × 200 ms and measures
 * 2 × 200 ms: enough to see an allocation, not to compare times. {@code -Djmh.only=Timeline} runs only the classes
 * whose name holds {@code Timeline} (while developing). The forks take this JVM's class path and find the module's
 * generated {@code META-INF/BenchmarkList} first on it (its own test classes come before common-loadgen's).
 */
public final class JmhRun {

    /** Below this many bytes per operation a benchmark allocated nothing per operation (JMH's own bookkeeping is amortised to a few thousandths). */
    static final double ALLOCATION_FREE_BYTES = 1.0;

    private static final ObjectMapper JSON = new ObjectMapper();

    private JmhRun() {
    }

    /** @return whether this run is CI's short smoke ({@code -Djmh.smoke}) */
    public static boolean smoke() {
        return System.getProperty("jmh.smoke") != null;
    }

    /**
     * Runs every benchmark of {@code benchmarks} and writes {@code jmh.json} and {@code jmh.txt} to the module's reports
     * folder.
     *
     * @return the JSON's path; null when {@code -Djmh.only} matched none of {@code benchmarks} (nothing ran)
     */
    public static Path run(Class<?>... benchmarks) throws RunnerException, IOException {
        return runAs("jmh", benchmarks);
    }

    /**
     * As {@link #run}, writing {@code <name>.json} and {@code <name>.txt}: for a module whose reports share a results
     * folder with another module's {@code jmh.json} (the harness's modules all save into {@code book/results/common-loadgen}).
     */
    public static Path runAs(String name, Class<?>... benchmarks) throws RunnerException, IOException {
        Path dir = ReportWriter.reportsDir();
        Files.createDirectories(dir);
        Path json = dir.resolve(name + ".json");
        Files.deleteIfExists(json);
        boolean smoke = smoke();
        ChainedOptionsBuilder options = new OptionsBuilder()
                .forks(1)
                .warmupIterations(smoke ? 1 : 3)
                .warmupTime(TimeValue.milliseconds(smoke ? 200 : 1_000))
                .measurementIterations(smoke ? 2 : 5)
                .measurementTime(TimeValue.milliseconds(smoke ? 200 : 1_000))
                .timeUnit(TimeUnit.NANOSECONDS)
                .addProfiler(GCProfiler.class)
                // the fork's own heap and collector, not the test JVM's (2 GB, sized for load runs)
                .jvmArgs("-Xms512m", "-Xmx512m", "-XX:+UseG1GC")
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString());
        String only = System.getProperty("jmh.only", ""); // -Djmh.only=Timeline: the classes whose name holds it
        int included = 0;
        for (Class<?> b : benchmarks) {
            if (b.getSimpleName().contains(only)) {
                options.include("^" + Pattern.quote(b.getName()) + "\\.");
                included++;
            }
        }
        if (included == 0) {
            return null; // JMH without an include would run every benchmark on the class path
        }
        new Runner(options.build()).run();
        Files.writeString(dir.resolve(name + ".txt"), summary(json, smoke));
        return json;
    }

    /** One benchmark as JMH's JSON has it. */
    record Row(String benchmark, int threads, double nanosPerOp, double error, double bytesPerOp, boolean hasBytes) {
    }

    static List<Row> rows(Path json) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (JsonNode b : JSON.readTree(json.toFile())) {
            JsonNode primary = b.path("primaryMetric");
            JsonNode norm = b.path("secondaryMetrics").path("gc.alloc.rate.norm");
            rows.add(new Row(b.path("benchmark").asText(), b.path("threads").asInt(), primary.path("score").asDouble(),
                    primary.path("scoreError").asDouble(Double.NaN), norm.path("score").asDouble(Double.NaN),
                    !norm.isMissingNode()));
        }
        return rows;
    }

    /** @return the summary: one line per benchmark, as JMH's JSON has it */
    static String summary(Path json, boolean smoke) throws IOException {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "JMH %s (%d cores, JDK %s): average time per operation, 1 fork, %s; bytes/op from -prof gc (gc.alloc.rate.norm)%n",
                smoke ? "smoke" : "run", Runtime.getRuntime().availableProcessors(), Runtime.version(),
                smoke ? "warm-up 1 x 200 ms, 2 x 200 ms measured (times not comparable)" : "warm-up 3 x 1 s, 5 x 1 s measured"));
        for (Row r : rows(json)) {
            text.append(String.format(Locale.ROOT, "%-70s threads=%d %10.2f ± %.2f ns/op %10.3f B/op%n",
                    r.benchmark(), r.threads(), r.nanosPerOp(), r.error(), r.bytesPerOp()));
        }
        return text.toString();
    }

    /**
     * @return one line per benchmark that broke the allocation gate: a benchmark without {@code gc.alloc.rate.norm}, or
     *         one marked {@link AllocatesNothing} that allocated {@value #ALLOCATION_FREE_BYTES} byte or more per operation
     */
    public static List<String> allocationFailures(Path json) throws IOException {
        List<String> failures = new ArrayList<>();
        for (Row r : rows(json)) {
            if (!r.hasBytes()) {
                failures.add(r.benchmark() + ": no gc.alloc.rate.norm (was the GC profiler on?)");
            } else if (allocatesNothing(r.benchmark()) && !(r.bytesPerOp() < ALLOCATION_FREE_BYTES)) {
                failures.add(String.format(Locale.ROOT, "%s (threads=%d): %.3f bytes per operation, must allocate nothing",
                        r.benchmark(), r.threads(), r.bytesPerOp()));
            }
        }
        return failures;
    }

    private static boolean allocatesNothing(String benchmark) {
        int dot = benchmark.lastIndexOf('.');
        try {
            Class<?> type = Class.forName(benchmark.substring(0, dot));
            String name = benchmark.substring(dot + 1);
            return Arrays.stream(type.getMethods()).filter(m -> m.getName().equals(name))
                    .anyMatch(m -> m.isAnnotationPresent(AllocatesNothing.class));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("benchmark " + benchmark + " is not on the class path", e);
        }
    }

    /** @return the benchmark names in {@code json}, for a failure message */
    public static String names(Path json) throws IOException {
        return rows(json).stream().map(Row::benchmark).collect(Collectors.joining(", "));
    }
}
