package archlab.fleet;

import archlab.report.Environment;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A fleet's report: {@code instances.txt} (each variant's line), {@code instances.md} (two tables — the pay limit, and
 * the first level's invalidation — one row per variant) and {@code instances.json} beside them.
 *
 * <p>Stateless.
 */
public final class FleetReport {

    private FleetReport() {
    }

    /** @return the two Markdown tables */
    public static List<String> tables(List<FleetRun.Row> rows) {
        List<String> md = new ArrayList<>();
        FleetRun.Row first = rows.get(0);
        md.add(String.format(Locale.ROOT, "Pay limit: %d instances, %d pays/s offered for %.0f s, provider quota %d charges/s"
                        + " (bursts of %d), each bucket the quota", first.settings().instances(), first.settings().flood().paysPerSecond(),
                first.settings().flood().duration().toMillis() / 1000.0, first.settings().quota().chargesPerSecond(),
                first.settings().quota().burst()));
        md.add("");
        md.add("| pay bucket | offered pays/s | admitted pays/s | refused by the buckets (429) | provider charged/s | provider refused over quota | paid |");
        md.add("|---|---|---|---|---|---|---|");
        for (FleetRun.Row r : rows) {
            md.add(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %d | %.1f | %d | %d |", bucketName(r), r.offeredPerSecond(),
                    r.admittedPerSecond(), r.flood().limited(), r.chargedPerSecond(), r.provider().refusedOverQuota(), r.flood().paid()));
        }
        md.add("");
        for (FleetRun.Row r : rows) {
            failureLines(r).forEach(line -> md.add("- " + line));
        }
        md.add("");
        md.add(String.format(Locale.ROOT, "Reads after writes: %d clients for %.0f s; each order created and paid on one"
                        + " instance, read on the other %s after the pay's 200", first.settings().reads().clients(),
                first.settings().reads().duration().toMillis() / 1000.0, first.settings().reads().delays().stream()
                        .map(d -> d.toMillis() + " ms").toList()));
        md.add("");
        md.add("| L1 invalidation | orders | reads after the pay | stale | last stale read, ms after the pay's 200 | not found after the create |");
        md.add("|---|---|---|---|---|---|");
        for (FleetRun.Row r : rows) {
            FleetLoad.StaleReads rd = r.reads();
            md.add(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f | %d |", r.variant().invalidation() == FleetRun.Invalidation.LOCAL
                    ? "local only" : "broadcast (pub/sub)", rd.orders(), rd.readsAfterPay(), rd.staleAfterPay(),
                    rd.lastStaleMillis(), rd.notFoundAfterCreate()));
        }
        md.add("");
        md.add(String.format(Locale.ROOT, "Redis paused (CLIENT PAUSE, the whole server) for %.1f s; during the first %.0f s,"
                        + " %d reads/s of existing orders (half of them read by every instance just before: warm) and %d pays/s"
                        + " (under the quota) over the instances; each Redis command's budget is %d ms",
                first.stall().paused().toMillis() / 1000.0, first.settings().pause().duration().toMillis() / 1000.0,
                first.settings().pause().readsPerSecond(), first.settings().pause().paysPerSecond(),
                archlab.redis.LabRedis.DEFAULT_TIMEOUT.toMillis()));
        md.add("");
        md.add("| pay bucket | reads answered | warm read p50 ms | cold read p50 / max ms | pays | paid | refused by the bucket (429) | failed |");
        md.add("|---|---|---|---|---|---|---|---|");
        for (FleetRun.Row r : rows) {
            RedisStall.Stall st = r.stall();
            md.add(String.format(Locale.ROOT, "| %s | %d of %d | %.3f | %.1f / %.1f | %d | %d | %d | %d |", bucketName(r),
                    st.reads().answered(), st.reads().sent(), st.warmReads().p50Micros() / 1000.0,
                    st.coldReads().p50Micros() / 1000.0, st.coldReads().maxMicros() / 1000.0, st.pays().offered(),
                    st.pays().paid(), st.pays().limited(), st.pays().failed() + st.pays().unanswered()));
        }
        return md;
    }

    /** @return one line per failing status of the row's flood: how many, and the first message */
    static List<String> failureLines(FleetRun.Row r) {
        FleetLoad.Failures f = r.flood().failures();
        return f.byStatus().entrySet().stream().map(e -> String.format(Locale.ROOT, "%s, failed %d: %d pays, the first \"%s\"",
                bucketName(r), e.getKey(), e.getValue(), f.examples().getOrDefault(e.getKey(), ""))).toList();
    }

    private static String bucketName(FleetRun.Row r) {
        return r.variant().payBucket() == FleetRun.PayBucket.PER_INSTANCE ? "one per instance" : "one shared (Redis)";
    }

    /** Writes {@code instances.txt}, {@code .md} and {@code .json} into {@code dir}. */
    public static void write(Path dir, List<FleetRun.Row> rows) throws IOException {
        Files.createDirectories(dir);
        List<String> txt = new ArrayList<>();
        for (FleetRun.Row r : rows) {
            txt.add(r.line());
            failureLines(r).forEach(line -> txt.add("fleet failures " + line));
        }
        Files.write(dir.resolve("instances.txt"), txt);
        Files.write(dir.resolve("instances.md"), tables(rows));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("environment", Environment.current());
        json.put("rows", rows.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("variant", r.variant().name());
            m.put("instances", r.settings().instances());
            m.put("invalidation", r.variant().invalidation().name().toLowerCase(Locale.ROOT));
            m.put("pay_bucket", r.variant().payBucket().name().toLowerCase(Locale.ROOT));
            m.put("quota_per_s", r.settings().quota().chargesPerSecond());
            m.put("quota_burst", r.settings().quota().burst());
            m.put("offered", r.flood().offered());
            m.put("offered_per_s", r.offeredPerSecond());
            m.put("admitted", r.flood().admitted());
            m.put("admitted_per_s", r.admittedPerSecond());
            m.put("limited", r.flood().limited());
            m.put("paid", r.flood().paid());
            m.put("failed", r.flood().failed());
            m.put("failed_by_status", r.flood().failures().byStatus());
            m.put("failure_examples", r.flood().failures().examples());
            m.put("failed_deadline", r.flood().failures().byStatus().getOrDefault(504, 0L));
            m.put("unanswered", r.flood().unanswered());
            m.put("provider_charged", r.provider().charged());
            m.put("provider_charged_per_s", r.chargedPerSecond());
            m.put("provider_refused", r.provider().refusedOverQuota());
            FleetLoad.StaleReads rd = r.reads();
            m.put("read_orders", rd.orders());
            m.put("reads_after_pay", rd.readsAfterPay());
            m.put("stale_after_pay", rd.staleAfterPay());
            m.put("stale_rate", rd.staleRate());
            m.put("last_stale_ms", rd.lastStaleMillis());
            m.put("not_found_after_create", rd.notFoundAfterCreate());
            m.put("read_unanswered", rd.skipped().unanswered());
            m.put("read_pays_refused", rd.skipped().paysRefused());
            RedisStall.Stall st = r.stall();
            m.put("redis_paused_ms", st.paused().toMillis());
            m.put("stall_reads", st.reads().sent());
            m.put("stall_reads_ok", st.reads().answered());
            m.put("stall_warm_read_p50_ms", st.warmReads().p50Micros() / 1000.0);
            m.put("stall_warm_read_max_ms", st.warmReads().maxMicros() / 1000.0);
            m.put("stall_cold_read_p50_ms", st.coldReads().p50Micros() / 1000.0);
            m.put("stall_cold_read_max_ms", st.coldReads().maxMicros() / 1000.0);
            m.put("stall_pays", st.pays().offered());
            m.put("stall_paid", st.pays().paid());
            m.put("stall_pays_limited", st.pays().limited());
            m.put("stall_pays_failed", st.pays().failed() + st.pays().unanswered());
            return m;
        }).toList());
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(dir.resolve("instances.json").toFile(), json);
    }
}
