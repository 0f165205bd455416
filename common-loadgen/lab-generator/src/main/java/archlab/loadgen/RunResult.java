package archlab.loadgen;

import archlab.request.RequestOutcome;
import archlab.timeline.HiccupSummary;
import archlab.timeline.RunTimeline;
import archlab.trace.SegmentTable.SegmentRow;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * What one measured open-loop run produced. Immutable; every figure was counted during the run. Built by
 * {@link #builder()}; its figures are grouped into named parts, and each part's figures are also read straight off
 * the result ({@link #offered()}, {@link #completed()}, …).
 *
 * <p>JSON: every part is unwrapped, so a report holds the figures flat, in the order of the parts and of their
 * figures ({@code offered, started, notStarted, completed, …, attemptsStillRunning}) — the saved reports and the
 * book's tools read them by that path.
 *
 * @param spec           the load that was offered
 * @param requests       how many requests the run planned and started
 * @param outcomes       how the started requests ended
 * @param unfinished     requests still running when the runner stopped waiting (a hang: reported, never hidden)
 * @param wallNanos      from the first planned start to the last completion, ns
 * @param latencies      how long the requests took, overall and per operation, how late they started, and why
 *                       failures failed
 * @param tracing        "where the time went" ({@link Tracing#NONE} when tracing is off)
 * @param warmupRequests requests of the warm-up, excluded from every figure above
 * @param timeline       the run interval by interval (and its warm-up's before it); {@link RunTimeline#NONE} when the
 *                       runner recorded none
 * @param hiccups        the machine's own stalls during the measured run, as the hiccup probe saw them;
 *                       {@link HiccupSummary#NONE} when no probe ran
 * @param retries        the attempts of callers that retry ({@link ClientRetries#none} when nobody retried)
 */
public record RunResult(
        LoadSpec spec,
        @JsonUnwrapped Requests requests,
        @JsonUnwrapped Outcomes outcomes,
        long unfinished,
        long wallNanos,
        @JsonUnwrapped Latencies latencies,
        @JsonUnwrapped Tracing tracing,
        long warmupRequests,
        RunTimeline timeline,
        HiccupSummary hiccups,
        @JsonUnwrapped ClientRetries retries) {

    public RunResult {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(outcomes, "outcomes");
        Objects.requireNonNull(latencies, "latencies");
        Objects.requireNonNull(retries, "retries");
        tracing = tracing == null ? Tracing.NONE : tracing;
        timeline = timeline == null ? RunTimeline.NONE : timeline;
        hiccups = hiccups == null ? HiccupSummary.NONE : hiccups;
    }

    /** @return a builder with no tracing, no warm-up, no timeline, no hiccup probe and nobody retrying */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding every part of this result, to build a copy that differs in some */
    public Builder toBuilder() {
        return new Builder().spec(spec).requests(requests).outcomes(outcomes).unfinished(unfinished)
                .wallNanos(wallNanos).latencies(latencies).tracing(tracing).warmupRequests(warmupRequests)
                .timeline(timeline).hiccups(hiccups).retries(retries);
    }

    /** @return this result with {@code t} as its timeline (e.g. with a JIT warm-up's intervals put before the run's) */
    public RunResult withTimeline(RunTimeline t) {
        return toBuilder().timeline(t).build();
    }

    // The parts' figures, read straight off the result (not in the JSON twice: Jackson serializes the components).

    /** @return {@link Requests#offered()} */
    public long offered() { return requests.offered(); }

    /** @return {@link Requests#started()} */
    public long started() { return requests.started(); }

    /** @return {@link Requests#notStarted()} */
    public long notStarted() { return requests.notStarted(); }

    /** @return {@link Outcomes#completed()} */
    public long completed() { return outcomes.completed(); }

    /** @return {@link Outcomes#timedOut()} */
    public long timedOut() { return outcomes.timedOut(); }

    /** @return {@link Outcomes#failed()} */
    public long failed() { return outcomes.failed(); }

    /** @return {@link Outcomes#rejected()} */
    public long rejected() { return outcomes.rejected(); }

    /** @return {@link Outcomes#poolExhausted()} */
    public long poolExhausted() { return outcomes.poolExhausted(); }

    /** @return {@link Latencies#latency()} */
    public LatencySummary latency() { return latencies.latency(); }

    /** @return {@link Latencies#operations()} */
    public Map<String, OperationResult> operations() { return latencies.operations(); }

    /** @return {@link Latencies#sendLag()} */
    public LatencySummary sendLag() { return latencies.sendLag(); }

    /** @return {@link Latencies#failureCauses()} */
    public Map<String, Long> failureCauses() { return latencies.failureCauses(); }

    /** @return {@link Latencies#maxOverrunNanos()}, ns */
    public long maxOverrunNanos() { return latencies.maxOverrunNanos(); }

    /** @return {@link Tracing#segments()} */
    public List<SegmentRow> segments() { return tracing.segments(); }

    /** @return {@link Tracing#tracedRequests()} */
    public long tracedRequests() { return tracing.tracedRequests(); }

    /** @return {@link ClientRetries#attempts()} */
    public long attempts() { return retries.attempts(); }

    /** @return {@link ClientRetries#retriesDenied()} */
    public long retriesDenied() { return retries.retriesDenied(); }

    /** @return {@link ClientRetries#abandoned()} */
    public long abandoned() { return retries.abandoned(); }

    /** @return {@link ClientRetries#attemptsStillRunning()} */
    public long attemptsStillRunning() { return retries.attemptsStillRunning(); }

    /** @return attempts per planned request: 1.0 when nobody retried; 0 for a run that offered nothing */
    public double amplification() {
        return offered() == 0 ? 0 : attempts() / (double) offered();
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
        return sendLag().p99Micros() * 1_000L <= slackNanos;
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

    /** @return completed requests per second of wall time */
    public double completedPerSecond() {
        return wallNanos == 0 ? 0 : completed() * 1_000_000_000.0 / wallNanos;
    }

    /**
     * How many requests the run planned and started.
     *
     * @param offered    requests planned and sent: {@code rate × duration} exactly (those whose thread could not start
     *                   are counted here and in {@code notStarted})
     * @param started    requests whose task began running
     * @param notStarted requests whose thread could not be created (the run says so, never hides it)
     */
    public record Requests(long offered, long started, long notStarted) {
    }

    /**
     * How requests ended, one count per {@link RequestOutcome}: of a whole run, or of one operation.
     *
     * @param completed     ok within the timeout (when callers retry: the last attempt was, within its own timeout)
     * @param timedOut      finished at or after planned start + timeout (the deadline had expired; when callers
     *                      retry: the last attempt's)
     * @param failed        an error before the timeout
     * @param rejected      refused at once by the service
     * @param poolExhausted nothing left to send (e.g. no pre-created order left to pay)
     */
    public record Outcomes(long completed, long timedOut, long failed, long rejected, long poolExhausted) {

        /** @return the counts {@code count} gives for each outcome */
        public static Outcomes counted(ToLongFunction<RequestOutcome> count) {
            return new Outcomes(count.applyAsLong(RequestOutcome.COMPLETED), count.applyAsLong(RequestOutcome.TIMED_OUT),
                    count.applyAsLong(RequestOutcome.FAILED), count.applyAsLong(RequestOutcome.REJECTED),
                    count.applyAsLong(RequestOutcome.POOL_EXHAUSTED));
        }

        /** @return how many requests ended as {@code outcome} */
        public long count(RequestOutcome outcome) {
            return switch (outcome) {
                case COMPLETED -> completed;
                case TIMED_OUT -> timedOut;
                case FAILED -> failed;
                case REJECTED -> rejected;
                case POOL_EXHAUSTED -> poolExhausted;
            };
        }
    }

    /**
     * How long the requests took, and what lies behind it.
     *
     * @param latency         all requests that reached the service and were not rejected (completed, timed out, failed)
     * @param operations      the same, per operation, by operation name
     * @param sendLag         how late each request's task actually started against its plan
     * @param failureCauses   failed and timed-out requests by exception class (timed out without an error: "none")
     * @param maxOverrunNanos the largest amount by which a request finished past its deadline, ns, 0 if none did; when
     *                        callers retry, by which the service answered an attempt past that attempt's deadline,
     *                        whether its caller still waited or not (how long the service worked for a caller that
     *                        had given up)
     */
    public record Latencies(
            LatencySummary latency,
            Map<String, OperationResult> operations,
            LatencySummary sendLag,
            Map<String, Long> failureCauses,
            long maxOverrunNanos) {
    }

    /**
     * "Where the time went", from the requests that were traced.
     *
     * @param segments       per operation and segment (empty when tracing is off)
     * @param tracedRequests how many requests were traced
     */
    public record Tracing(List<SegmentRow> segments, long tracedRequests) {

        /** Tracing was off: no segment, no traced request. */
        public static final Tracing NONE = new Tracing(List.of(), 0);
    }

    /**
     * The attempts of callers that retry.
     *
     * @param attempts             attempts the callers sent, first attempts and retries ({@code == started} when nobody
     *                             retried)
     * @param retriesDenied        retries the {@link RetryBudget} did not allow (the request ended with its last
     *                             attempt's outcome)
     * @param abandoned            attempts the caller stopped waiting for at their deadline, the service still working
     *                             on them
     * @param attemptsStillRunning abandoned attempts the service was still working on when the runner stopped waiting
     *                             (a hang: reported, never hidden; their requests had ended, so they are not in
     *                             {@code unfinished})
     */
    public record ClientRetries(long attempts, long retriesDenied, long abandoned, long attemptsStillRunning) {

        /** @return a run whose callers never retried: one attempt per started request, nothing denied or abandoned */
        public static ClientRetries none(long started) {
            return new ClientRetries(started, 0, 0, 0);
        }
    }

    /**
     * One operation's share of the run.
     *
     * @param operation e.g. "pay"
     * @param offered   requests of this operation the run planned, whether or not they started or finished
     * @param outcomes  how its requests ended
     * @param latency   latencies of its completed, timed-out and failed requests
     */
    public record OperationResult(String operation, long offered, @JsonUnwrapped Outcomes outcomes,
                                  LatencySummary latency) {

        /** @return {@link Outcomes#completed()} */
        public long completed() { return outcomes.completed(); }

        /** @return {@link Outcomes#timedOut()} */
        public long timedOut() { return outcomes.timedOut(); }

        /** @return {@link Outcomes#failed()} */
        public long failed() { return outcomes.failed(); }

        /** @return {@link Outcomes#rejected()} */
        public long rejected() { return outcomes.rejected(); }

        /** @return {@link Outcomes#poolExhausted()} */
        public long poolExhausted() { return outcomes.poolExhausted(); }
    }

    /**
     * Builds a {@link RunResult} part by part. {@link #requests}, {@link #outcomes} and {@link #latencies} must be
     * set; the other parts default to none (no tracing, no warm-up, no timeline, no hiccup probe, nobody retrying:
     * one attempt per started request). Not thread-safe.
     */
    public static final class Builder {
        private LoadSpec spec;
        private Requests requests;
        private Outcomes outcomes;
        private long unfinished;
        private long wallNanos;
        private Latencies latencies;
        private Tracing tracing = Tracing.NONE;
        private long warmupRequests;
        private RunTimeline timeline = RunTimeline.NONE;
        private HiccupSummary hiccups = HiccupSummary.NONE;
        private ClientRetries retries;

        private Builder() {
        }

        /** @see RunResult#spec() */
        public Builder spec(LoadSpec s) { spec = s; return this; }

        /** @see RunResult#requests() */
        public Builder requests(Requests r) { requests = r; return this; }

        /** @see RunResult#outcomes() */
        public Builder outcomes(Outcomes o) { outcomes = o; return this; }

        /** @see RunResult#unfinished() */
        public Builder unfinished(long n) { unfinished = n; return this; }

        /** @see RunResult#wallNanos() */
        public Builder wallNanos(long ns) { wallNanos = ns; return this; }

        /** @see RunResult#latencies() */
        public Builder latencies(Latencies l) { latencies = l; return this; }

        /** @see RunResult#tracing() */
        public Builder tracing(Tracing t) { tracing = t; return this; }

        /** @see RunResult#warmupRequests() */
        public Builder warmupRequests(long n) { warmupRequests = n; return this; }

        /** @see RunResult#timeline() */
        public Builder timeline(RunTimeline t) { timeline = t; return this; }

        /** @see RunResult#hiccups() */
        public Builder hiccups(HiccupSummary h) { hiccups = h; return this; }

        /** @see RunResult#retries() */
        public Builder retries(ClientRetries r) { retries = r; return this; }

        /**
         * @return the result; when no {@link #retries} were set, nobody retried ({@link ClientRetries#none} of the
         *         started requests)
         * @throws NullPointerException when requests, outcomes or latencies were not set
         */
        public RunResult build() {
            Objects.requireNonNull(requests, "requests");
            return new RunResult(spec, requests, outcomes, unfinished, wallNanos, latencies, tracing, warmupRequests,
                    timeline, hiccups, retries == null ? ClientRetries.none(requests.started()) : retries);
        }
    }
}
