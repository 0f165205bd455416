package archlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the sweep's own rows say about the limit at the first rate past the knee. It states evidence and
 * what each piece is <em>consistent with</em>; it never names a culprit: a sweep without profiles cannot
 * (the profiles of a single run at that rate can: {@code -Dlab.rate=… -Dbaseline}).
 *
 * <p>The rules, each checked against the row at the knee (or, without a knee, against nothing):
 * <ul>
 *   <li>requests timed out (more than 1% of offered) while the JVM used less than half of the machine's CPU:
 *       requests waited without burning CPU — consistent with a lock or a queue;</li>
 *   <li>the JVM used at least 80% of the CPU: consistent with CPU saturation (generator and service share it);</li>
 *   <li>send-lag p99 above 1 ms, at least 4 × the knee's and at least a quarter of the p99: the generator could
 *       not start requests on time — the generator or the machine's CPU is limiting, not only the service;</li>
 *   <li>p99 over the ceiling while the JVM used less than half of the CPU and requests started on time (send-lag
 *       p99 within half the ceiling, and the rule above silent): the time
 *       went to waiting, not computing — consistent with a lock, a queue or slow downstream calls;</li>
 *   <li>rejected, failed, pool-exhausted or unfinished requests: named as such.</li>
 * </ul>
 *
 * <p>Pure function of two rows; thread-safe.
 */
public final class LimitEvidence {

    /** Timed-out share above which timeouts count as evidence. */
    static final double TIMEOUT_SHARE = 0.01;
    /** CPU share below which the machine counts as "mostly idle". */
    static final double LOW_CPU = 0.50;
    /** CPU share from which the machine counts as saturated. */
    static final double HIGH_CPU = 0.80;
    /** Send-lag p99 that counts as the generator falling behind, µs. */
    static final long SEND_LAG_MICROS = 1_000;
    /** How many times the knee's send-lag p99 the rate past it must show. */
    static final int SEND_LAG_GROWTH = 4;
    /** The share of the p99 a send-lag p99 must reach to count: below it the generator's lateness is small change. */
    static final double SEND_LAG_SHARE_OF_P99 = 0.25;

    private LimitEvidence() {
    }

    /**
     * @param knee          the row at the knee, or {@code null} when there is none
     * @param past          the first row past the knee
     * @param p99CeilingMicros the knee's p99 ceiling, µs
     * @return one line per piece of evidence, the first naming the rate; never empty
     */
    public static List<String> between(SweepRow knee, SweepRow past, long p99CeilingMicros) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "at %d req/s (%s): goodput %.1f%%, p99 %.3f ms against a ceiling of %.3f ms",
                past.ratePerSecond(), knee == null ? "the lowest rate swept" : "the first rate past the knee",
                past.goodput() * 100, past.p99Micros() / 1e3, p99CeilingMicros / 1e3));
        int before = out.size();
        double timedOutShare = past.offered() == 0 ? 0 : (double) past.timedOut() / past.offered();
        if (timedOutShare > TIMEOUT_SHARE) {
            String cpu = past.cpuShare() < 0 ? "CPU unknown"
                    : String.format(Locale.ROOT, "the JVM used %.0f%% of the CPU", past.cpuShare() * 100);
            String reading = past.cpuShare() >= 0 && past.cpuShare() < LOW_CPU
                    ? ": requests waited without burning CPU, consistent with a lock or a queue in front of the work"
                    : "";
            out.add(String.format(Locale.ROOT, "timed_out=%d (%.1f%% of offered) while %s%s",
                    past.timedOut(), timedOutShare * 100, cpu, reading));
        }
        if (past.cpuShare() >= HIGH_CPU) {
            out.add(String.format(Locale.ROOT,
                    "the JVM used %.0f%% of the CPU (generator and service together): consistent with CPU saturation",
                    past.cpuShare() * 100));
        }
        long kneeLag = knee == null ? 0 : knee.sendLagP99Micros();
        boolean lateGenerator = past.sendLagP99Micros() > SEND_LAG_MICROS
                && past.sendLagP99Micros() >= SEND_LAG_GROWTH * Math.max(1, kneeLag)
                && past.sendLagP99Micros() >= SEND_LAG_SHARE_OF_P99 * past.p99Micros();
        if (lateGenerator) {
            out.add(String.format(Locale.ROOT,
                    "send-lag p99 %.3f ms (%s): the generator started requests late, so the generator or the machine's CPU"
                            + " limits here too, not only the service",
                    past.sendLagP99Micros() / 1e3,
                    knee == null ? "no knee to compare with" : String.format(Locale.ROOT, "%.3f ms at the knee", kneeLag / 1e3)));
        }
        // "on time" only when the lag is within the ceiling's slack (half the ceiling: one pay floor), the bound
        // the sweep reruns a rate by; a lag of several ms is not "on time" even when the rule above did not fire
        boolean onTime = !lateGenerator && past.sendLagP99Micros() * 2 <= p99CeilingMicros;
        if (past.p99Micros() > p99CeilingMicros && past.cpuShare() >= 0 && past.cpuShare() < LOW_CPU && onTime) {
            out.add(String.format(Locale.ROOT,
                    "p99 %.3f ms over the ceiling while the JVM used %.0f%% of the CPU and started requests on time"
                            + " (send-lag p99 %.3f ms): the time went to waiting, not computing, consistent with a lock,"
                            + " a queue or slow downstream calls",
                    past.p99Micros() / 1e3, past.cpuShare() * 100, past.sendLagP99Micros() / 1e3));
        }
        if (past.rejected() > 0) {
            out.add("rejected=" + past.rejected() + ": the service refused requests (admission control or a rate limit)");
        }
        if (past.failed() > 0) {
            out.add("failed=" + past.failed() + ": requests ended in an error before their deadline");
        }
        if (past.poolExhausted() > 0) {
            out.add("pool_exhausted=" + past.poolExhausted()
                    + ": the workload's pre-created pay pool ran out (a limit of the workload, not of the service)");
        }
        if (past.unfinished() > 0) {
            out.add("unfinished=" + past.unfinished() + ": requests still running when the runner gave up waiting (a hang)");
        }
        if (out.size() == before) {
            out.add("no single figure stands out (no timeouts, no CPU saturation, no send lag);"
                    + " compare the rows, or profile one run at this rate");
        }
        return out;
    }
}
