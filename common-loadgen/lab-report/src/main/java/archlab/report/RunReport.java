package archlab.report;

import archlab.downstream.DownstreamCounts;
import archlab.loadgen.LatencySummary;
import archlab.loadgen.LoadSpec;
import archlab.loadgen.RunResult;
import archlab.loadgen.RunResult.OperationResult;
import archlab.timeline.HiccupSummary;
import archlab.timeline.IntervalLog;
import archlab.trace.SegmentTable.SegmentRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Everything one load run of one module says, in the order a reader needs it: first the book's two
 * lines in the book's exact shape (so they can be laid next to the book's), then the lab's own lines,
 * "where the time went", and the profiles. Built by {@link #builder()}.
 *
 * @param module     e.g. "ch12-1-baseline"
 * @param name       the run's name, also the report's file name, e.g. "baseline"
 * @param environment JDK, cores, OS, time
 * @param run        the runner's figures
 * @param downstream calls that reached each stub
 * @param money      the ledger's evidence
 * @param extra      chapter-specific figures
 * @param profile    profile tables, or null when not profiled
 * @param spread     run-to-run spread when the load was repeated, or null for a single run
 * @param jitWarmUp  the JVM's JIT warm-up ({@code archlab.run.JitWarmUp}): just before this run or earlier; null when none ran
 */
public record RunReport(
        String module,
        String name,
        Environment environment,
        RunResult run,
        DownstreamCounts downstream,
        MoneyEvidence money,
        List<ReportLine> extra,
        ProfileSection profile,
        Spread spread,
        WarmUp jitWarmUp) {

    public RunReport {
        extra = extra == null ? List.of() : List.copyOf(extra);
    }

    /** The book's first line: {@code offered=4500 started=4500 completed=… timed_out=… wall=3.198s}. */
    public String bookLine1() {
        return String.format(Locale.ROOT, "offered=%d started=%d completed=%d timed_out=%d wall=%.3fs",
                run.offered(), run.started(), run.completed(), run.timedOut(), run.wallNanos() / 1e9);
    }

    /** The book's second line: {@code rps_completed=… p50=…ms p99=…ms p999=…ms downstream inventory=… payment=… notify=…}. */
    public String bookLine2() {
        LatencySummary l = run.latency();
        return String.format(Locale.ROOT,
                "rps_completed=%.2f p50=%dms p99=%dms p999=%dms downstream inventory=%d payment=%d notify=%d",
                run.completedPerSecond(), l.bookP50Millis(), l.bookP99Millis(), l.bookP999Millis(),
                downstream.inventoryCalls(), downstream.paymentCalls(), downstream.notifyCalls());
    }

    /** The extra line naming how the runner reached the service; {@link #text()} shows it under the book's two lines. */
    public static final String TRANSPORT_LINE = "transport";

    /** @return the whole human-readable report */
    public String text() {
        List<String> out = new ArrayList<>();
        out.add("=== " + module + " / " + name + " ===");
        out.add(bookLine1());
        out.add(bookLine2());
        extra.stream().filter(l -> l.name().equals(TRANSPORT_LINE)).forEach(l -> out.add(l.name() + "=" + format(l.value())));
        out.add("");
        out.add("--- lab lines ---");
        out.addAll(labLines());
        out.add("");
        out.addAll(segmentLines());
        if (profile != null) {
            out.add("");
            out.addAll(profile.text());
        }
        return String.join("\n", out) + "\n";
    }

    /** @return a builder with no extra figures, no profile, no spread and no JIT warm-up */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding every part of this report, to build a copy that differs in some */
    public Builder toBuilder() {
        return new Builder().module(module).name(name).environment(environment).run(run).downstream(downstream)
                .money(money).extra(extra).profile(profile).spread(spread).jitWarmUp(jitWarmUp);
    }

    /** @return this report with the spread of repeated runs added */
    public RunReport withSpread(Spread s) {
        return toBuilder().spread(s).build();
    }

    /** The lab's own lines: outcomes, precise percentiles, send lag, money, settings. */
    public List<String> labLines() {
        List<String> out = new ArrayList<>();
        RunResult r = run;
        out.add(String.format(Locale.ROOT, "failed=%d rejected=%d pool_exhausted=%d not_started=%d unfinished=%d",
                r.failed(), r.rejected(), r.poolExhausted(), r.notStarted(), r.unfinished()));
        out.add("latency " + hdr(r.latency()) + String.format(Locale.ROOT, " max_overrun_past_deadline=%.3fms",
                r.maxOverrunNanos() / 1e6));
        for (OperationResult op : r.operations().values()) {
            out.add(String.format(Locale.ROOT,
                    "op=%-6s offered=%d completed=%d timed_out=%d failed=%d rejected=%d pool_exhausted=%d book_p50=%dms book_p99=%dms %s",
                    op.operation(), op.offered(), op.completed(), op.timedOut(), op.failed(), op.rejected(),
                    op.poolExhausted(), op.latency().bookP50Millis(), op.latency().bookP99Millis(), hdr(op.latency())));
        }
        out.add(String.format(Locale.ROOT, "send_lag p50=%dus p99=%dus max=%.0fus (how late the generator started requests against their plan)",
                r.sendLag().p50Micros(), r.sendLag().p99Micros(), r.sendLag().maxMicros()));
        out.add(hiccupLine(r.hiccups()));
        out.add(r.timeline().line(name + IntervalLog.SUFFIX));
        if (r.spec().retries().retries()) {
            out.add(String.format(Locale.ROOT, "clients retry %s attempts=%d planned=%d amplification=%.2f abandoned=%d retries_denied=%d still_running=%d",
                    r.spec().retries().describe(), r.attempts(), r.offered(), r.amplification(), r.abandoned(), r.retriesDenied(),
                    r.attemptsStillRunning()));
        }
        if (downstream.paymentPool() != null) {
            out.add(downstream.paymentPool().reportLine("payment"));
        }
        if (!r.failureCauses().isEmpty()) {
            out.add("failure_causes " + r.failureCauses().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
        }
        out.add(String.format(Locale.ROOT, "money charges=%d distinct_orders_charged=%d paid_orders=%d charged_not_paid=%d double_charges=%d",
                money.charges(), money.distinctOrdersCharged(), money.paidOrders(), money.chargedButNotPaid(), money.doubleCharges()));
        out.add("integrity charged_not_paid_after_reconcile=" + MoneyEvidence.show(money.chargedButNotPaidAfterReconcile())
                + " paid_not_notified=" + MoneyEvidence.show(money.paidButNotNotified())
                + " notified_more_than_once=" + MoneyEvidence.show(money.notifiedMoreThanOnce())
                + " reservations_leaked=" + MoneyEvidence.show(money.reservationsLeaked()));
        if (spread != null) {
            out.add(spread.render());
        }
        for (ReportLine line : extra) {
            if (line.name().equals(TRANSPORT_LINE)) {
                continue; // under the book's lines, in text()
            }
            out.add(line.name() + "=" + format(line.value()));
        }
        LoadSpec s = r.spec();
        out.add(String.format(Locale.ROOT,
                "settings rate=%d/s duration=%s timeout=%s arrival=%s threads=%s warmup=%s trace=%s",
                s.ratePerSecond(), seconds(s.duration()), millis(s.timeout()), s.arrival().describe(),
                s.threads().name().toLowerCase(Locale.ROOT), warmups(),
                s.traceEvery() == 0 || s.retries().retries() ? "off" : s.traceEvery() == 1 ? "every request" : "1 in " + s.traceEvery()));
        out.add(environment.line());
        return out;
    }

    /**
     * @return e.g. {@code hiccup p50=52us p99=310us max=3100us (…)}: the machine's own stalls beside the generator's
     *         send lag, so that a reader sees at once whether the run was disturbed
     */
    static String hiccupLine(HiccupSummary h) {
        if (!h.measured()) {
            return "hiccup not measured (no probe ran during this run)";
        }
        return String.format(Locale.ROOT, "hiccup p50=%dus p99=%dus max=%dus (how late a thread asking to wake every %dus woke:"
                + " the machine's own stalls, time-weighted)", h.p50Micros(), h.p99Micros(), h.maxMicros(), h.periodMicros());
    }

    /** Every warm-up before the measured run: the JVM's JIT warm-up, then the runner's own on this run's fixture. */
    private String warmups() {
        LoadSpec s = run.spec();
        String runner = s.warmup().isZero() ? null
                : seconds(s.warmup()) + " (" + run.warmupRequests() + " requests, excluded)";
        if (jitWarmUp == null) {
            return runner == null ? "none (as in the book)" : runner;
        }
        return jitWarmUp.describe() + (runner == null ? "" : "; then " + runner + " on this run's fixture");
    }

    /** "Where the time went": per operation, per segment, self time and its share; then the lock holders. */
    public List<String> segmentLines() {
        List<String> out = new ArrayList<>();
        List<SegmentRow> rows = run.segments();
        if (rows.isEmpty()) {
            out.add("--- where the time went: not recorded (segment tracing off) ---");
            return out;
        }
        out.add(String.format(Locale.ROOT, "--- where the time went (self time per request that entered the segment; %d traced requests) ---",
                run.tracedRequests()));
        out.add(String.format(Locale.ROOT, "%-7s %-14s %7s %7s %10s %10s %10s %10s %7s %12s",
                "op", "segment", "reqs", "entries", "mean_ms", "p50_ms", "p99_ms", "max_ms", "share", "incl_mean_ms"));
        for (SegmentRow row : rows) {
            out.add(String.format(Locale.ROOT, "%-7s %-14s %7d %7d %10.3f %10.3f %10.3f %10.3f %6.1f%% %12.3f",
                    row.operation(), row.segment(), row.requests(), row.entries(), row.meanMicros() / 1e3,
                    row.p50Micros() / 1e3, row.p99Micros() / 1e3, row.maxMicros() / 1e3, row.sharePercent(),
                    row.inclusiveMeanMicros() / 1e3));
        }
        List<SegmentRow> holders = rows.stream().filter(r -> r.segment().endsWith(".held")).toList();
        if (!holders.isEmpty()) {
            double total = holders.stream().mapToDouble(h -> h.inclusiveMeanMicros() * h.requests()).sum();
            out.add("");
            out.add("--- lock holders (who holds the lock, how often, how long: inclusive time under it) ---");
            out.add(String.format(Locale.ROOT, "  %-7s %-12s %8s %12s %12s %7s", "op", "lock", "holds", "total_ms", "per_hold_ms", "share"));
            holders.stream()
                    .sorted((a, b) -> Double.compare(b.inclusiveMeanMicros() * b.requests(), a.inclusiveMeanMicros() * a.requests()))
                    .forEach(h -> {
                        double heldMicros = h.inclusiveMeanMicros() * h.requests();
                        // per hold, not per request: a request may take the lock more than once (holds = entries)
                        out.add(String.format(Locale.ROOT, "  %-7s %-12s %8d %12.1f %12.3f %6.1f%%",
                                h.operation(), h.segment(), h.entries(), heldMicros / 1e3,
                                h.entries() == 0 ? 0 : heldMicros / h.entries() / 1e3,
                                total == 0 ? 0 : 100.0 * heldMicros / total));
                    });
        }
        return out;
    }

    /** @return the operation that held a {@code *.held} segment longest in total, or null */
    public String topHolder() {
        return run.segments().stream().filter(r -> r.segment().endsWith(".held"))
                .max((a, b) -> Double.compare(a.inclusiveMeanMicros() * a.requests(), b.inclusiveMeanMicros() * b.requests()))
                .map(SegmentRow::operation).orElse(null);
    }

    /** @return extra figures by name */
    public Map<String, Object> extraByName() {
        return extra.stream().collect(Collectors.toMap(ReportLine::name, ReportLine::value, (a, b) -> b, java.util.LinkedHashMap::new));
    }

    private static String hdr(LatencySummary l) {
        return String.format(Locale.ROOT, "hdr_p50=%.3fms hdr_p90=%.3fms hdr_p99=%.3fms hdr_p999=%.3fms max=%.3fms mean=%.3fms n=%d",
                l.p50Micros() / 1e3, l.p90Micros() / 1e3, l.p99Micros() / 1e3, l.p999Micros() / 1e3,
                l.maxMicros() / 1e3, l.meanMicros() / 1e3, l.count());
    }

    private static String format(Object v) {
        if (v instanceof Double || v instanceof Float) {
            return String.format(Locale.ROOT, "%.4f", ((Number) v).doubleValue());
        }
        return String.valueOf(v);
    }

    /** {@code 3s}, {@code 1.500s}, {@code 0.200s}; below the millisecond the fraction is kept ({@code 0.0004s}), never shown as 0. */
    private static String seconds(java.time.Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000L != 0) {
            return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
        }
        return String.format(Locale.ROOT, "%.3fs", nanos / 1e9).replace(".000s", "s");
    }

    /** Whole milliseconds as {@code 200ms}; a fraction is kept ({@code 0.5ms}) rather than truncated to {@code 0ms}. */
    private static String millis(java.time.Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
    }


    /** Builds a {@link RunReport} part by part; a part not set is null (extra: none). Not thread-safe. */
    public static final class Builder {
        private String module;
        private String name;
        private Environment environment;
        private RunResult run;
        private DownstreamCounts downstream;
        private MoneyEvidence money;
        private List<ReportLine> extra = List.of();
        private ProfileSection profile;
        private Spread spread;
        private WarmUp jitWarmUp;

        private Builder() {
        }

        /** @see RunReport#module() */
        public Builder module(String m) { module = m; return this; }

        /** @see RunReport#name() */
        public Builder name(String n) { name = n; return this; }

        /** @see RunReport#environment() */
        public Builder environment(Environment e) { environment = e; return this; }

        /** @see RunReport#run() */
        public Builder run(RunResult r) { run = r; return this; }

        /** @see RunReport#downstream() */
        public Builder downstream(DownstreamCounts d) { downstream = d; return this; }

        /** @see RunReport#money() */
        public Builder money(MoneyEvidence m) { money = m; return this; }

        /** @see RunReport#extra() */
        public Builder extra(List<ReportLine> e) { extra = e; return this; }

        /** @see RunReport#profile() */
        public Builder profile(ProfileSection p) { profile = p; return this; }

        /** @see RunReport#spread() */
        public Builder spread(Spread s) { spread = s; return this; }

        /** @see RunReport#jitWarmUp() */
        public Builder jitWarmUp(WarmUp w) { jitWarmUp = w; return this; }

        /** @return the report */
        public RunReport build() {
            return new RunReport(module, name, environment, run, downstream, money, extra, profile, spread, jitWarmUp);
        }
    }
}
