package archlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The run-to-run spread of repeated runs of the same load: each figure as min / median / max, so a
 * reader on a noisy machine sees how much one run can be trusted.
 *
 * @param runs how many runs
 * @param rows one per figure
 */
public record Spread(int runs, List<Row> rows) {

    /** @param name figure name; @param min smallest; @param median middle (lower middle for an even count); @param max largest */
    public record Row(String name, double min, double median, double max) {
    }

    /** Builds the spread of the standard figures over {@code reports}. */
    public static Spread of(List<RunReport> reports) {
        if (reports == null || reports.isEmpty()) {
            throw new IllegalArgumentException("a spread needs at least one report, was " + reports);
        }
        List<Row> rows = new ArrayList<>();
        add(rows, "offered", reports, r -> r.run().offered());
        add(rows, "completed", reports, r -> r.run().completed());
        add(rows, "timed_out", reports, r -> r.run().timedOut());
        add(rows, "failed", reports, r -> r.run().failed());
        add(rows, "rejected", reports, r -> r.run().rejected());
        add(rows, "rps_completed", reports, r -> r.run().completedPerSecond());
        add(rows, "p50_ms", reports, r -> r.run().latency().bookP50Millis());
        add(rows, "p99_ms", reports, r -> r.run().latency().bookP99Millis());
        add(rows, "p999_ms", reports, r -> r.run().latency().bookP999Millis());
        add(rows, "hdr_p99_ms", reports, r -> r.run().latency().p99Micros() / 1e3);
        add(rows, "send_lag_p99_us", reports, r -> r.run().sendLag().p99Micros());
        add(rows, "hiccup_p99_us", reports, r -> r.run().hiccups().p99Micros());
        add(rows, "charged_not_paid", reports, r -> r.money().chargedButNotPaid());
        return new Spread(reports.size(), List.copyOf(rows));
    }

    private static void add(List<Row> rows, String name, List<RunReport> reports, ToDoubleFunction<RunReport> f) {
        double[] v = reports.stream().mapToDouble(f).sorted().toArray();
        rows.add(new Row(name, v[0], v[(v.length - 1) / 2], v[v.length - 1]));
    }

    /** @return e.g. {@code spread over 3 runs (min/median/max): completed=2801/2954/3012 …} */
    public String render() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "spread over %d runs (min/median/max):", runs));
        for (Row row : rows) {
            sb.append(' ').append(row.name()).append('=').append(num(row.min())).append('/')
                    .append(num(row.median())).append('/').append(num(row.max()));
        }
        return sb.toString();
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.2f", d);
    }
}
