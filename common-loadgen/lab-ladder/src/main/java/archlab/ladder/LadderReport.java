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
 * mean request, the pool's wait, the plan, and whether the change helped on this machine (its p50 against the rung
 * before: {@link #verdict}). Then the mean request's time split ({@link LadderSegments}), the plans, the 10 ms rule's
 * statements, and the network rungs' reading (Nagle, keep-alive).
 *
 * <p>Thread-safety: stateless.
 */
public final class LadderReport {

    /** A change is called faster when its p50 is below this many times the rung before's. */
    public static final double FASTER = 0.8;
    /** A change is called slower when its p50 is above this many times the rung before's. */
    public static final double SLOWER = 1.25;
    /** The keep-alive aside's row label. */
    public static final String ASIDE_LABEL = "aside: no keep-alive";
    /** The bar for Nagle: the stalled rung's p50 at least this many times TCP_NODELAY's. */
    public static final double NAGLE_FACTOR = 10;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private LadderReport() {
    }

    /**
     * @return the rung against the rung before: "faster" when its p50 fell below {@value #FASTER} × the one before's,
     *         "slower" past {@value #SLOWER} ×, otherwise "no clear change"; both ratios printed; "—" for the first. The
     *         p50, because one run's p99 on a shared two-core machine moves two to three times between runs of the same
     *         code: a single p99 against another is shown, not judged.
     */
    public static String verdict(LadderRun.RungResult previous, LadderRun.RungResult rung) {
        if (previous == null) {
            return "—";
        }
        double p50 = (double) rung.load().latency().p50Micros() / Math.max(1, previous.load().latency().p50Micros());
        double p99 = (double) rung.load().latency().p99Micros() / Math.max(1, previous.load().latency().p99Micros());
        String x = "p50 " + times(p50) + ", p99 " + times(p99);
        return p50 < FASTER ? "faster (" + x + ")" : p50 > SLOWER ? "slower (" + x + ")"
                : "no clear change (" + x + ")";
    }

    private static String times(double ratio) {
        return String.format(Locale.ROOT, ratio < 0.1 ? "×%.3f" : "×%.2f", ratio);
    }

    /**
     * @return the Nagle reading: the last rung with Nagle on beside the first with TCP_NODELAY, both kept alive; empty
     *         when the run had no such pair
     */
    public static java.util.Optional<String> nagle(List<LadderRun.RungResult> results) {
        return naglePair(results).map(i -> {
            long on = results.get(i - 1).load().latency().p50Micros();
            long off = results.get(i).load().latency().p50Micros();
            double factor = (double) on / Math.max(1, off);
            String head = String.format(Locale.ROOT, "Nagle on, answer in two writes: p50 %s; TCP_NODELAY: p50 %s; ×%.1f (%s ×%.0f).",
                    ms(on), ms(off), factor, factor >= NAGLE_FACTOR ? "at least" : "NOT at least", NAGLE_FACTOR);
            return head + (factor >= NAGLE_FACTOR
                    ? " The kernel held the body until the client ACKed the headers, and the client, with nothing to send,"
                            + " delayed that ACK (Linux: at least 40 ms)."
                    : " The stall did not show on this machine: its kernel acknowledged the headers at once (quick ACKs) or"
                            + " the rung's own time hid it; compare the network segments of the two rungs.");
        });
    }

    /** @return the stalled p50 over TCP_NODELAY's, from the pair {@link #nagle} reads; empty without one */
    public static java.util.Optional<Double> nagleFactor(List<LadderRun.RungResult> results) {
        return naglePair(results).map(i -> (double) results.get(i - 1).load().latency().p50Micros()
                / Math.max(1, results.get(i).load().latency().p50Micros()));
    }

    /** @return the index of the first rung that turned TCP_NODELAY on over kept connections; empty when none did */
    private static java.util.Optional<Integer> naglePair(List<LadderRun.RungResult> results) {
        for (int i = 1; i < results.size(); i++) {
            Rung.Network before = results.get(i - 1).rung().network();
            Rung.Network after = results.get(i).rung().network();
            if (!before.tcpNoDelay() && after.tcpNoDelay() && before.keepAlive()) {
                return java.util.Optional.of(i);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Writes both files into {@code dir}; returns the Markdown's path.
     *
     * @param aside      the keep-alive aside, when it ran
     * @param collectors a rung under each collector and heap size, when they ran (else empty)
     */
    public static Path write(Path dir, LadderDataSet.Built data, LadderSettings settings, List<LadderRun.RungResult> results,
                             java.util.Optional<LadderRun.RungResult> aside, List<archlab.ladder.gc.CollectorRuns.Result> collectors) {
        try {
            Files.createDirectories(dir);
            Map<String, Object> json = json(data, settings, results);
            aside.ifPresent(a -> json.put("keep_alive_aside", row(null, a, settings)));
            json.put("collectors", GcReport.json(collectors));
            Files.writeString(dir.resolve("ladder.json"), JSON.writeValueAsString(json));
            Path md = dir.resolve("ladder.md");
            Files.writeString(md, markdown(data, settings, results) + GcReport.markdown(results, collectors)
                    + aside.map(a -> keepAliveAlone(results, a)).orElse(""));
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
                    r.database().plan().headline(), verdict(previous, r)));
            previous = r;
        }
        md.append("\n## Where the mean request's time went (µs)\n\n");
        md.append("| rung (µs) | client mean | network | queue | business | pool wait | database | largest | connections opened"
                + " | socket events per request | threads busy max |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        for (LadderRun.RungResult r : results) {
            md.append(splitRow(r));
        }
        for (LadderRun.RungResult r : results) {
            if (r.server().answered() != r.load().requests().completed()) {
                md.append(String.format(Locale.ROOT, "%n%s: the client counted %d answered in time, the server %d answered:"
                                + " the split mixes the client's mean over every request with the server's over its own.%n",
                        r.rung().name(), r.load().requests().completed(), r.server().answered()));
            }
        }
        if (results.stream().anyMatch(r -> r.server().kernel().isPresent())) {
            md.append("\n## What the kernel's TCP stack counted (the measured phase; machine-wide counters)\n\n");
            md.append("| rung (kernel) | connections accepted | accept-queue overflows | listen drops | delayed ACKs sent | retransmitted segments |\n");
            md.append("|---|---:|---:|---:|---:|---:|\n");
            for (LadderRun.RungResult r : results) {
                r.server().kernel().ifPresent(k -> md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d |%n",
                        r.rung().name(), k.passiveOpens(), k.listenOverflows(), k.listenDrops(), k.delayedAcks(), k.retransmits())));
            }
            md.append("\nDelayed ACKs are the ACKs the kernel held back and sent when its timer fired (at least 40 ms on Linux):"
                    + " with Nagle on and connections kept, about one per request — the client's ACK of the headers, which"
                    + " the body waited for.\n");
        }
        if (results.stream().anyMatch(r -> r.business().split().requests() > 0)) {
            md.append(BusinessReport.markdown(results));
            md.append(MonitoringReport.markdown(results));
        }
        md.append("\n## Plans (EXPLAIN ANALYZE, BUFFERS of customer ").append(LadderRun.EXPLAINED_CUSTOMER)
                .append("'s ").append(LadderRun.EXPLAINED_MONTH).append(", after the rung's run)\n\n");
        for (LadderRun.RungResult r : results) {
            md.append("- **").append(r.rung().name()).append("**: ").append(r.database().plan().line()).append('\n');
        }
        md.append("\n## The 10 ms rule: the rung's slowest statements (pg_stat_statements over the measured phase)\n\n");
        for (LadderRun.RungResult r : results) {
            md.append("* **").append(r.rung().name()).append("**: ");
            LadderRun.Statements st = r.database().statements();
            if (st.missing().isPresent()) {
                md.append("not read: ").append(st.missing().get()).append('\n');
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (SlowStatements.Slow s : st.slowest()) {
                parts.add(String.format(Locale.ROOT, "`%s` calls=%d mean=%.3fms max=%.3fms%s", s.query(), s.calls(),
                        s.meanMillis(), s.maxMillis(), s.overRule() ? " **over 10 ms: EXPLAIN it**" : ""));
            }
            md.append(String.join("; ", parts)).append(st.autoExplain().map(t -> "; auto_explain (over " + t + "): "
                    + st.logged().map(LadderReport::logged).orElse("its log was not found (a server the script did not start)"))
                    .orElse("; auto_explain is off on this server")).append('\n');
        }
        md.append("\nThe plans above are EXPLAIN ANALYZE's custom plan for one busy customer's month; the load's prepared"
                + " statements may run PostgreSQL's generic plan after their fifth execution (auto_explain's log shows"
                + " which ran).\n");
        md.append("\n## The network rungs\n\n");
        nagle(results).ifPresent(line -> md.append("- ").append(line).append('\n'));
        md.append("- Keep-alive: a rung without it opens a connection per request (connections opened, above); what that"
                + " costs alone is the aside below, when the whole ladder ran.\n");
        return md.toString();
    }

    private static String logged(AutoExplainLog.Entries e) {
        String count = e.count() + " plans of the interface's statements logged" + (e.truncated() ? " (the log's first 8 MiB read)" : "");
        return e.slowest().map(s -> String.format(Locale.ROOT, "%s, the slowest %.1f ms: `%s` → `%s`", count,
                s.durationMillis(), s.queryText(), String.join(" / ", s.planLines()))).orElse(count);
    }

    private static String splitRow(LadderRun.RungResult r) {
        return splitRow(r.rung().name(), r);
    }

    private static String splitRow(String label, LadderRun.RungResult r) {
        LadderSegments s = r.segments();
        return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %d | %.2f | %d |%n", label,
                s.clientMeanMicros(), s.networkMicros(), s.queueMicros(), s.businessMicros(), s.connectionWaitMicros(),
                s.databaseMicros(), s.largest(), r.load().connections().opened(), r.server().socketEventsPerRequest(),
                r.server().threadsBusyMax());
    }

    /** The aside: the ladder's last rung beside the same with keep-alive off, what a connection per request costs alone. */
    static String keepAliveAlone(List<LadderRun.RungResult> results, LadderRun.RungResult aside) {
        LadderRun.RungResult last = results.get(results.size() - 1);
        StringBuilder md = new StringBuilder("\n## Keep-alive alone (an aside, not a rung)\n\n");
        md.append("The ladder's last rung, and the same again with ").append(aside.rung().change())
                .append(": on the ladder, turning keep-alive on also uncovered Nagle's stall; here it is the only difference.\n\n");
        md.append("| setup (µs) | client mean | network | queue | business | pool wait | database | largest | connections opened"
                + " | socket events per request | threads busy max |\n");
        md.append("|:---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        // labelled apart from the ladder's rows ("the last rung: …", "aside: …"), so a reader of the split table never takes
        // the aside for a rung
        md.append(splitRow("the last rung: " + last.rung().name(), last)).append(splitRow(ASIDE_LABEL, aside));
        md.append(String.format(Locale.ROOT, "%nA connection per request: p50 %s against %s, p99 %s against %s; the network segment"
                        + " %+.0f µs per request.%n", ms(aside.load().latency().p50Micros()), ms(last.load().latency().p50Micros()),
                ms(aside.load().latency().p99Micros()), ms(last.load().latency().p99Micros()),
                aside.segments().networkMicros() - last.segments().networkMicros()));
        return md.toString();
    }

    static Map<String, Object> json(LadderDataSet.Built data, LadderSettings settings, List<LadderRun.RungResult> results) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("session", System.getProperty("archlab.session", "adhoc"));
        root.put("orders", data.orders());
        root.put("busy_customer_orders", data.ordersPerBusyCustomer());
        root.put("customers", data.customers());
        root.put("rate", settings.rate());
        root.put("measured_seconds", settings.measure().toSeconds());
        List<Map<String, Object>> rows = new ArrayList<>();
        LadderRun.RungResult previous = null;
        for (LadderRun.RungResult r : results) {
            rows.add(row(previous, r, settings));
            previous = r;
        }
        root.put("rungs", rows);
        nagle(results).ifPresent(line -> root.put("nagle", line));
        nagleFactor(results).ifPresent(f -> root.put("nagle_factor", f));
        return root;
    }

    private static Map<String, Object> row(LadderRun.RungResult previous, LadderRun.RungResult r, LadderSettings settings) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("rung", r.rung().name());
        row.put("change", r.rung().change());
        row.put("offered", r.load().requests().offered());
        row.put("completed", r.load().requests().completed());
        row.put("p50_us", r.load().latency().p50Micros());
        row.put("p99_us", r.load().latency().p99Micros());
        row.put("p999_us", r.load().latency().p999Micros());
        row.put("mean_us", r.load().latency().meanMicros());
        row.put("p50_ms", r.load().latency().p50Micros() / 1_000.0);
        row.put("p99_ms", r.load().latency().p99Micros() / 1_000.0);
        row.put("p999_ms", r.load().latency().p999Micros() / 1_000.0);
        row.put("answered_per_second", r.load().requests().completed() / (double) settings.measure().toSeconds());
        row.put("database_share", r.segments().databaseShare());
        row.put("database_percent", 100 * r.segments().databaseShare());
        row.put("segments_us", r.segments());
        row.put("connection_wait_p99_us", r.database().connectionWaitP99Micros());
        row.put("database_p99_us", r.database().databaseP99Micros());
        row.put("connections_opened", r.load().connections().opened());
        row.put("plan", r.database().plan());
        row.put("plan_index_only", r.database().plan().indexOnly());
        row.put("index_only_scans", r.database().plan().indexOnly() ? 1 : 0);
        row.put("slowest_over_rule", r.database().slowest().stream().filter(SlowStatements.Slow::overRule).count());
        row.put("slowest", r.database().slowest());
        row.put("statements_missing", r.database().statements().missing().orElse(""));
        row.put("auto_explain", r.database().statements().autoExplain().orElse("off"));
        r.database().statements().logged().ifPresent(l -> {
            row.put("auto_explain_logged", l.count());
            l.slowest().ifPresent(e -> row.put("auto_explain_slowest", e));
        });
        row.put("commit_probe", r.database().commitProbe());
        row.put("verdict", verdict(previous, r));
        row.put("threads_busy_max", r.server().threadsBusyMax());
        row.put("socket_events_per_request", r.server().socketEventsPerRequest());
        row.put("plan_headline", r.database().plan().headline());
        row.put("sorts", r.database().plan().sortMethod().isEmpty() ? 0 : 1);
        row.put("server_answered", r.server().answered());
        r.server().kernel().ifPresent(k -> row.put("kernel_tcp", k));
        r.database().statements().stamp().ifPresent(st -> row.put("stamp_mean_ms", st.meanMillis()));
        row.put("business", BusinessReport.json(r));
        row.put("monitoring", MonitoringReport.json(r));
        row.put("gc", GcReport.json(r.server().gc(), r.load().latency().p50Micros(), r.load().latency().p99Micros()));
        return row;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f ms", micros / 1_000.0);
    }
}
