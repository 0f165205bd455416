package archlab.ladder;

import archlab.db.ladder.LadderDataSet;
import archlab.db.ladder.SlowStatements;
import archlab.http.wire.WireRun;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ladder's table: {@code ladder.md} for a reader, {@code ladder.json} for the book and the tests. One row per rung,
 * each from its own run: what changed, the answered requests per second, p50/p99/p99.9, the database's share of the
 * mean request, the pool's wait, the plan, and whether the change helped on this machine (its p99 against the rung
 * before: {@link #verdict}). Then the mean request's time split ({@link LadderSegments}), the plans, the 10 ms rule's
 * statements, and the network rungs' reading (Nagle, keep-alive).
 *
 * <p>Thread-safety: stateless.
 */
public final class LadderReport {

    /** A change is called faster (slower) when its p99 is below {@value #FASTER} (above {@value #SLOWER}) × the rung before's. */
    public static final double FASTER = 0.8;
    public static final double SLOWER = 1.25;
    /** The bar for Nagle: the stalled rung's p50 at least this many times TCP_NODELAY's. */
    public static final double NAGLE_FACTOR = 10;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private LadderReport() {
    }

    /** @return the rung's p99 against the previous rung's: "faster", "slower" or "no clear change"; "—" for the first */
    public static String verdict(LadderRun.RungResult previous, LadderRun.RungResult rung) {
        if (previous == null) {
            return "—";
        }
        double ratio = (double) rung.load().latency().p99Micros() / Math.max(1, previous.load().latency().p99Micros());
        String x = String.format(Locale.ROOT, "p99 ×%.2f", ratio);
        return ratio < FASTER ? "faster (" + x + ")" : ratio > SLOWER ? "slower (" + x + ")"
                : "no clear change (" + x + ", within this machine's noise)";
    }

    /**
     * @return the Nagle reading: the last rung with Nagle on beside the first with TCP_NODELAY, both kept alive; empty
     *         when the run had no such pair
     */
    public static java.util.Optional<String> nagle(List<LadderRun.RungResult> results) {
        for (int i = 1; i < results.size(); i++) {
            Rung before = results.get(i - 1).rung();
            Rung after = results.get(i).rung();
            if (!before.network().tcpNoDelay() && after.network().tcpNoDelay() && before.network().keepAlive()) {
                long on = results.get(i - 1).load().latency().p50Micros();
                long off = Math.max(1, results.get(i).load().latency().p50Micros());
                double factor = (double) on / off;
                return java.util.Optional.of(String.format(Locale.ROOT, "Nagle on, answer in two writes: p50 %s; TCP_NODELAY: p50 %s;"
                        + " ×%.1f (%s ×%.0f). The kernel held the body until the client ACKed the headers, and the"
                        + " client, with nothing to send, delayed that ACK (Linux: at least 40 ms).", ms(on), ms(off), factor,
                        factor >= NAGLE_FACTOR ? "at least" : "NOT at least", NAGLE_FACTOR));
            }
        }
        return java.util.Optional.empty();
    }

    /** Writes both files into {@code dir}; returns the Markdown's path. */
    public static Path write(Path dir, LadderDataSet.Built data, LadderSettings settings, List<LadderRun.RungResult> results) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("ladder.json"), JSON.writeValueAsString(json(data, settings, results)));
            Path md = dir.resolve("ladder.md");
            Files.writeString(md, markdown(data, settings, results));
            return md;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the ladder's table into " + dir, e);
        }
    }

    static String markdown(LadderDataSet.Built data, LadderSettings settings, List<LadderRun.RungResult> results) {
        StringBuilder md = new StringBuilder("# The ladder: one change per rung\n\n");
        md.append(String.format(Locale.ROOT, "Data set: %,d orders of %,d customers (%s). Load per rung: %d req/s,"
                        + " %d s warm-up, %d s measured, open loop over HTTP; a pool of %d connections.%n%n",
                data.orders(), data.customers(), data.rebuilt() ? "built in " + data.buildTime().toMillis() + " ms" : "kept from an earlier run",
                settings.rate(), LadderSettings.WARMUP_SECONDS, settings.measure().toSeconds(), LadderRun.POOL_SIZE));
        md.append("| rung | what changed | answered/s | p50 | p99 | p99.9 | DB share | pool wait p99 | plan | against the rung before |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
        LadderRun.RungResult previous = null;
        for (LadderRun.RungResult r : results) {
            WireRun.Requests q = r.load().requests();
            md.append(String.format(Locale.ROOT, "| %s | %s | %.0f%s | %s | %s | %s | %.0f%% | %s | %s | %s |%n",
                    r.rung().name(), r.rung().change(), q.completed() / (double) settings.measure().toSeconds(),
                    q.completed() == q.offered() ? "" : " (" + (q.offered() - q.completed()) + " not answered)",
                    ms(r.load().latency().p50Micros()), ms(r.load().latency().p99Micros()), ms(r.load().latency().p999Micros()),
                    100 * r.segments().databaseShare(), ms((long) r.database().connectionWaitP99Micros()),
                    r.database().plan().nodes().get(r.database().plan().nodes().size() - 1), verdict(previous, r)));
            previous = r;
        }
        md.append("\n## Where the mean request's time went (µs)\n\n");
        md.append("| rung | client mean | network | queue | business | pool wait | database | largest | connections opened |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (LadderRun.RungResult r : results) {
            LadderSegments s = r.segments();
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %d |%n", r.rung().name(),
                    s.clientMeanMicros(), s.networkMicros(), s.queueMicros(), s.businessMicros(), s.connectionWaitMicros(),
                    s.databaseMicros(), s.largest(), r.load().connections().opened()));
        }
        md.append("\n## Plans (EXPLAIN ANALYZE, BUFFERS of customer ").append(LadderRun.EXPLAINED_CUSTOMER)
                .append("'s ").append(LadderRun.EXPLAINED_MONTH).append(", after the rung's run)\n\n");
        for (LadderRun.RungResult r : results) {
            md.append("- **").append(r.rung().name()).append("**: ").append(r.database().plan().line()).append('\n');
        }
        md.append("\n## The 10 ms rule: the rung's slowest statements (pg_stat_statements; auto_explain logged each over ")
                .append(SlowStatements.RULE_MILLIS).append(" ms to the server's log)\n\n");
        for (LadderRun.RungResult r : results) {
            md.append("- **").append(r.rung().name()).append("**: ");
            if (r.database().statementsMissing().isPresent()) {
                md.append("not read: ").append(r.database().statementsMissing().get()).append('\n');
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (SlowStatements.Slow s : r.database().slowest()) {
                parts.add(String.format(Locale.ROOT, "`%s` calls=%d mean=%.3fms max=%.3fms%s", s.query(), s.calls(),
                        s.meanMillis(), s.maxMillis(), s.overRule() ? " **over 10 ms: EXPLAIN it**" : ""));
            }
            md.append(String.join("; ", parts)).append('\n');
        }
        md.append("\n## The network rungs\n\n");
        nagle(results).ifPresent(line -> md.append("- ").append(line).append('\n'));
        md.append("- Keep-alive: a rung without it opens a connection per request (see connections opened); on loopback a"
                + " handshake costs microseconds, not the article's cross-machine milliseconds.\n");
        return md.toString();
    }

    static Map<String, Object> json(LadderDataSet.Built data, LadderSettings settings, List<LadderRun.RungResult> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("orders", data.orders());
        root.put("customers", data.customers());
        root.put("rate", settings.rate());
        root.put("measured_seconds", settings.measure().toSeconds());
        List<Map<String, Object>> rows = new ArrayList<>();
        LadderRun.RungResult previous = null;
        for (LadderRun.RungResult r : results) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("rung", r.rung().name());
            row.put("change", r.rung().change());
            row.put("offered", r.load().requests().offered());
            row.put("completed", r.load().requests().completed());
            row.put("p50_us", r.load().latency().p50Micros());
            row.put("p99_us", r.load().latency().p99Micros());
            row.put("p999_us", r.load().latency().p999Micros());
            row.put("mean_us", r.load().latency().meanMicros());
            row.put("database_share", r.segments().databaseShare());
            row.put("segments_us", r.segments());
            row.put("connection_wait_p99_us", r.database().connectionWaitP99Micros());
            row.put("database_p99_us", r.database().databaseP99Micros());
            row.put("connections_opened", r.load().connections().opened());
            row.put("plan", r.database().plan());
            row.put("plan_index_only", r.database().plan().indexOnly());
            row.put("slowest", r.database().slowest());
            row.put("commit_probe", r.database().commitProbe());
            row.put("verdict", verdict(previous, r));
            rows.add(row);
            previous = r;
        }
        root.put("rungs", rows);
        nagle(results).ifPresent(line -> root.put("nagle", line));
        return root;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f ms", micros / 1_000.0);
    }
}
