package archlab.serve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A checkpoint served in a child process: a JVM started with this JVM's own {@code java} and class path, running a
 * checkpoint's main (one that hands its fixture to {@link ServedCheckpoint#main}), and known once it printed its
 * serving line: {@link #baseUri()}, {@link #port()}, {@link #pid()}. It can be stopped cleanly ({@link #stop()}:
 * SIGTERM, the child's shutdown hook stops Tomcat) or crashed ({@link #kill()}: SIGKILL, nothing runs in the child).
 *
 * <p>No child is left behind: {@link #close()} stops it, a shutdown hook of this JVM stops every child still running,
 * and the child itself exits when this JVM ends, even by SIGKILL ({@link ServedCheckpoint#PARENT_PID_PROPERTY}).
 * The child's output (stdout and stderr, merged) is read line by line: the last {@value #KEPT_LINES} are kept for
 * {@link #output()} and for the message when it fails to start, and each can be echoed as it comes.
 *
 * <p>Thread-safety: the methods may be called from any thread.
 */
public final class ServedProcess implements AutoCloseable {

    /** How long {@link Builder#start()} waits for the serving line unless told otherwise. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** How long {@link #stop()} waits after SIGTERM before it sends SIGKILL. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** The JVM options of a child unless told otherwise: the garbage collector and thread stacks of the lab's runs. */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-XX:+UseG1GC", "-Xss512k");
    /** Exit codes of a JVM that ended on SIGTERM and on SIGINT (128 + the signal's number), after its shutdown hooks. */
    public static final int EXIT_ON_SIGTERM = 143;
    public static final int EXIT_ON_SIGINT = 130;
    static final int KEPT_LINES = 200;

    private static final Pattern SERVING = Pattern.compile(ServedCheckpoint.SERVING_LINE);
    /** Children started and not yet closed: what this JVM's shutdown hook stops. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ServedProcess::stopAll, "archlab-served-children"));
    }

    private final Process process;
    private final String mainClass;
    private final URI baseUri;
    private final int port;
    private final Thread reader;
    private final Deque<String> lastLines;

    private ServedProcess(Process process, String mainClass, URI baseUri, int port, Thread reader, Deque<String> lastLines) {
        this.process = process;
        this.mainClass = mainClass;
        this.baseUri = baseUri;
        this.port = port;
        this.reader = reader;
        this.lastLines = lastLines;
    }

    /** A child that ended, or never printed its serving line in time: its exit code and its last output. */
    public static final class NotServingException extends IllegalStateException {
        private final int exitCode;
        private final transient List<String> lastOutput;

        NotServingException(String message, int exitCode, List<String> lastOutput) {
            super(message + (lastOutput.isEmpty() ? "; it printed nothing" : "; its last output:\n  " + String.join("\n  ", lastOutput)));
            this.exitCode = exitCode;
            this.lastOutput = List.copyOf(lastOutput);
        }

        /** @return the child's exit code ({@link #EXIT_ON_SIGTERM} etc.), or -1 when it was still running (killed then) */
        public int exitCode() {
            return exitCode;
        }

        /** @return the child's last lines of output */
        public List<String> lastOutput() {
            return lastOutput;
        }
    }

    /** @return a child serving {@code mainClass} with {@code settings}, started: {@code builder(mainClass).settings(settings).start()} */
    public static ServedProcess start(Class<?> mainClass, ServeSettings settings) {
        return builder(mainClass).settings(settings).start();
    }

    /** @return a builder of a child running {@code mainClass}'s {@code main}, with the defaults */
    public static Builder builder(Class<?> mainClass) {
        return new Builder(mainClass.getName());
    }

    /**
     * The reader's {@code -Dserve}: serves {@code mainClass} in a child with {@code settings}, its output echoed on
     * {@code out}, until the child ends (its pid killed, Ctrl-C, {@code -Dlab.serve.seconds}).
     *
     * @return the child's exit code: 0, {@link #EXIT_ON_SIGTERM} or {@link #EXIT_ON_SIGINT}
     * @throws IllegalStateException when it did not serve, or ended otherwise (naming the exit code and its last output)
     */
    public static int untilStopped(Class<?> mainClass, ServeSettings settings, PrintStream out) throws InterruptedException {
        try (ServedProcess child = builder(mainClass).settings(settings).echo(out::println).start()) {
            int exit = child.awaitExit();
            if (exit != 0 && exit != EXIT_ON_SIGTERM && exit != EXIT_ON_SIGINT) {
                throw new NotServingException(mainClass.getName() + " ended with exit code " + exit, exit, child.output());
            }
            return exit;
        }
    }

    /** Options of a child; {@link #start()} starts it. Not thread-safe. */
    public static final class Builder {
        private final String mainClass;
        private ServeSettings settings = ServeSettings.DEFAULT;
        private Consumer<String> echo = line -> { };
        private Duration startTimeout = START_TIMEOUT;
        private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
        private ProcessHandle stopWhenEnds = ProcessHandle.current();

        private Builder(String mainClass) {
            this.mainClass = mainClass;
        }

        /** @param settings the port, threads and serving time the child reads as {@code -Dlab.*}; default {@link ServeSettings#DEFAULT} */
        public Builder settings(ServeSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** @param echo called with each line the child prints, on the thread that reads them; default: none */
        public Builder echo(Consumer<String> echo) {
            this.echo = Objects.requireNonNull(echo, "echo");
            return this;
        }

        /** @param timeout how long to wait for the serving line; default {@link #START_TIMEOUT} */
        public Builder startTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("startTimeout must be positive, was " + timeout);
            }
            this.startTimeout = timeout;
            return this;
        }

        /**
         * @param options the child's JVM options (heap, GC…; a {@code -Dlab.*} here wins over the settings' own);
         *                default {@link #DEFAULT_JVM_OPTIONS}
         */
        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = List.copyOf(options);
            return this;
        }

        /** @param process the process whose end makes the child exit; default this JVM */
        public Builder stopWhenEnds(ProcessHandle process) {
            this.stopWhenEnds = Objects.requireNonNull(process, "process");
            return this;
        }

        /**
         * Starts the child and waits for its serving line.
         *
         * @throws NotServingException when it ends before serving, or has not served within the start timeout (it is
         *                             killed then); the message names its exit code and its last output
         */
        public ServedProcess start() {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command()
                    .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(settings.asSystemProperties());
            command.addAll(jvmOptions); // after the settings: a -D given here wins over theirs
            command.add("-D" + ServedCheckpoint.PARENT_PID_PROPERTY + "=" + stopWhenEnds.pid());
            String moduleDir = System.getProperty("archlab.module.dir");
            if (moduleDir != null) {
                command.add("-Darchlab.module.dir=" + moduleDir);
            }
            // under surefire this is the test class path (its booter jar is surefire.real.class.path), not the booter's
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
            Process process;
            try {
                process = new ProcessBuilder(command).redirectErrorStream(true).start();
                process.getOutputStream().close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + mainClass + ": " + command.getFirst(), e);
            }
            LIVE.add(process);
            Deque<String> lastLines = new ArrayDeque<>();
            CompletableFuture<Matcher> serving = new CompletableFuture<>();
            Thread reader = Thread.ofPlatform().daemon().name("served-" + process.pid() + "-output")
                    .start(() -> read(process, lastLines, echo, serving));
            Matcher line;
            try {
                line = serving.get(startTimeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                process.destroyForcibly();
                awaitQuietly(process, reader);
                LIVE.remove(process);
                throw new NotServingException(mainClass + " printed no serving line within " + startTimeout.toSeconds()
                        + " s (killed)", -1, copy(lastLines));
            } catch (ExecutionException | InterruptedException e) {
                // its output ended (it exited) before a serving line, or this thread was interrupted
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    process.destroyForcibly();
                }
                int exit = awaitQuietly(process, reader);
                LIVE.remove(process);
                throw new NotServingException(mainClass + " ended with exit code " + exit + " before it served", exit,
                        copy(lastLines));
            }
            if (Long.parseLong(line.group(3)) != process.pid()) {
                process.destroyForcibly();
                awaitQuietly(process, reader);
                LIVE.remove(process);
                throw new NotServingException(mainClass + "'s serving line names pid " + line.group(3) + ", not the child's "
                        + process.pid(), -1, copy(lastLines));
            }
            return new ServedProcess(process, mainClass, URI.create(line.group(1)), Integer.parseInt(line.group(2)),
                    reader, lastLines);
        }
    }

    /** Reads the child's lines until its output ends; completes {@code serving} with the first serving line. */
    private static void read(Process process, Deque<String> lastLines, Consumer<String> echo, CompletableFuture<Matcher> serving) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > KEPT_LINES) {
                        lastLines.removeFirst();
                    }
                }
                echo.accept(line);
                Matcher m = SERVING.matcher(line);
                if (!serving.isDone() && m.matches()) {
                    serving.complete(m);
                }
            }
        } catch (IOException e) {
            // the pipe broke: the child is gone
        } finally {
            serving.completeExceptionally(new IllegalStateException("the child's output ended"));
        }
    }

    /** Waits for the child's exit and the end of its output (at most {@link #STOP_TIMEOUT}); its exit code, -1 if none. */
    private static int awaitQuietly(Process process, Thread reader) {
        try {
            if (process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                reader.join(STOP_TIMEOUT.toMillis());
                return process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return -1;
    }

    private static List<String> copy(Deque<String> lines) {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** @return {@code http://127.0.0.1:PORT}, as its serving line said */
    public URI baseUri() {
        return baseUri;
    }

    /** @return the port it listens on, on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return the child's pid */
    public long pid() {
        return process.pid();
    }

    /** @return whether the child is still running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the child's last lines of output (at most {@value #KEPT_LINES}), oldest first */
    public List<String> output() {
        return copy(lastLines);
    }

    /**
     * Crashes the child: SIGKILL ({@link Process#destroyForcibly()}), nothing of it runs after (no shutdown hook, no
     * Tomcat stop), then waits for it to end.
     *
     * @return its exit code (137 on Linux)
     */
    public int kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        return ended(process.waitFor());
    }

    /**
     * Stops the child cleanly: SIGTERM ({@link Process#destroy()}), its shutdown hook stops the server and prints its
     * {@code stopped} line; SIGKILL after {@link #STOP_TIMEOUT} if it has not ended by then.
     *
     * @return its exit code ({@link #EXIT_ON_SIGTERM} after a clean stop)
     */
    public int stop() throws InterruptedException {
        // the signal through the process's handle: Process.destroy() would also close this end of its output, and the
        // lines its shutdown hook prints would be lost
        process.toHandle().destroy();
        if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.toHandle().destroyForcibly();
        }
        return ended(process.waitFor());
    }

    /** Waits, without limit, until the child ends by itself (or by a signal from elsewhere); its exit code. */
    public int awaitExit() throws InterruptedException {
        return ended(process.waitFor());
    }

    private int ended(int exit) throws InterruptedException {
        reader.join(STOP_TIMEOUT.toMillis()); // its last lines, e.g. "stopped …", are in output() when this returns
        LIVE.remove(process);
        return exit;
    }

    /** Stops the child ({@link #stop()}) if it still runs; interrupted meanwhile, kills it and keeps the interrupt. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                stop();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            LIVE.remove(process);
        }
    }

    @Override
    public String toString() {
        return mainClass + " pid=" + pid() + " " + baseUri;
    }

    /** This JVM's shutdown hook: SIGTERM to every child still running, SIGKILL to those still running 10 s later. */
    private static void stopAll() {
        List<Process> children = List.copyOf(LIVE);
        children.forEach(p -> p.toHandle().destroy()); // not Process.destroy(): the echo reads their last lines
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (Process p : children) {
            try {
                if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
    }
}
