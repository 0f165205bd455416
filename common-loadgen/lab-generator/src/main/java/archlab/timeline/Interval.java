package archlab.timeline;

/**
 * One interval of a run's timeline: what was offered, how it ended and how long it took, in that slice of time
 * only. The trap it answers: a run's aggregate p99 hides <em>when</em> it went up; per interval, a stall, a scenario's
 * outage window or a cold first second shows where it happened.
 *
 * <p>Requests are counted where they happened: {@code offered} by planned start, {@code started} by actual start,
 * every outcome by when the request ended. Times are relative to the start of the measured run (its first interval,
 * which begins a millisecond before its first planned start); a warm-up's intervals lie before 0. Immutable; built by
 * {@link #builder()}.
 *
 * @param phase            {@value #RUN}, {@value #WARMUP} (the runner's own warm-up at the run's rate, on its
 *                         fixture) or {@value #JIT_WARMUP} (the JIT warm-up on a scratch fixture, before this JVM's
 *                         first measured run)
 * @param startMillis      when the interval began, ms since the measured run began (negative for a warm-up)
 * @param lengthMillis     how long it lasted, ms (the interval's length, shorter at a phase's end)
 * @param offered          requests planned to start in it
 * @param started          requests that started in it
 * @param completed        requests that completed within their timeout in it
 * @param timedOut         requests that ended at or past their deadline in it
 * @param failed           requests that failed before their deadline in it
 * @param rejected         requests the service refused in it
 * @param poolExhausted    requests with nothing to send in it
 * @param p50Micros        p50 latency of the completed, timed-out and failed requests that ended in it, µs (0: none)
 * @param p99Micros        their p99, µs
 * @param maxMicros        their maximum, µs
 * @param sendLagP99Micros p99 of how late the requests that started in it started, µs
 * @param hiccupMaxMicros  the longest hiccup the probe saw in it, µs
 * @param retried          retries the callers sent in it (attempts beyond each request's first); 0 when nobody retries
 */
public record Interval(
        String phase,
        double startMillis,
        double lengthMillis,
        long offered,
        long started,
        long completed,
        long timedOut,
        long failed,
        long rejected,
        long poolExhausted,
        long p50Micros,
        long p99Micros,
        long maxMicros,
        long sendLagP99Micros,
        long hiccupMaxMicros,
        long retried) {

    /** The measured run. */
    public static final String RUN = "run";
    /** The runner's warm-up ({@code -Dlab.warmup}): the run's rate, on the run's own fixture, excluded. */
    public static final String WARMUP = "warmup";
    /** The JIT warm-up before a JVM's first measured run, on a scratch fixture, excluded. */
    public static final String JIT_WARMUP = "jit-warmup";

    /** @return completed requests per second of this interval (goodput); 0 for an interval of no length */
    public double goodputPerSecond() {
        return lengthMillis <= 0 ? 0 : completed * 1_000.0 / lengthMillis;
    }

    /** @return when the interval ended, ms since the measured run began */
    public double endMillis() {
        return startMillis + lengthMillis;
    }

    /** @return this interval in phase {@code p}, {@code shiftMillis} later */
    Interval moved(String p, double shiftMillis) {
        return toBuilder().phase(p).startMillis(startMillis + shiftMillis).build();
    }

    /** @return a builder of an interval where nothing happened: every figure 0, no phase */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding every figure of this interval, to build a copy that differs in some */
    public Builder toBuilder() {
        return new Builder().phase(phase).startMillis(startMillis).lengthMillis(lengthMillis).offered(offered)
                .started(started).completed(completed).timedOut(timedOut).failed(failed).rejected(rejected)
                .poolExhausted(poolExhausted).p50Micros(p50Micros).p99Micros(p99Micros).maxMicros(maxMicros)
                .sendLagP99Micros(sendLagP99Micros).hiccupMaxMicros(hiccupMaxMicros).retried(retried);
    }

    /** Builds an {@link Interval} figure by figure (units as the components'); a figure not set is 0. Not thread-safe. */
    public static final class Builder {
        private String phase;
        private double startMillis;
        private double lengthMillis;
        private long offered;
        private long started;
        private long completed;
        private long timedOut;
        private long failed;
        private long rejected;
        private long poolExhausted;
        private long p50Micros;
        private long p99Micros;
        private long maxMicros;
        private long sendLagP99Micros;
        private long hiccupMaxMicros;
        private long retried;

        private Builder() {
        }

        /** @see Interval#phase() */
        public Builder phase(String p) { phase = p; return this; }

        /** @see Interval#startMillis() */
        public Builder startMillis(double ms) { startMillis = ms; return this; }

        /** @see Interval#lengthMillis() */
        public Builder lengthMillis(double ms) { lengthMillis = ms; return this; }

        /** @see Interval#offered() */
        public Builder offered(long n) { offered = n; return this; }

        /** @see Interval#started() */
        public Builder started(long n) { started = n; return this; }

        /** @see Interval#completed() */
        public Builder completed(long n) { completed = n; return this; }

        /** @see Interval#timedOut() */
        public Builder timedOut(long n) { timedOut = n; return this; }

        /** @see Interval#failed() */
        public Builder failed(long n) { failed = n; return this; }

        /** @see Interval#rejected() */
        public Builder rejected(long n) { rejected = n; return this; }

        /** @see Interval#poolExhausted() */
        public Builder poolExhausted(long n) { poolExhausted = n; return this; }

        /** Sets p50, p99 and max latency at once, µs. @see Interval#p50Micros() */
        public Builder latencyMicros(long p50, long p99, long max) {
            return p50Micros(p50).p99Micros(p99).maxMicros(max);
        }

        /** @see Interval#p50Micros() */
        public Builder p50Micros(long us) { p50Micros = us; return this; }

        /** @see Interval#p99Micros() */
        public Builder p99Micros(long us) { p99Micros = us; return this; }

        /** @see Interval#maxMicros() */
        public Builder maxMicros(long us) { maxMicros = us; return this; }

        /** @see Interval#sendLagP99Micros() */
        public Builder sendLagP99Micros(long us) { sendLagP99Micros = us; return this; }

        /** @see Interval#hiccupMaxMicros() */
        public Builder hiccupMaxMicros(long us) { hiccupMaxMicros = us; return this; }

        /** @see Interval#retried() */
        public Builder retried(long n) { retried = n; return this; }

        /** @return the interval */
        public Interval build() {
            return new Interval(phase, startMillis, lengthMillis, offered, started, completed, timedOut, failed,
                    rejected, poolExhausted, p50Micros, p99Micros, maxMicros, sendLagP99Micros, hiccupMaxMicros, retried);
        }
    }
}
