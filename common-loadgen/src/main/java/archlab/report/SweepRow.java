package archlab.report;

import archlab.loadgen.RunResult;
import java.util.Comparator;
import java.util.List;

/**
 * One offered rate of a {@code archlab.run.CapacitySweep}: what the runner measured at that rate, reduced to the
 * figures a capacity curve needs. Immutable.
 *
 * @param ratePerSecond    the offered rate, requests per second
 * @param offered          requests offered: {@code rate × duration} exactly
 * @param completed        ok within the timeout
 * @param timedOut         finished at or past the deadline
 * @param failed           an error before the timeout
 * @param rejected         refused at once by the service
 * @param poolExhausted    nothing left to send (the workload's pre-created pay pool ran out)
 * @param unfinished       still running when the runner stopped waiting
 * @param goodput          {@code completed / offered}, 0..1 (0 when nothing was offered)
 * @param rpsCompleted     completed requests per second of wall time
 * @param p50Micros        HdrHistogram p50 of every request that reached the service, µs
 * @param p99Micros        HdrHistogram p99 likewise, µs
 * @param sendLagP99Micros p99 of how late the generator started requests against their plan, µs
 * @param cpuShare         the JVM's CPU time during the run over (wall × cores), 0..1: generator and service
 *                         together; -1 when the JVM cannot tell ({@code com.sun.management} missing)
 * @param hiccupP99Micros  p99 of the machine's own stalls during the run (the hiccup probe's, time-weighted), µs;
 *                         0 when no probe ran
 */
public record SweepRow(
        int ratePerSecond,
        long offered,
        long completed,
        long timedOut,
        long failed,
        long rejected,
        long poolExhausted,
        long unfinished,
        double goodput,
        double rpsCompleted,
        long p50Micros,
        long p99Micros,
        long sendLagP99Micros,
        double cpuShare,
        long hiccupP99Micros) {

    /** The CPU share of a JVM that cannot measure its own CPU time. */
    public static final double CPU_UNKNOWN = -1;

    /**
     * @param run      the measured run at one rate
     * @param cpuShare the JVM's CPU share during it, or {@link #CPU_UNKNOWN}
     * @return its row
     */
    public static SweepRow of(RunResult run, double cpuShare) {
        return new SweepRow(run.spec().ratePerSecond(), run.offered(), run.completed(), run.timedOut(), run.failed(),
                run.rejected(), run.poolExhausted(), run.unfinished(),
                run.offered() == 0 ? 0 : (double) run.completed() / run.offered(), run.completedPerSecond(),
                run.latency().p50Micros(), run.latency().p99Micros(), run.sendLag().p99Micros(), cpuShare,
                run.hiccups().p99Micros());
    }

    /**
     * @param slackNanos the knee's slack above its floor, ns
     * @return whether the machine disturbed this run: the generator started requests later, or the machine stalled
     *         longer, than the slack at p99 — the run measured the machine as much as the service
     */
    public boolean disturbed(long slackNanos) {
        return sendLagP99Micros * 1_000L > slackNanos || hiccupP99Micros * 1_000L > slackNanos;
    }

    /**
     * @param attempts runs of one rate, at least one
     * @return the attempt with the median p99 (the lower middle of an even count): how a rate the machine disturbed
     *         every time is judged, so that neither its luckiest nor its unluckiest run decides it
     */
    public static SweepRow medianByP99(List<SweepRow> attempts) {
        if (attempts.isEmpty()) {
            throw new IllegalArgumentException("no attempt to take the median of");
        }
        List<SweepRow> sorted = attempts.stream().sorted(Comparator.comparingLong(SweepRow::p99Micros)).toList();
        return sorted.get((sorted.size() - 1) / 2);
    }
}
