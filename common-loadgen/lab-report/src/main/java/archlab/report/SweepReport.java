package archlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@code archlab.run.CapacitySweep} found, human first ({@link #text()}) and as JSON for the figures
 * ({@code archlab.figures.SweepChart} reads {@code sweep-<module>.json}). Immutable; built by {@link #builder()}.
 *
 * @param kind          always {@value #KIND}: how tools tell a sweep report from a run report
 * @param module        the checkpoint swept, e.g. "ch12-1-baseline"
 * @param name          the report's name, e.g. "sweep"
 * @param environment   JDK, cores, OS, time, Maven session
 * @param settings      the load every rate shared (duration, timeout, arrival, threads, warm-up), in words
 * @param payFloorNanos the synchronous floor of one pay (Σ downstream latencies), ns
 * @param rows          one row per offered rate, ascending
 * @param knee          the knee and its definition
 * @param limitEvidence what the rows say at the first rate past the knee; empty when the knee is the highest rate
 * @param reruns        each rate that was run again because the machine disturbed it — the generator fell behind its
 *                      schedule, or the machine stalled, by more than the knee's slack at p99 (one line per disturbed
 *                      attempt); empty when no attempt was disturbed
 */
public record SweepReport(
        String kind,
        String module,
        String name,
        Environment environment,
        String settings,
        long payFloorNanos,
        List<SweepRow> rows,
        Knee knee,
        List<String> limitEvidence,
        List<String> reruns) {

    /** The {@link #kind()} of every sweep report. */
    public static final String KIND = "capacity-sweep";

    public SweepReport {
        rows = List.copyOf(rows);
        limitEvidence = List.copyOf(limitEvidence);
        reruns = List.copyOf(reruns);
    }

    /** @return a builder of a sweep report ({@value #KIND}) with no limit evidence and no rerun */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the column header of {@link #line(SweepRow, long)} */
    public static String header() {
        return String.format(Locale.ROOT, "%7s %8s %9s %8s %13s %9s %9s %9s %8s %6s %8s %12s %12s %5s %s",
                "rate/s", "offered", "completed", "goodput", "rps_completed", "p50_ms", "p99_ms", "timed_out",
                "rejected", "failed", "pool_exh", "send_lag_p99", "hiccup_p99", "cpu", "knee?");
    }

    /** @return one row as a table line; {@code p99CeilingMicros} decides the last column */
    public static String line(SweepRow r, long p99CeilingMicros) {
        return String.format(Locale.ROOT, "%7d %8d %9d %7.1f%% %13.1f %9.3f %9.3f %9d %8d %6d %8d %9.3f ms %9.3f ms %4s %s",
                r.ratePerSecond(), r.offered(), r.completed(), r.goodput() * 100, r.rpsCompleted(),
                r.p50Micros() / 1e3, r.p99Micros() / 1e3, r.timedOut(), r.rejected(), r.failed(), r.poolExhausted(),
                r.sendLagP99Micros() / 1e3, r.hiccupP99Micros() / 1e3, r.cpuShare() < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f%%", r.cpuShare() * 100),
                Knee.qualifies(r, p99CeilingMicros) ? "ok" : "-");
    }

    /** @return the whole report as text */
    public String text() {
        List<String> out = new ArrayList<>();
        out.add("=== " + module + " / " + name + ": capacity sweep ===");
        out.add(knee.describe());
        out.add(knee.rule().definition());
        out.add("");
        out.add(header());
        for (SweepRow r : rows) {
            out.add(line(r, knee.rule().p99CeilingMicros()));
        }
        out.add("(goodput = completed / offered; p50/p99 from the HdrHistogram of every request that reached the service;"
                + " hiccup_p99 = the machine's own stalls, time-weighted; cpu = the JVM's CPU time over wall x cores,"
                + " generator and service together)");
        out.add("");
        if (limitEvidence.isEmpty()) {
            out.add("what limits past the knee: not measured, the knee is the highest rate swept; sweep higher rates");
        } else {
            out.add(knee.found() ? "what limits past the knee (evidence from the rows, not a verdict):"
                    : "what limits already at the lowest rate, where there is no knee (evidence from the rows, not a verdict):");
            limitEvidence.forEach(l -> out.add("  - " + l));
        }
        if (!reruns.isEmpty()) {
            out.add("");
            out.add("reruns (the generator started requests later, or the machine stalled longer, than the knee's slack allows:"
                    + " such a run measures the machine, not the service; the row kept is the first attempt the machine did"
                    + " not disturb, or, when it disturbed them all, the attempt with the median p99, so that one stall does"
                    + " not decide a rate):");
            reruns.forEach(l -> out.add("  - " + l));
        }
        out.add("");
        out.add("settings " + settings);
        out.add(environment.line());
        return String.join("\n", out) + "\n";
    }

    /** Builds a {@link SweepReport} part by part; its kind is always {@value #KIND}. Not thread-safe. */
    public static final class Builder {
        private String module;
        private String name;
        private Environment environment;
        private String settings;
        private long payFloorNanos;
        private List<SweepRow> rows;
        private Knee knee;
        private List<String> limitEvidence = List.of();
        private List<String> reruns = List.of();

        private Builder() {
        }

        /** @see SweepReport#module() */
        public Builder module(String m) { module = m; return this; }

        /** @see SweepReport#name() */
        public Builder name(String n) { name = n; return this; }

        /** @see SweepReport#environment() */
        public Builder environment(Environment e) { environment = e; return this; }

        /** @see SweepReport#settings() */
        public Builder settings(String words) { settings = words; return this; }

        /** @see SweepReport#payFloorNanos() */
        public Builder payFloorNanos(long ns) { payFloorNanos = ns; return this; }

        /** @see SweepReport#rows() */
        public Builder rows(List<SweepRow> r) { rows = r; return this; }

        /** @see SweepReport#knee() */
        public Builder knee(Knee k) { knee = k; return this; }

        /** @see SweepReport#limitEvidence() */
        public Builder limitEvidence(List<String> lines) { limitEvidence = lines; return this; }

        /** @see SweepReport#reruns() */
        public Builder reruns(List<String> lines) { reruns = lines; return this; }

        /** @return the report */
        public SweepReport build() {
            return new SweepReport(KIND, module, name, environment, settings, payFloorNanos, rows, knee, limitEvidence,
                    reruns);
        }
    }
}
