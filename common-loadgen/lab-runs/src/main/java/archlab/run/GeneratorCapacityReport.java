package archlab.run;

import static archlab.run.GeneratorCapacity.BUSY_BEFORE_PERCENT;
import static archlab.run.GeneratorCapacity.IDLE_SAMPLE;
import static archlab.run.GeneratorCapacity.LAST_RATE;
import static archlab.run.GeneratorCapacity.PROBE;
import static archlab.run.GeneratorCapacity.SEND_LAG_BOUND;
import static archlab.run.GeneratorCapacity.TIMEOUT;
import static archlab.run.GeneratorCapacity.WRK_CONNECTIONS;
import static archlab.run.GeneratorCapacity.WRK_THREADS;

import archlab.http.Wrk;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Writes what a {@link GeneratorCapacity} run measured: {@code generator-vs-wrk.md} (one table per generator, then the
 * capacities, wrk's maximum and the ratio) and {@code generator-vs-wrk.json} (the same figures, for the book).
 *
 * <p>Stateless; thread-safe.
 */
final class GeneratorCapacityReport {

    private GeneratorCapacityReport() {
    }

    static void write(GeneratorCapacity.CapacityResult result, Path reportsDir) throws IOException {
        Files.createDirectories(reportsDir);
        StringBuilder b = new StringBuilder("# The generator against the peer: GET /noop on one server (Tomcat, 204, no service)\n\n")
                .append("CPU before the probes (").append(IDLE_SAMPLE.toMillis()).append(" ms, nothing of this run going on): ")
                .append(result.before().text()).append(result.busyBefore()
                        ? String.format(Locale.ROOT, " — other processes kept over %.0f %% of the cores busy before this run"
                        + " began, so the figures below are this moment's, not the machine's (not judged; run it again on a"
                        + " quiet machine)", BUSY_BEFORE_PERCENT) : "").append("\n");
        for (GeneratorCapacity.Series s : new GeneratorCapacity.Series[] {result.eventLoops(), result.threadPerRequest()}) {
            table(b, s);
        }
        b.append('\n');
        capacity(b, "generator_capacity", result.eventLoops());
        capacity(b, "thread_per_request_capacity", result.threadPerRequest());
        result.wrk().ifPresentOrElse(w -> b.append(String.format(Locale.ROOT,
                "wrk_max=%.0f req/s (closed loop, -t%d -c%d, %d answers, %d non-2xx, %d socket errors; p99 %.2f ms; CPU %s) `%s`%n",
                w.requestsPerSecond(), WRK_THREADS, WRK_CONNECTIONS, w.counts().requests(), w.counts().non2xx(),
                w.counts().socketErrors(), w.latency().p99Millis(), result.wrkCpu().text(), w.commandLine())),
                () -> b.append("wrk_max=n/a (wrk not installed: ").append(Wrk.INSTALL).append(")\n"));
        result.ratio().ifPresent(r -> b.append(String.format(Locale.ROOT, "ratio generator/wrk=%.2f%s%n", r,
                result.busyBefore() ? " (not judged: the machine was busy before the run)" : "")));
        b.append("\nWhat limits each: an open loop is held to a schedule, so it fails at the first rate where it cannot"
                + " start a request on time — its own CPU, a stall of the JVM it shares with the server (the GC column), or"
                + " the cores the server needs; wrk keeps 64 requests outstanding and sends the next when an answer comes,"
                + " so it cannot fall behind, and its figure is what the server and the cores let through. The thread-per-"
                + "request generator pays a thread, a request builder and the JDK client's own threads per request; the"
                + " event loops pay a buffer copy and the kernel's send and receive (their CPU and bytes per request are"
                + " measured on their threads). The CPU column says whether the cores were full: a probe near 100 % is"
                + " limited by the machine, not by the tool.\n");
        Files.writeString(result.markdown(), b.toString());
        Map<String, Object> json = new LinkedHashMap<>();
        // which machine and Maven session wrote it: the book copies one session's reports only
        json.put("environment", archlab.report.Environment.current());
        json.put("cpuBefore", result.before());
        json.put("busyBefore", result.busyBefore());
        json.put("generatorClient", result.eventLoops().client());
        json.put("probes", result.eventLoops().probes());
        json.put("generatorCapacityPerSecond", result.eventLoops().capacity());
        json.put("threadPerRequestClient", result.threadPerRequest().client());
        json.put("threadPerRequestProbes", result.threadPerRequest().probes());
        json.put("threadPerRequestCapacityPerSecond", result.threadPerRequest().capacity());
        json.put("wrkRequestsPerSecond", result.wrk().map(w -> Math.round(w.requestsPerSecond())).orElse(null));
        json.put("wrkCommand", result.wrk().map(Wrk.WrkResult::commandLine).orElse(null));
        json.put("wrkCpu", result.wrkCpu());
        json.put("ratio", result.ratio().map(r -> Math.round(r * 100) / 100.0).orElse(null));
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(reportsDir.resolve("generator-vs-wrk.json").toFile(), json);
    }

    private static void table(StringBuilder b, GeneratorCapacity.Series s) {
        b.append("\n## ").append(s.name()).append(": ").append(s.client()).append("\n\n")
                .append("| rate (req/s) | offered | started | answered | send lag p99 | latency p99 | CPU | GC pauses | generator | verdict |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (GeneratorCapacity.Probe p : s.probes()) {
            b.append(String.format(Locale.ROOT, "| %d | %d | %d | %d | %.2f ms | %.2f ms | %s | %d ms | %s | %s |%n",
                    p.ratePerSecond(), p.requests().offered(), p.requests().started(), p.requests().completed(),
                    p.p99().sendLagMicros() / 1e3, p.p99().latencyMicros() / 1e3, p.spent().cpu().text(),
                    p.spent().gcPauseMillis(), p.spent().generator() == null ? "n/a" : p.spent().generator().text(), p.why()));
        }
    }

    private static void capacity(StringBuilder b, String key, GeneratorCapacity.Series s) {
        b.append(String.format(Locale.ROOT, "%s=%d req/s (%s; open loop, %d ms probes, the highest rate at which every"
                + " request started, send lag p99 < %d ms and every answer came within %d ms%s)%n", key, s.capacity(),
                s.client(), PROBE.toMillis(), SEND_LAG_BOUND.toMillis(), TIMEOUT.toMillis(),
                s.capacity() >= LAST_RATE ? "; the last rate probed held: at least this" : ""));
    }
}
