package archlab.claims;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One student process: a JVM running {@link SolutionServer} over the solution's classes, started in the
 * {@link SolutionSandbox}, known once it printed its serving line, metered while it runs ({@link StudentMeter}), and
 * killed — with every process it started — by {@link #close()}.
 *
 * <p>Its JVM: this JVM's {@code java}, the heap capped at {@value #HEAP}, a clean environment, its own home as the
 * working and temporary folder (Tomcat's scratch folder included, deleted with it).
 *
 * <p>Thread-safety: {@link #state()} and {@link #close()} may be called from any thread.
 */
final class SolutionProcess implements AutoCloseable {

    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final String HEAP = "512m";
    private static final Pattern SERVING = Pattern.compile(SolutionServer.SERVING_LINE);
    private static final int KEPT_LINES = 50;
    private static final int LINE_CHARS = 300;

    private final Process process;
    private final URI baseUri;
    private final Path home;
    private final SolutionSandbox sandbox;
    private final Deque<String> lastLines;
    private final StudentMeter meter;

    private SolutionProcess(Process process, URI baseUri, Path home, SolutionSandbox sandbox, Deque<String> lastLines) {
        this.process = process;
        this.baseUri = baseUri;
        this.home = home;
        this.sandbox = sandbox;
        this.lastLines = lastLines;
        this.meter = StudentMeter.start(this::processes);
    }

    /**
     * Starts the solution's process and waits for its serving line.
     *
     * @param classPath the readable class path: the solution's classes first, then its adapter and the lab's libraries
     * @throws IllegalStateException when it ended, or did not serve within {@link #START_TIMEOUT}, with its last output
     */
    static SolutionProcess start(SolutionSandbox sandbox, List<Path> classPath) {
        Path home;
        try {
            home = sandbox.newHome();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the student's process a home", e);
        }
        List<String> command = new ArrayList<>(sandbox.prefix());
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // C1 only: compiled within the warm-up's second, where C2 would still be interpreting through the first claims
        // (the lab's fast tests run the same way); the student's code is judged as compiled code, not by its peak
        command.addAll(List.of("-Xms" + HEAP, "-Xmx" + HEAP, "-XX:MaxDirectMemorySize=64m", "-Xss512k", "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1",
                "-XX:+ExitOnOutOfMemoryError", "-Djava.io.tmpdir=" + home, "-Duser.home=" + home,
                "-D" + SolutionServer.PARENT_PROPERTY + "=" + ProcessHandle.current().pid(),
                "-cp", classPath.stream().map(Path::toString).collect(Collectors.joining(":")),
                SolutionServer.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(java.util.Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString(), "LANG", "C.UTF-8"));
        Process process;
        try {
            process = builder.start(); // its stdin stays open until close(): its end tells the process the grader is gone
        } catch (IOException e) {
            SolutionSandbox.deleteTree(home);
            throw new UncheckedIOException("cannot start the solution's process: " + command.getFirst(), e);
        }
        Deque<String> lastLines = new ArrayDeque<>();
        CompletableFuture<Matcher> serving = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("solution-" + process.pid() + "-output").start(() -> read(process, lastLines, serving));
        Matcher line;
        try {
            line = serving.get(START_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String why = e instanceof TimeoutException ? "printed no serving line within " + START_TIMEOUT.toSeconds() + " s"
                    : "ended before it served";
            killAll(process, sandbox);
            SolutionSandbox.deleteTree(home);
            throw new IllegalStateException("the solution's process " + why + lastOutput(lastLines));
        }
        // prlimit, setsid and setpriv exec what follows them: the JVM keeps the pid the grader started
        if (Long.parseLong(line.group(3)) != process.pid()) {
            killAll(process, sandbox);
            SolutionSandbox.deleteTree(home);
            throw new IllegalStateException("the solution's serving line names pid " + line.group(3) + ", not its own");
        }
        return new SolutionProcess(process, URI.create(line.group(1)), home, sandbox, lastLines);
    }

    private static void read(Process process, Deque<String> lastLines, CompletableFuture<Matcher> serving) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = boundedLine(in)) != null; ) {
                String kept = line.replaceAll("[^\\x20-\\x7e]", "?");
                synchronized (lastLines) {
                    lastLines.addLast(kept);
                    if (lastLines.size() > KEPT_LINES) {
                        lastLines.removeFirst();
                    }
                }
                Matcher m = SERVING.matcher(line);
                if (!serving.isDone() && m.matches()) {
                    serving.complete(m);
                }
            }
        } catch (IOException e) {
            // the pipe broke: the process is gone
        } finally {
            serving.completeExceptionally(new IllegalStateException("its output ended"));
        }
    }

    /**
     * @return the next line, at most {@value #LINE_CHARS} characters of it (the rest up to its end read and dropped:
     *         a process that prints without end never fills the grader's heap), or null at the end of the output
     */
    private static String boundedLine(BufferedReader in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        boolean any = false;
        while ((c = in.read()) >= 0) {
            any = true;
            if (c == '\n') {
                break;
            }
            if (line.length() < LINE_CHARS) {
                line.append((char) c);
            }
        }
        return any ? line.toString() : null;
    }

    private static String lastOutput(Deque<String> lines) {
        List<String> copy;
        synchronized (lines) {
            copy = List.copyOf(lines);
        }
        List<String> tail = copy.subList(Math.max(0, copy.size() - 10), copy.size());
        return tail.isEmpty() ? "; it printed nothing" : "; its last output:\n  " + String.join("\n  ", tail);
    }

    URI baseUri() {
        return baseUri;
    }

    /** @return every process of the student's now: its uid's (a separate user), or the JVM and its descendants */
    List<ProcessHandle> processes() {
        if (sandbox.separateUser()) {
            return sandbox.processesOfUid();
        }
        List<ProcessHandle> out = new ArrayList<>();
        if (process.isAlive()) {
            out.add(process.toHandle());
        }
        process.toHandle().descendants().forEach(out::add);
        return out;
    }

    /** @return one phrase on the process's state: "it is running", "it ended with exit code N" */
    String state() {
        return process.isAlive() ? "it is running" : "it ended with exit code " + process.exitValue() + lastOutput(lastLines);
    }

    /** @return what the student's processes used so far */
    StudentMeter.Use use() {
        return meter.use();
    }

    /** Stops the meter, kills the student's processes (SIGKILL, all of them) and deletes its home. */
    @Override
    public void close() {
        meter.close();
        killAll(process, sandbox);
        sandbox.deleteLeftovers();
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // it is gone
        }
        SolutionSandbox.deleteTree(home);
    }

    private static void killAll(Process process, SolutionSandbox sandbox) {
        sandbox.killEveryProcessOfUid();
        for (int round = 0; round < 5; round++) {
            if (round > 0) {
                sandbox.killEveryProcessOfUid();
            }
            List<ProcessHandle> live = new ArrayList<>(process.toHandle().descendants().toList());
            live.add(process.toHandle());
            live.addAll(sandbox.processesOfUid());
            live.removeIf(p -> !p.isAlive());
            if (live.isEmpty()) {
                return;
            }
            live.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle p : live) {
                try {
                    p.onExit().get(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException | TimeoutException e) {
                    // killed again next round
                }
            }
        }
    }
}
