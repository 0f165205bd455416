package archlab.loadgen;

import archlab.timeline.HiccupSummary;
import archlab.timeline.RunTimeline;
import archlab.trace.SegmentTable.SegmentRow;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What one measured open-loop run produced. Immutable; every figure was counted during the run.
 *
 * @param spec             the load that was offered
 * @param offered          requests planned and sent: {@code rate × duration} exactly (those whose thread could not start are counted here and in {@code notStarted})
 * @param started          requests whose task began running
 * @param notStarted       requests whose thread could not be created (the run says so, never hides it)
 * @param completed        ok within the timeout (when callers retry: the last attempt was, within its own timeout)
 * @param timedOut         finished at or after planned start + timeout (the deadline had expired; when callers retry:
 *                         the last attempt's)
 * @param failed           an error before the timeout
 * @param rejected         refused at once by the service
 * @param poolExhausted    nothing left to send (e.g. no pre-created order left to pay)
 * @param unfinished       still running when the runner stopped waiting (a hang: reported, never hidden)
 * @param wallNanos        from the first planned start to the last completion
 * @param latency          all requests that reached the service and were not rejected (completed, timed out, failed)
 * @param operations       the same, per operation
 * @param sendLag          how late each request's task actually started against its plan
 * @param failureCauses    failed and timed-out requests by exception class (timed out without an error: "none")
 * @param maxOverrunNanos  the largest amount by which a request finished past its deadline, 0 if none did; when callers
 *                         retry, by which the service answered an attempt past that attempt's deadline, whether its
 *                         caller still waited or not (how long the service worked for a caller that had given up)
 * @param segments         "where the time went", per operation and segment (empty when tracing is off)
 * @param tracedRequests   how many requests were traced
 * @param warmupRequests   requests of the warm-up, excluded from every figure above
 * @param timeline         the run interval by interval (and its warm-up's before it); {@link RunTimeline#NONE} when
 *                         the runner recorded none
 * @param hiccups          the machine's own stalls during the measured run, as the hiccup probe saw them;
 *                         {@link HiccupSummary#NONE} when no probe ran
 * @param attempts         attempts the callers sent, first attempts and retries ({@code == started} when nobody retried)
 * @param retriesDenied    retries the {@link RetryBudget} did not allow (the request ended with its last attempt's outcome)
 * @param abandoned        attempts the caller stopped waiting for at their deadline, the service still working on them
 * @param attemptsStillRunning abandoned attempts the service was still working on when the runner stopped waiting (a
 *                         hang: reported, never hidden; their requests had ended, so they are not in {@code unfinished})
 */
public record RunResult(
        LoadSpec spec,
        long offered,
        long started,
        long notStarted,
        long completed,
        long timedOut,
        long failed,
        long rejected,
        long poolExhausted,
        long unfinished,
        long wallNanos,
        LatencySummary latency,
        Map<String, OperationResult> operations,
        LatencySummary sendLag,
        Map<String, Long> failureCauses,
        long maxOverrunNanos,
        List<SegmentRow> segments,
        long tracedRequests,
        long warmupRequests,
        RunTimeline timeline,
        HiccupSummary hiccups,
        long attempts,
        long retriesDenied,
        long abandoned,
        long attemptsStillRunning) {

    /** A run whose callers never retried: one attempt per started request. */
    public RunResult(LoadSpec spec, long offered, long started, long notStarted, long completed, long timedOut,
                     long failed, long rejected, long poolExhausted, long unfinished, long wallNanos,
                     LatencySummary latency, Map<String, OperationResult> operations, LatencySummary sendLag,
                     Map<String, Long> failureCauses, long maxOverrunNanos, List<SegmentRow> segments,
                     long tracedRequests, long warmupRequests, RunTimeline timeline, HiccupSummary hiccups) {
        this(spec, offered, started, notStarted, completed, timedOut, failed, rejected, poolExhausted, unfinished,
                wallNanos, latency, operations, sendLag, failureCauses, maxOverrunNanos, segments, tracedRequests,
                warmupRequests, timeline, hiccups, started, 0, 0, 0);
    }

    /** @return attempts per planned request: 1.0 when nobody retried; 0 for a run that offered nothing */
    public double amplification() {
        return offered == 0 ? 0 : attempts / (double) offered;
    }

    public RunResult {
        timeline = timeline == null ? RunTimeline.NONE : timeline;
        hiccups = hiccups == null ? HiccupSummary.NONE : hiccups;
    }

    /** @return wall time as a Duration */
    public Duration wall() {
        return Duration.ofNanos(wallNanos);
    }

    /**
     * Whether the generator kept its schedule well enough to judge a latency claim that leaves {@code slackNanos}
     * of slack: latency is measured from each request's planned start, so a generator that started requests
     * late (a busy machine, a stalled JVM) spends the slack before the service is even called. A run whose
     * send-lag p99 exceeds the slack measured the machine, not the service.
     *
     * @param slackNanos how far above its floor the claim lets p99 go, ns
     * @return whether send-lag p99 ≤ {@code slackNanos}
     */
    public boolean sendLagWithin(long slackNanos) {
        return sendLag.p99Micros() * 1_000L <= slackNanos;
    }

    /**
     * Whether this run can judge a latency claim that leaves {@code slackNanos} of slack: the generator kept its
     * schedule ({@link #sendLagWithin}) and the machine did not stall under it (hiccup p99 within the slack too). A run
     * that fails either measured the machine as much as the service: run it again, or say it was not judged.
     *
     * @param slackNanos how far above its floor the claim lets p99 go, ns
     * @return whether send-lag p99 and hiccup p99 are both ≤ {@code slackNanos}
     */
    public boolean judgeable(long slackNanos) {
        return sendLagWithin(slackNanos) && hiccups.p99Within(slackNanos);
    }

    /** @return this result with {@code t} as its timeline (e.g. with a JIT warm-up's intervals put before the run's) */
    public RunResult withTimeline(RunTimeline t) {
        return new RunResult(spec, offered, started, notStarted, completed, timedOut, failed, rejected, poolExhausted,
                unfinished, wallNanos, latency, operations, sendLag, failureCauses, maxOverrunNanos, segments,
                tracedRequests, warmupRequests, t, hiccups, attempts, retriesDenied, abandoned, attemptsStillRunning);
    }

    /** @return completed requests per second of wall time */
    public double completedPerSecond() {
        return wallNanos == 0 ? 0 : completed * 1_000_000_000.0 / wallNanos;
    }

    /**
     * One operation's share of the run.
     *
     * @param operation     e.g. "pay"
     * @param offered       requests of this operation the run planned, whether or not they started or finished
     * @param completed     ok within the timeout
     * @param timedOut      over the timeout
     * @param failed        error before the timeout
     * @param rejected      refused
     * @param poolExhausted nothing left to send
     * @param latency       latencies of its completed, timed-out and failed requests
     */
    public record OperationResult(
            String operation,
            long offered,
            long completed,
            long timedOut,
            long failed,
            long rejected,
            long poolExhausted,
            LatencySummary latency) {
    }
}
