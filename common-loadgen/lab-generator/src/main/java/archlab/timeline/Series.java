package archlab.timeline;

/**
 * The histograms an {@link IntervalRecorder} keeps per interval, and the tag each carries in the interval log
 * ({@code <name>.hlog}). The trap it avoids: one histogram per interval cannot say whether a bad interval was slow
 * answers, timeouts, refusals, a late generator or a stalled machine; one per outcome, plus the generator's send lag
 * and the probe's hiccups, can.
 *
 * <p>Every value is in nanoseconds. The measured run's {@link #LATENCY} is written untagged, so that HdrHistogram's
 * own {@code HistogramLogProcessor -i <name>.hlog} reads the run's latency by default (the report's {@code latency}
 * line, interval by interval); every other series, and every series of a warm-up phase, is tagged
 * ({@code -tag hiccup}, {@code -tag warmup.latency}).
 */
public enum Series {
    /** Completed, timed-out and failed requests by when they ended: what the report's latency line holds. */
    LATENCY("latency"),
    /** Requests that completed within the timeout, by when they ended. */
    COMPLETED("completed"),
    /** Requests that ended at or past their deadline. */
    TIMED_OUT("timed_out"),
    /** Requests that failed before their deadline. */
    FAILED("failed"),
    /** Requests the service refused at once (latency recorded, not in {@link #LATENCY}). */
    REJECTED("rejected"),
    /** Requests the workload had nothing to send for (not in {@link #LATENCY}). */
    POOL_EXHAUSTED("pool_exhausted"),
    /** How late each request started against its plan, by when it started: the count is requests started. */
    SEND_LAG("send_lag"),
    /** The {@link HiccupProbe}'s hiccups (time-weighted). */
    HICCUP("hiccup"),
    /** Retries the callers sent, by when they were sent: the count is retries (every value is 0). */
    RETRIED("retried");

    private final String name;

    Series(String name) {
        this.name = name;
    }

    /**
     * @param phase the interval's phase ({@link Interval#RUN}, {@link Interval#WARMUP}, {@link Interval#JIT_WARMUP})
     * @return the histogram's tag in the log: null (untagged) for the run's latency, the series' name for the run's
     *         other series, {@code <phase>.<name>} for a warm-up's
     */
    public String tag(String phase) {
        if (Interval.RUN.equals(phase)) {
            return this == LATENCY ? null : name;
        }
        return phase + "." + name;
    }
}
