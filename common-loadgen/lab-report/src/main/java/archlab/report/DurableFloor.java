package archlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a pay could cost at best on a durable store, and how far the run stayed from it: the verdict's {@code floor:}
 * line of a run on PostgreSQL.
 *
 * <p>The trap it avoids: reading a PostgreSQL run's pay p99 against the in-memory run's and blaming the checkpoint for
 * the whole difference. Part of it is the disk's, and this machine measures that part during the same run: the commit
 * probe ({@code store_commit_probe}: a one-row commit on a connection of its own, every 10 ms). A pay that needs
 * {@code c} commits and calls inventory and payment cannot be faster than
 * <pre>
 *   floor = inventory + payment (the stubs' latencies) + c × the probe's commit time
 * </pre>
 * taken at the probe's p50 for the floor's p50 and at its p99 for its p99 (a sum of p99s: a generous floor, the tail
 * of the sum is usually lower). {@code c} is read from the trace: the pay's {@value #STORE_WRITE} entries per pay,
 * each one statement or one transaction, committed. The line puts the run's pay p50 and p99 beside it as ratios; what
 * remains above 1× is what the service, the pool and the machine's two cores add.
 *
 * <p>Derived from the report's JSON alone (so a saved report gets the same line); empty for a run without a commit
 * probe (in memory), without the book's downstream line, or without traced pays. Stateless; thread-safe.
 */
public final class DurableFloor {

    /** The segment of one state change's commit on a store without a lock of the service's (one per commit). */
    public static final String STORE_WRITE = "store.write";
    /** The operation whose floor is stated. */
    static final String PAY = "pay";
    /**
     * The most of its time the commit probe may spend waiting for its commits in a run whose disk "kept pace": on a disk
     * that keeps pace it waits a few per cent of the run; past a quarter, the disk rather than the checkpoint decided how
     * many state changes the run could make ({@code CommitProbe.KEPT_PACE_SHARE} is this figure).
     */
    public static final double KEPT_PACE_SHARE = 0.25;

    private static final Pattern PROBE = Pattern.compile("p50=([0-9.]+)ms p99=([0-9.]+)ms");
    private static final Pattern DOWNSTREAM = Pattern.compile("inventory=(\\d+)ms payment=(\\d+)ms");

    /**
     * The floor's figures.
     *
     * @param downstreamMillis  inventory + payment, the stubs' latencies, ms
     * @param commitsPerPay     store writes per traced pay
     * @param commitP50Millis   the probe's commit p50, ms
     * @param commitP99Millis   the probe's commit p99, ms
     * @param payP50Millis      the run's pay p50, ms
     * @param payP99Millis      the run's pay p99, ms
     */
    public record Figures(double downstreamMillis, double commitsPerPay, double commitP50Millis, double commitP99Millis,
                          double payP50Millis, double payP99Millis) {

        /** @return the floor at p50: downstream + commits × the probe's p50, ms */
        public double floorP50Millis() {
            return downstreamMillis + commitsPerPay * commitP50Millis;
        }

        /** @return the floor at p99: downstream + commits × the probe's p99, ms */
        public double floorP99Millis() {
            return downstreamMillis + commitsPerPay * commitP99Millis;
        }

        /** @return the run's pay p50 over the floor's */
        public double p50Ratio() {
            return payP50Millis / floorP50Millis();
        }

        /** @return the run's pay p99 over the floor's */
        public double p99Ratio() {
            return payP99Millis / floorP99Millis();
        }

        /** @return the verdict's line, without its {@code floor: } label */
        public String line() {
            return String.format(Locale.ROOT, "a pay needs inventory + payment %.0f ms and %.1f commits (store.write per pay);"
                            + " at the commit probe's p50 %.2f ms / p99 %.2f ms that is %.1f ms at p50, %.1f ms at p99;"
                            + " this run's pay p50 %.1f ms is %.2f× the floor, p99 %.1f ms %.2f×",
                    downstreamMillis, commitsPerPay, commitP50Millis, commitP99Millis, floorP50Millis(), floorP99Millis(),
                    payP50Millis, p50Ratio(), payP99Millis, p99Ratio());
        }
    }

    private DurableFloor() {
    }

    /** @return the floor's figures of a report as {@link ReportWriter} wrote it, or empty where it has none (see the class) */
    public static Optional<Figures> of(JsonNode report) {
        Optional<Matcher> probe = extra(report, "store_commit_probe").map(PROBE::matcher).filter(Matcher::find);
        Optional<Matcher> downstream = extra(report, "downstream_latency").map(DOWNSTREAM::matcher).filter(Matcher::find);
        JsonNode run = report.path("run");
        JsonNode pay = run.path("operations").path(PAY).path("latency");
        OptionalDouble commits = commitsPerPay(run);
        if (probe.isEmpty() || downstream.isEmpty() || commits.isEmpty() || pay.path("count").asLong() == 0) {
            return Optional.empty();
        }
        return Optional.of(new Figures(
                Double.parseDouble(downstream.get().group(1)) + Double.parseDouble(downstream.get().group(2)),
                commits.getAsDouble(), Double.parseDouble(probe.get().group(1)), Double.parseDouble(probe.get().group(2)),
                pay.path("p50Micros").asDouble() / 1e3, pay.path("p99Micros").asDouble() / 1e3));
    }

    /** @return the verdict's line, {@code "floor: …"}, or empty (see {@link #of}) */
    static Optional<String> verdictLine(JsonNode report) {
        return of(report).map(f -> "floor: " + f.line());
    }

    /** Store writes per traced pay that wrote: the {@value #STORE_WRITE} row's entries over the pays that entered it. */
    private static OptionalDouble commitsPerPay(JsonNode run) {
        for (JsonNode row : run.path("segments")) {
            if (row.path("operation").asText().equals(PAY) && row.path("segment").asText().equals(STORE_WRITE)) {
                long requests = row.path("requests").asLong();
                return requests == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) row.path("entries").asLong() / requests);
            }
        }
        return OptionalDouble.empty();
    }

    private static Optional<String> extra(JsonNode report, String name) {
        for (JsonNode line : report.path("extra")) {
            if (line.path("name").asText().equals(name)) {
                return Optional.of(line.path("value").asText());
            }
        }
        return Optional.empty();
    }
}
