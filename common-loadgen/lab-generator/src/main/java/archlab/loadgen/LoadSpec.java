package archlab.loadgen;

import java.time.Duration;

/**
 * What an open-loop run offers: a rate, a duration, a timeout and how requests are scheduled.
 * Invalid settings are refused at construction with a message that names the setting. Built from {@link #book()}'s
 * load: its {@code with…} copies, or {@link #builder()}.
 *
 * @param ratePerSecond planned requests per second; 1 to 1,000,000
 * @param duration      how long requests are planned for; {@code ratePerSecond × duration} must be at least 1
 * @param timeout       a request slower than this (from its planned start) is timed out; also its deadline
 * @param arrival       fixed interval (the book's) or seeded Poisson
 * @param threads       the kind of thread each request runs on
 * @param warmup        a run at the same rate before the measured one, excluded from the figures; ZERO for none
 * @param traceEvery    segment tracing: 0 = off, 1 = every request, N = one request in N
 * @param retries       how the callers retry a request that timed out, failed or was refused; {@link ClientRetryPolicy#NONE}
 *                      for never (each planned request is sent once)
 */
public record LoadSpec(
        int ratePerSecond,
        Duration duration,
        Duration timeout,
        Arrival arrival,
        ThreadKind threads,
        Duration warmup,
        int traceEvery,
        ClientRetryPolicy retries) {

    /**
     * The book's load: 1,500 req/s for 3 s, 200 ms timeout, fixed interval, no warm-up, every request
     * traced, one virtual thread per request (the counterpart of the book's goroutine per request; with
     * platform threads this 2-core machine could not even start the requests on time once a thousand
     * of them were blocked: send lag p50 ≈ 0.5 s).
     */
    public static LoadSpec book() {
        return builder().build();
    }

    /** @return a builder holding {@link #book()}'s load, setting by setting */
    public static Builder builder() {
        return new Builder();
    }

    public LoadSpec {
        java.util.Objects.requireNonNull(retries, "retries");
        if (ratePerSecond < 1 || ratePerSecond > 1_000_000) {
            throw new IllegalArgumentException("ratePerSecond must be 1..1,000,000, was " + ratePerSecond);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, was " + duration);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        if (arrival == null || threads == null) {
            throw new IllegalArgumentException("arrival and threads are required");
        }
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("warmup must be zero or positive, was " + warmup);
        }
        if (traceEvery < 0) {
            throw new IllegalArgumentException("traceEvery must be 0 (off), 1 (all) or N (1 in N), was " + traceEvery);
        }
        long planned = plannedRequests(ratePerSecond, duration);
        if (planned < 1 || planned > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("rate × duration must plan 1.." + Integer.MAX_VALUE
                    + " requests, was " + planned + " (" + ratePerSecond + "/s × " + duration + ")");
        }
        if (plannedRequests(ratePerSecond, warmup) > Integer.MAX_VALUE) {
            // warmupRequests() would wrap to a negative int and the warm-up would be skipped silently
            throw new IllegalArgumentException("warmup must plan at most " + Integer.MAX_VALUE
                    + " requests (" + ratePerSecond + "/s × " + warmup + ")");
        }
    }

    /** @return exactly how many requests the run offers: {@code floor(rate × duration)} */
    public int plannedRequests() {
        return (int) plannedRequests(ratePerSecond, duration);
    }

    /** @return how many requests the warm-up offers */
    public int warmupRequests() {
        return (int) plannedRequests(ratePerSecond, warmup);
    }

    /** floor(rate × d) for rate ≥ 1 and d ≥ 0, saturating at Long.MAX_VALUE instead of overflowing. */
    private static long plannedRequests(int rate, Duration d) {
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE; // beyond about 292 years
        }
        long product = rate * nanos;
        // the product is non-negative: it overflowed if the high half is set or the sign bit is
        return Math.multiplyHigh(rate, nanos) != 0 || product < 0 ? Long.MAX_VALUE : product / 1_000_000_000L;
    }

    public LoadSpec withRate(int rate) {
        return new LoadSpec(rate, duration, timeout, arrival, threads, warmup, traceEvery, retries);
    }

    public LoadSpec withDuration(Duration d) {
        return new LoadSpec(ratePerSecond, d, timeout, arrival, threads, warmup, traceEvery, retries);
    }

    public LoadSpec withTimeout(Duration t) {
        return new LoadSpec(ratePerSecond, duration, t, arrival, threads, warmup, traceEvery, retries);
    }

    public LoadSpec withArrival(Arrival a) {
        return new LoadSpec(ratePerSecond, duration, timeout, a, threads, warmup, traceEvery, retries);
    }

    public LoadSpec withThreads(ThreadKind kind) {
        return new LoadSpec(ratePerSecond, duration, timeout, arrival, kind, warmup, traceEvery, retries);
    }

    public LoadSpec withWarmup(Duration w) {
        return new LoadSpec(ratePerSecond, duration, timeout, arrival, threads, w, traceEvery, retries);
    }

    /** @return this load with callers that retry as {@code r} says */
    public LoadSpec withRetries(ClientRetryPolicy r) {
        return new LoadSpec(ratePerSecond, duration, timeout, arrival, threads, warmup, traceEvery,
                java.util.Objects.requireNonNull(r, "retries"));
    }

    public LoadSpec withTraceEvery(int n) {
        return new LoadSpec(ratePerSecond, duration, timeout, arrival, threads, warmup, n, retries);
    }

    /** Builds a {@link LoadSpec} setting by setting, from the book's load; {@link #build} checks it. Not thread-safe. */
    public static final class Builder {
        private int ratePerSecond = 1_500;
        private Duration duration = Duration.ofSeconds(3);
        private Duration timeout = Duration.ofMillis(200);
        private Arrival arrival = Arrival.fixed();
        private ThreadKind threads = ThreadKind.VIRTUAL;
        private Duration warmup = Duration.ZERO;
        private int traceEvery = 1;
        private ClientRetryPolicy retries = ClientRetryPolicy.NONE;

        private Builder() {
        }

        /** @see LoadSpec#ratePerSecond() */
        public Builder ratePerSecond(int rate) { ratePerSecond = rate; return this; }

        /** @see LoadSpec#duration() */
        public Builder duration(Duration d) { duration = d; return this; }

        /** @see LoadSpec#timeout() */
        public Builder timeout(Duration t) { timeout = t; return this; }

        /** @see LoadSpec#arrival() */
        public Builder arrival(Arrival a) { arrival = a; return this; }

        /** @see LoadSpec#threads() */
        public Builder threads(ThreadKind kind) { threads = kind; return this; }

        /** @see LoadSpec#warmup() */
        public Builder warmup(Duration w) { warmup = w; return this; }

        /** @see LoadSpec#traceEvery() */
        public Builder traceEvery(int n) { traceEvery = n; return this; }

        /** @see LoadSpec#retries() */
        public Builder retries(ClientRetryPolicy r) { retries = r; return this; }

        /**
         * @return the load
         * @throws IllegalArgumentException if a setting is invalid (the message names it)
         */
        public LoadSpec build() {
            return new LoadSpec(ratePerSecond, duration, timeout, arrival, threads, warmup, traceEvery, retries);
        }
    }
}
