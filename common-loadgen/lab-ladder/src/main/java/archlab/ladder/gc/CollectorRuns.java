package archlab.ladder.gc;

import archlab.ladder.LadderRun;
import archlab.ladder.LadderSettings;
import archlab.ladder.Rung;
import archlab.report.ReportWriter;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The article's last step (its section 4.4: "把 JVM 堆适当调大", "用-Xlog:gc*观察 GC 日志"): one rung of the ladder
 * ({@link #RUNG}, the last whose business code is all slow while every other layer is fast) run again in a JVM of its
 * own per {@link Setup} — a collector (G1, the default; generational ZGC; Parallel) at a heap
 * size — under the same load, each JVM writing {@code -Xlog:gc*} to {@code target/reports/ladder-gc-<setup>.log}. A
 * JVM's collector is fixed when it starts, so the test's JVM cannot change it: each setup is a child process
 * ({@link #main}) started with the test's class path, the same {@code ladder.*} and {@code archlab.*} properties, and
 * the collector's flags; it runs the rung twice and keeps the second (the first warms its JIT, as the ladder's earlier
 * rungs warm the test's JVM: a cold JVM's first run of the slow business code falls behind the load and never catches
 * up), writes its figures to {@code ladder-gc-<setup>.json} and its output to {@code ladder-gc-<setup>.out}, both read
 * back here. The database's URL reaches the child in its environment ({@value #JDBC_ENV}), not on its command line;
 * the {@code JAVA_TOOL_OPTIONS}-style variables are cleared so that nothing but the setup picks its collector. A child
 * that overruns its time, or whose parent goes away, is stopped.
 *
 * <p>Thread-safety: one run at a time (each setup is a load run; they run one after another, the test's JVM idle).
 */
public final class CollectorRuns {

    /** The collectors compared. */
    public enum Collector {
        G1("-XX:+UseG1GC"), ZGC("-XX:+UseZGC"), PARALLEL("-XX:+UseParallelGC");

        private final String flag;

        Collector(String flag) {
            this.flag = flag;
        }

        /**
         * @param javaFeature the JVM's feature release ({@link Runtime.Version#feature()})
         * @return the JVM flags that select it: ZGC generational on every release (its default from 23 on, a flag
         *         before)
         */
        public List<String> flags(int javaFeature) {
            return this == ZGC && javaFeature < 23 ? List.of(flag, "-XX:+ZGenerational") : List.of(flag);
        }
    }

    /** The system property that gives the child its parent's pid: a child whose parent is gone stops at once. */
    static final String PARENT_PROPERTY = "archlab.collectorRuns.parent";
    /** The child's exit code when its parent is gone. */
    static final int PARENT_GONE_EXIT = 4;

    /**
     * The rung run under each setup: the last whose business code is all slow while every other layer is fast
     * (about a MiB allocated per request on the full data set, so the collector has work, without the slow storage's
     * queues); the ladder's later rungs, which cut the allocation, are the article's third remedy
     * ("在热路径上彻底消灭不必要的对象分配") and show in the per-rung GC table.
     */
    public static final String RUNG = "tcp-nodelay";

    /** The heap sizes compared, MiB (-Xms = -Xmx): a small heap, and the test JVM's own. */
    public static final List<Integer> HEAP_MIB = List.of(128, 2048);
    /** Where the child finds the database's JDBC URL. */
    static final String JDBC_ENV = "ARCHLAB_LADDER_JDBC";

    /** @return how long one setup's JVM may run before it is stopped: its two runs, and three minutes for the rest */
    static Duration timeout(LadderSettings settings) {
        return Duration.ofSeconds(2L * (LadderSettings.WARMUP_SECONDS + settings.measure().toSeconds())).plusMinutes(3);
    }

    /**
     * One JVM's settings.
     *
     * @param collector the collector
     * @param heapMiB   the heap, MiB
     */
    public record Setup(Collector collector, int heapMiB) {
        /** @return e.g. {@code g1-128m} */
        public String name() {
            return collector.name().toLowerCase(java.util.Locale.ROOT) + "-" + heapMiB + "m";
        }
    }

    /**
     * The client's figures of one setup's run.
     *
     * @param p50Micros  p50, µs
     * @param p99Micros  p99, µs
     * @param p999Micros p99.9, µs
     * @param meanMicros mean, µs
     * @param completed  answered in time
     * @param offered    planned
     */
    public record Latency(double p50Micros, double p99Micros, double p999Micros, double meanMicros, long completed,
                          long offered) {
    }

    /**
     * One setup's run.
     *
     * @param setup         the JVM's settings
     * @param rung          the rung run
     * @param latency       what the client measured
     * @param businessBytes bytes the business code's request thread allocated per answered request
     * @param gc            what the collector did in the measured phase, and what the JVM allocated
     * @param gcLog         the JVM's {@code -Xlog:gc*} file, by name (beside the report; its whole life, both runs)
     */
    public record Result(Setup setup, String rung, Latency latency, double businessBytes, GcFigures gc, String gcLog) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private CollectorRuns() {
    }

    /** @return every collector at every heap size, G1 first */
    public static List<Setup> setups() {
        List<Setup> setups = new ArrayList<>();
        for (Collector c : Collector.values()) {
            HEAP_MIB.forEach(heap -> setups.add(new Setup(c, heap)));
        }
        return setups;
    }

    /**
     * Runs {@code rung} once per setup, each in a JVM of its own.
     *
     * @throws IllegalStateException naming the setup and quoting its output's end when a JVM fails or overruns
     */
    public static List<Result> run(String jdbcUrl, Rung rung, LadderSettings settings) {
        List<Result> results = new ArrayList<>();
        for (Setup setup : setups()) {
            results.add(runOne(jdbcUrl, rung, setup, timeout(settings)));
        }
        return results;
    }

    private static Result runOne(String jdbcUrl, Rung rung, Setup setup, Duration timeout) {
        Path dir = ReportWriter.reportsDir().toAbsolutePath();
        Path result = dir.resolve("ladder-gc-" + setup.name() + ".json");
        Path output = dir.resolve("ladder-gc-" + setup.name() + ".out");
        Path gcLog = dir.resolve("ladder-gc-" + setup.name() + ".log");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(result);
            Files.deleteIfExists(gcLog);
            ProcessBuilder builder = new ProcessBuilder(command(rung, setup, result, gcLog)).redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            builder.environment().keySet().removeAll(List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"));
            builder.environment().put(JDBC_ENV, jdbcUrl);
            Process p = builder.start();
            try {
                if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    throw failed(setup, "did not finish within " + timeout.toSeconds() + " s", output);
                }
                if (p.exitValue() != 0 || !Files.exists(result)) {
                    throw failed(setup, "exited " + p.exitValue(), output);
                }
            } finally {
                if (p.isAlive()) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            return JSON.readValue(result.toFile(), Result.class);
        } catch (IOException e) {
            throw new UncheckedIOException("the collector run " + setup.name() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the collector run " + setup.name() + " ran", e);
        }
    }

    /** @return the child JVM's command line (the database's URL goes in its environment) */
    static List<String> command(Rung rung, Setup setup, Path result, Path gcLog) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + setup.heapMiB() + "m", "-Xmx" + setup.heapMiB() + "m", "-Xss512k", "-XX:+ExitOnOutOfMemoryError",
                // one file, never rotated; quoted, so that a ':' or ',' in the folder's name stays part of it
                "-Xlog:gc*:file=\"" + gcLog + "\":uptime,level,tags:filecount=0",
                "-D" + PARENT_PROPERTY + "=" + ProcessHandle.current().pid()));
        command.addAll(1, setup.collector().flags(Runtime.version().feature()));
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("ladder.") || name.startsWith("archlab.")) {
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CollectorRuns.class.getName(),
                rung.name(), setup.collector().name(), Integer.toString(setup.heapMiB()), result.toString()));
        return command;
    }

    private static IllegalStateException failed(Setup setup, String why, Path output) throws IOException {
        List<String> lines = Files.exists(output) ? Files.readAllLines(output) : List.of();
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        return new IllegalStateException("the collector run " + setup.name() + " " + why + "; its output (" + output + ") ends:\n" + tail);
    }

    /**
     * The child JVM: runs one rung under this JVM's collector and writes its {@link Result}.
     *
     * @param args the rung's name, the collector, the heap (MiB), the result's file; the database's JDBC URL in the
     *             environment ({@value #JDBC_ENV})
     */
    public static void main(String[] args) {
        // a child whose test JVM went away stops too, rather than hold the database and the CPU: gone already (before this
        // line ran), or later
        String parentPid = System.getProperty(PARENT_PROPERTY, "");
        ProcessHandle.of(parentPid.matches("[0-9]+") ? Long.parseLong(parentPid) : -1).filter(ProcessHandle::isAlive)
                .ifPresentOrElse(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(PARENT_GONE_EXIT)),
                        () -> Runtime.getRuntime().halt(PARENT_GONE_EXIT));
        int exit = 0;
        try {
            Objects.checkIndex(3, args.length);
            String jdbcUrl = Objects.requireNonNull(System.getenv(JDBC_ENV), JDBC_ENV + " is not set");
            Setup setup = new Setup(Collector.valueOf(args[1]), Integer.parseInt(args[2]));
            Rung ladderRung = Rung.named(args[0]);
            Rung rung = new Rung("gc-" + setup.name(), ladderRung.name() + " under " + setup.name(), ladderRung.query(),
                    ladderRung.network(), ladderRung.compute(), ladderRung.tracing());
            LadderSettings settings = LadderSettings.from(System.getProperties());
            LadderRun.runOne(jdbcUrl, settings, rung); // the JIT's warm-up: a first run, not kept
            LadderRun.RungResult r = LadderRun.runOne(jdbcUrl, settings, rung);
            var l = r.load().latency();
            Latency latency = new Latency(l.p50Micros(), l.p99Micros(), l.p999Micros(), l.meanMicros(),
                    r.load().requests().completed(), r.load().requests().offered());
            Result result = new Result(setup, ladderRung.name(), latency, r.business().split().businessBytes(), r.server().gc(),
                    "ladder-gc-" + setup.name() + ".log");
            JSON.writerWithDefaultPrettyPrinter().writeValue(Path.of(args[3]).toFile(), result);
            System.out.println("[ladder] " + setup.name() + ": p99 " + l.p99Micros() + " µs, "
                    + r.server().gc().verdictText(l.p50Micros(), l.p99Micros()));
        } catch (Throwable e) { // an error too (a heap too small): the exit code says so, and the output why
            System.out.println("[ladder] the collector run failed: " + e);
            e.printStackTrace(System.out);
            exit = 1;
        }
        System.exit(exit); // Tomcat's and the pool's threads are stopped; nothing else may hold the JVM
    }
}
