package archlab.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * wrk, the article's measuring tool, run as a process against an {@link OrderHttpServer} on 127.0.0.1 with the book's
 * mix ({@code book-mix.lua}, beside this class): closed loop, {@code -t8 -c200} as in the article (or the connections asked for), a bounded duration.
 * Its figures are parsed from the line the script's {@code done()} prints, never retyped.
 *
 * <p>Stateless apart from the script it writes to a temporary file; one run at a time per caller.
 */
public final class Wrk {

    /** How to get wrk when it is missing. */
    public static final String INSTALL = "apt-get update && apt-get install -y wrk (Debian/Ubuntu), brew install wrk (macOS)";

    /**
     * What wrk counted.
     *
     * @param requests     requests answered (any status)
     * @param seconds      how long it ran
     * @param non2xx       answers with a status outside 2xx/3xx
     * @param socketErrors connect, read, write and timeout errors
     */
    public record Counts(long requests, double seconds, long non2xx, long socketErrors) {
    }

    /** wrk's latency percentiles, milliseconds (from the time it sent each request). */
    public record Latency(double p50Millis, double p99Millis, double maxMillis) {
    }

    /** wrk's figures of one run, with the command as run. */
    public record WrkResult(String commandLine, Counts counts, Latency latency) {
        /** @return requests per second, as wrk counts them */
        public double requestsPerSecond() {
            return counts.requests() / counts.seconds();
        }
    }

    private Wrk() {
    }

    /** @return the wrk executable on the PATH, if any */
    public static Optional<Path> find() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "wrk");
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * The book's mix as wrk reads it: the script and the file of order ids it takes its gets and pays from.
     *
     * @param script the Lua script ({@code book-mix.lua})
     * @param ids    the order ids, one a line
     */
    public record Script(Path script, Path ids) {
    }

    /** Writes {@code book-mix.lua} and {@code ids.txt} (the given order ids) into {@code dir}. */
    public static Script writeScript(Path dir, List<String> ids) throws IOException {
        Path script = dir.resolve("book-mix.lua");
        try (InputStream in = Wrk.class.getResourceAsStream("book-mix.lua")) {
            Files.write(script, in.readAllBytes());
        }
        Path idFile = dir.resolve("ids.txt");
        Files.write(idFile, ids);
        return new Script(script, idFile);
    }

    /**
     * The command that runs wrk with the book's mix against {@code base}: {@code -t8} (fewer with fewer connections:
     * wrk needs one per thread), {@code -c<connections>}, whole seconds, {@code --latency --timeout 2s}.
     *
     * @param deadlineMs the {@code X-Deadline-Ms} each request carries
     */
    public static List<String> command(String wrk, URI base, Script script, Duration duration, long deadlineMs,
                                       int connections) {
        int threads = Math.min(8, connections); // wrk needs at least one connection per thread
        return List.of(wrk, "-t" + threads, "-c" + connections, "-d" + Math.max(1, duration.toSeconds()) + "s",
                "--latency", "--timeout", "2s", "-s", script.script().toString(), base.toString(), "--",
                script.ids().toString(), Long.toString(deadlineMs), "7", Integer.toString(threads));
    }

    /**
     * Runs wrk against {@code base} (which must be on 127.0.0.1) for {@code duration}.
     *
     * @param ids         order ids for the script's gets and pays
     * @param deadlineMs  the {@code X-Deadline-Ms} each request carries
     * @param connections wrk's {@code -c}: connections kept open, one request outstanding on each
     */
    public static WrkResult run(Path wrk, URI base, List<String> ids, Duration duration, long deadlineMs, int connections)
            throws IOException, InterruptedException {
        if (!"127.0.0.1".equals(base.getHost())) {
            throw new IllegalArgumentException("wrk loads 127.0.0.1 only, was " + base);
        }
        Path dir = Files.createTempDirectory("archlab-wrk");
        return runProcess(command(wrk.toString(), base, writeScript(dir, ids), duration, deadlineMs, connections), dir,
                duration);
    }

    /**
     * Runs wrk against {@code base}'s {@code GET /noop} (answered 204 by the server, the service never called) for
     * {@code duration}: wrk's own ceiling on this machine with this server, the peer of
     * {@code archlab.run.GeneratorCapacity}. The book's script, told {@code noop}, asks that path only.
     *
     * @param threads wrk's {@code -t}, 1..{@code connections}
     */
    public static WrkResult runNoop(Path wrk, URI base, Duration duration, int connections, int threads)
            throws IOException, InterruptedException {
        if (!"127.0.0.1".equals(base.getHost())) {
            throw new IllegalArgumentException("wrk loads 127.0.0.1 only, was " + base);
        }
        if (threads < 1 || threads > connections) {
            throw new IllegalArgumentException("wrk needs 1 <= threads <= connections, was -t" + threads + " -c" + connections);
        }
        Path dir = Files.createTempDirectory("archlab-wrk");
        Script script = writeScript(dir, List.of());
        return runProcess(List.of(wrk.toString(), "-t" + threads, "-c" + connections,
                "-d" + Math.max(1, duration.toSeconds()) + "s", "--latency", "--timeout", "2s", "-s",
                script.script().toString(), base.toString(), "--", "noop"), dir, duration);
    }

    private static WrkResult runProcess(List<String> cmd, Path dir, Duration duration) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(duration.toSeconds() + 30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("wrk did not finish: " + String.join(" ", cmd));
        }
        String text = new String(out, StandardCharsets.UTF_8);
        return parse(String.join(" ", cmd).replace(dir.toString(), "$TMP"), text);
    }

    /** Reads the script's {@code WRK_JSON} line from wrk's output. */
    static WrkResult parse(String commandLine, String output) {
        String line = output.lines().filter(l -> l.startsWith("WRK_JSON ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("wrk printed no WRK_JSON line; its output:\n" + output));
        JsonNode j;
        try {
            j = new ObjectMapper().readTree(line.substring("WRK_JSON ".length()));
        } catch (IOException e) {
            throw new UncheckedIOException("wrk's WRK_JSON line is not JSON: " + line, e);
        }
        long socketErrors = j.get("errors_connect").asLong() + j.get("errors_read").asLong()
                + j.get("errors_write").asLong() + j.get("errors_timeout").asLong();
        Counts counts = new Counts(j.get("requests").asLong(), j.get("duration_us").asLong() / 1e6, j.get("non_2xx").asLong(),
                socketErrors);
        Latency latency = new Latency(j.get("p50_us").asLong() / 1e3, j.get("p99_us").asLong() / 1e3,
                j.get("max_us").asLong() / 1e3);
        return new WrkResult(commandLine, counts, latency);
    }
}
