package archlab.serve;

import archlab.http.OrderHttpServer;
import archlab.http.Wrk;
import archlab.loadgen.BookWorkload;
import archlab.loadgen.LoadSpec;
import archlab.loopback.LoopbackPort;
import archlab.run.LabFixture;
import archlab.run.LabProperties;
import archlab.report.ReportLine;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One checkpoint served over HTTP in the JVM this runs in, until stopped: a fresh fixture from the checkpoint (its
 * service, downstream and the book's pre-created orders), its port behind an {@link OrderHttpServer} on 127.0.0.1, and
 * on the given stream, first, one line a script can parse ({@link #SERVING_LINE}):
 * <pre>
 * serving http://127.0.0.1:41234 pid=12345 threads=platform checkpoint=ch12-1-baseline pool=4000 | downstream_latency …
 * </pre>
 * then {@code curl} lines for a create, a get and a pay, and the {@code wrk} command for the book's mix (its script and
 * the pool's ids written to a scratch directory that {@link #close} deletes; one left by a server that was killed is
 * deleted by the next start). {@link #close} stops the server, lets the
 * fixture finish ({@link LabFixture#afterRun()}: an outbox drains) and prints a {@code stopped …} line with what the
 * server and the downstream saw.
 *
 * <p>{@link #main(Supplier)} is the entry a checkpoint's own main hands its fixture to: it reads
 * {@link ServeSettings} from {@code -Dlab.*}, refuses bad ones in one line on stderr with exit code
 * {@value #EXIT_REFUSED}, and serves until SIGTERM or Ctrl-C (a shutdown hook closes it), {@code -Dlab.serve.seconds},
 * or the end of the process named by {@value #PARENT_PID_PROPERTY} (a child never outlives the JVM that started it).
 *
 * <p>Thread-safety: {@link #close} may be called from any thread, more than once; the first call stops.
 */
public final class ServedCheckpoint implements AutoCloseable {

    /** The first line printed, as a regular expression: group 1 the base URI, 2 the port, 3 the pid, 4 the threads. */
    public static final String SERVING_LINE = "^serving (http://127\\.0\\.0\\.1:(\\d+)) pid=(\\d+) threads=(platform|virtual)\\b.*";
    /** The exit code of {@link #main} when it refuses its settings (as {@code archlab.run.RunFlagsCheck}'s). */
    public static final int EXIT_REFUSED = 2;
    /** The system property naming the pid whose end stops a served checkpoint (set by {@link ServedProcess}). */
    public static final String PARENT_PID_PROPERTY = "archlab.serve.parent";
    /** The scratch directories' names under the system's temp: {@code archlab-serve-<pid>-<random>}. */
    static final String SCRATCH_PREFIX = "archlab-serve-";
    private static final Pattern SCRATCH = Pattern.compile(Pattern.quote(SCRATCH_PREFIX) + "(\\d{1,18})-.*");
    /** The fixture's lines that say what is served (the others are figures of a run). */
    private static final Set<String> DESCRIBING_LINES = Set.of("downstream_latency", "scenario");

    private final LabFixture fixture;
    private final OrderHttpServer server;
    private final Path scratch;
    private final PrintStream out;
    private final long startedNanos = System.nanoTime();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);

    private ServedCheckpoint(LabFixture fixture, OrderHttpServer server, Path scratch, PrintStream out) {
        this.fixture = fixture;
        this.server = server;
        this.scratch = scratch;
        this.out = out;
    }

    /**
     * Builds a fixture, serves its port and prints the serving line and the examples on {@code out}.
     *
     * @throws IllegalArgumentException when the port cannot be used (naming it and why), or the fixture's workload is
     *                                  not the book's (the server needs its port)
     */
    public static ServedCheckpoint start(Supplier<? extends LabFixture> fixtures, ServeSettings settings, PrintStream out) {
        // the port first: a busy one is refused before seconds go into building the service and its orders
        LoopbackPort.requireFree(LabProperties.SERVE_PORT.property(), settings.port());
        LabFixture fixture = fixtures.get();
        if (!(fixture.workload() instanceof BookWorkload book)) {
            throw new IllegalArgumentException("a served checkpoint needs the book's workload (BookWorkload), this fixture's is "
                    + fixture.workload().getClass().getName());
        }
        fixture.beforeRun();
        Path scratch;
        Wrk.Script script;
        try {
            sweepScratchOfEndedServers();
            scratch = Files.createTempDirectory(SCRATCH_PREFIX + ProcessHandle.current().pid() + "-");
            script = Wrk.writeScript(scratch, book.pool());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the wrk script's scratch directory", e);
        }
        OrderHttpServer server;
        try {
            server = OrderHttpServer.start(book.target(), settings.threads(), settings.port());
        } catch (RuntimeException e) {
            deleteQuietly(scratch);
            fixture.afterRun();
            throw e;
        }
        ServedCheckpoint served = new ServedCheckpoint(fixture, server, scratch, out);
        served.printGuide(settings, book, script);
        return served;
    }

    /** @return {@code http://127.0.0.1:PORT} */
    public URI baseUri() {
        return server.baseUri();
    }

    /** @return the port it listens on, on 127.0.0.1 */
    public int port() {
        return server.port();
    }

    private void printGuide(ServeSettings settings, BookWorkload book, Wrk.Script script) {
        long pid = ProcessHandle.current().pid();
        String base = baseUri().toString();
        String checkpoint = System.getProperty("archlab.module.dir") == null ? ""
                : " checkpoint=" + Path.of(System.getProperty("archlab.module.dir")).getFileName();
        String described = describing(fixture).stream().map(l -> " | " + l.name() + " " + l.value()).collect(Collectors.joining());
        long deadlineMs = LoadSpec.book().timeout().toMillis();
        String deadline = " -H 'X-Deadline-Ms: " + deadlineMs + "'";
        String order = book.pool().getLast();
        out.println("serving " + base + " pid=" + pid + " threads=" + settings.threads().label() + checkpoint
                + " pool=" + book.pool().size() + described);
        out.println("  create: curl -s -X POST " + base + "/orders -H 'Content-Type: application/json'" + deadline
                + " -d '{\"customer\":\"" + BookWorkload.CUSTOMER + "\"}'");
        out.println("  get:    curl -s " + base + "/orders/" + order + deadline + "   (a pre-created order; any id a create answered)");
        out.println("  pay:    curl -s -X POST " + base + "/orders/" + order + "/pay" + deadline);
        out.println("  wrk:    " + String.join(" ", Wrk.command("wrk", baseUri(), script, Duration.ofSeconds(10), deadlineMs,
                LabProperties.DEFAULT_CONNECTIONS)) + "   (the book's mix" + (Wrk.find().isPresent() ? ")"
                : "; wrk is not installed: " + Wrk.INSTALL + ")"));
        out.println("  stop:   kill " + pid + " (or Ctrl-C)" + settings.servingTime()
                .map(t -> "; stops by itself after " + t.toSeconds() + " s (lab.serve.seconds)").orElse(""));
        out.flush();
    }

    /** Stops serving: {@link #close(String)} with no reason given. */
    @Override
    public void close() {
        close("closed");
    }

    /**
     * Stops the server, lets the fixture finish ({@link LabFixture#afterRun()}), deletes the scratch directory and
     * prints {@code stopped … after N s (why): <server's figures>; downstream …}. Later calls return at once.
     */
    public void close(String why) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        try {
            server.close();
            fixture.afterRun();
            out.printf(Locale.ROOT, "stopped %s after %.1f s (%s): %s; %s%n", baseUri(),
                    (System.nanoTime() - startedNanos) / 1e9, why, server.serverLine(), fixture.downstreamCounts().reportLine());
            out.flush();
        } finally {
            deleteQuietly(scratch);
            closed.countDown();
        }
    }

    /** Waits until {@link #close} has finished. */
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    /**
     * Serves the checkpoint whose fixtures {@code fixtures} builds in this JVM until it is stopped (see the class
     * comment); the whole of a checkpoint's {@code main}. Never returns normally while serving; exits the JVM with
     * {@value #EXIT_REFUSED} (one line on stderr, no stack trace) when the settings or the port are refused.
     */
    public static void main(Supplier<? extends LabFixture> fixtures) {
        AtomicReference<String> why = new AtomicReference<>("SIGTERM, Ctrl-C or exit");
        CompletableFuture<ServedCheckpoint> started = new CompletableFuture<>();
        // registered before anything starts: a SIGTERM while the service is being built, or while the guide is being
        // printed, waits for the start to finish and then stops it cleanly, as a later one does
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeOnceStarted(started, why), "archlab-serve-stop"));
        stopWhenParentEnds(why);
        ServeSettings settings;
        try {
            settings = ServeSettings.from(LabProperties.fromSystem());
            started.complete(start(fixtures, settings, System.out));
        } catch (IllegalArgumentException e) {
            started.completeExceptionally(e);
            System.err.println("[lab] not serving: " + e.getMessage());
            System.err.flush();
            System.exit(EXIT_REFUSED);
            return;
        } catch (RuntimeException | Error e) {
            started.completeExceptionally(e);
            throw e;
        }
        try {
            if (settings.servingTime().isPresent()) {
                Thread.sleep(settings.servingTime().get());
                why.set("lab.serve.seconds=" + settings.servingTime().get().toSeconds() + " passed");
                System.exit(0);
            }
            started.join().awaitClosed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.exit(0);
        }
    }

    /** The shutdown hook: closes the served checkpoint once its start has finished (at most a minute); nothing if it failed. */
    private static void closeOnceStarted(CompletableFuture<ServedCheckpoint> started, AtomicReference<String> why) {
        try {
            started.get(1, TimeUnit.MINUTES).close(why.get());
        } catch (ExecutionException | TimeoutException e) {
            // it never served: nothing to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * With {@value #PARENT_PID_PROPERTY} set: exits (closing, through the hook) when that process ends, or at once,
     * refusing, if it is gone already. Watched from before the start, so that an end during it is not missed.
     */
    private static void stopWhenParentEnds(AtomicReference<String> why) {
        String parent = System.getProperty(PARENT_PID_PROPERTY);
        if (parent == null) {
            return;
        }
        ProcessHandle.of(Long.parseLong(parent.trim())).ifPresentOrElse(p -> p.onExit().thenRun(() -> {
            why.set("the process that started it, pid " + parent + ", ended");
            System.exit(0);
        }), () -> {
            System.err.println("[lab] not serving: the process that started it, pid " + parent + ", is gone");
            System.exit(EXIT_REFUSED);
        });
    }

    /**
     * Deletes the scratch directories of served checkpoints whose process has ended without deleting its own: a
     * SIGKILL (a crash test's) runs no {@link #close}.
     */
    private static void sweepScratchOfEndedServers() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            dirs.filter(Files::isDirectory).forEach(dir -> {
                Matcher m = SCRATCH.matcher(dir.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).filter(ProcessHandle::isAlive).isEmpty()) {
                    deleteQuietly(dir);
                }
            });
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a scratch directory under the system's temp: left for the OS
        }
    }

    /** @return the fixture's lines that say what is served, as the serving line prints them */
    private static List<ReportLine> describing(LabFixture fixture) {
        return fixture.extra().stream().filter(l -> DESCRIBING_LINES.contains(l.name())).toList();
    }
}
