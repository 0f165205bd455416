package archlab.report;

import archlab.loadgen.RunResult;
import java.util.Comparator;
import java.util.List;

/**
 * One offered rate of a {@code archlab.run.CapacitySweep}: what the runner measured at that rate, reduced to the
 * figures a capacity curve needs. Immutable; built by {@link #of} from a run, or by {@link #builder()}.
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
        return builder()
                .ratePerSecond(run.spec().ratePerSecond())
                .offered(run.offered())
                .completed(run.completed())
                .timedOut(run.timedOut())
                .failed(run.failed())
                .rejected(run.rejected())
                .poolExhausted(run.poolExhausted())
                .unfinished(run.unfinished())
                .goodput(run.offered() == 0 ? 0 : (double) run.completed() / run.offered())
                .rpsCompleted(run.completedPerSecond())
                .p50Micros(run.latency().p50Micros())
                .p99Micros(run.latency().p99Micros())
                .sendLagP99Micros(run.sendLag().p99Micros())
                .cpuShare(cpuShare)
                .hiccupP99Micros(run.hiccups().p99Micros())
                .build();
    }

    /** @return a builder of a row where nothing was offered: every figure 0 */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding every figure of this row, to build a copy that differs in some */
    public Builder toBuilder() {
        return builder().ratePerSecond(ratePerSecond).offered(offered).completed(completed).timedOut(timedOut)
                .failed(failed).rejected(rejected).poolExhausted(poolExhausted).unfinished(unfinished).goodput(goodput)
                .rpsCompleted(rpsCompleted).p50Micros(p50Micros).p99Micros(p99Micros).sendLagP99Micros(sendLagP99Micros)
                .cpuShare(cpuShare).hiccupP99Micros(hiccupP99Micros);
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

    /** Builds a {@link SweepRow} figure by figure (units as the components'); a figure not set is 0. Not thread-safe. */
    public static final class Builder {
        private int ratePerSecond;
        private long offered;
        private long completed;
        private long timedOut;
        private long failed;
        private long rejected;
        private long poolExhausted;
        private long unfinished;
        private double goodput;
        private double rpsCompleted;
        private long p50Micros;
        private long p99Micros;
        private long sendLagP99Micros;
        private double cpuShare;
        private long hiccupP99Micros;

        private Builder() {
        }

        /** @see SweepRow#ratePerSecond() */
        public Builder ratePerSecond(int rate) { ratePerSecond = rate; return this; }

        /** @see SweepRow#offered() */
        public Builder offered(long n) { offered = n; return this; }

        /** @see SweepRow#completed() */
        public Builder completed(long n) { completed = n; return this; }

        /** @see SweepRow#timedOut() */
        public Builder timedOut(long n) { timedOut = n; return this; }

        /** @see SweepRow#failed() */
        public Builder failed(long n) { failed = n; return this; }

        /** @see SweepRow#rejected() */
        public Builder rejected(long n) { rejected = n; return this; }

        /** @see SweepRow#poolExhausted() */
        public Builder poolExhausted(long n) { poolExhausted = n; return this; }

        /** @see SweepRow#unfinished() */
        public Builder unfinished(long n) { unfinished = n; return this; }

        /** @see SweepRow#goodput() */
        public Builder goodput(double share) { goodput = share; return this; }

        /** @see SweepRow#rpsCompleted() */
        public Builder rpsCompleted(double rps) { rpsCompleted = rps; return this; }

        /** @see SweepRow#p50Micros() */
        public Builder p50Micros(long us) { p50Micros = us; return this; }

        /** @see SweepRow#p99Micros() */
        public Builder p99Micros(long us) { p99Micros = us; return this; }

        /** @see SweepRow#sendLagP99Micros() */
        public Builder sendLagP99Micros(long us) { sendLagP99Micros = us; return this; }

        /** @see SweepRow#cpuShare() */
        public Builder cpuShare(double share) { cpuShare = share; return this; }

        /** @see SweepRow#hiccupP99Micros() */
        public Builder hiccupP99Micros(long us) { hiccupP99Micros = us; return this; }

        /** @return the row */
        public SweepRow build() {
            return new SweepRow(ratePerSecond, offered, completed, timedOut, failed, rejected, poolExhausted,
                    unfinished, goodput, rpsCompleted, p50Micros, p99Micros, sendLagP99Micros, cpuShare,
                    hiccupP99Micros);
        }
    }
}
