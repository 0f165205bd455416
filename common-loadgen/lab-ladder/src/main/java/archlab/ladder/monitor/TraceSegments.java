package archlab.ladder.monitor;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the traces say, read as a monitoring back end reads them: each ended span's duration summed under its name, so
 * that each stage's mean can be estimated from the traces kept — every request's when every request is traced, a
 * sample's when one in a hundred is — with the estimate's sampling error ({@link Estimate}). A span the sampler dropped
 * never reaches a processor, so it is not counted.
 *
 * <p>The interval is the textbook one for a mean drawn from a finite population without replacement: Student's t at
 * 95 % (commons-math3) times the standard error, times the finite-population correction √((N − n)/(N − 1)). When every
 * request is traced (n = N) the traces are the population and the interval is 0: their mean is every request's mean
 * by construction. The interval assumes the traces kept are a fair draw and enough of them for their mean to be about
 * normal; a long-tailed stage, or a cost one request in a hundred pays, needs more traces than a short run keeps.
 *
 * <p>Thread-safety: {@link #onEnd} from any thread at once; {@link #estimates} and {@link #reset} whenever (a reset
 * while spans end may count some of them on either side).
 */
public final class TraceSegments implements SpanProcessor {

    /**
     * One span name's durations, estimated from the spans kept.
     *
     * @param spans          spans counted
     * @param meanMicros     their mean duration, µs
     * @param sdMicros       their standard deviation, µs (0 with fewer than two)
     * @param halfWidthMicros the half-width of the mean's 95 % interval, µs (see the class); infinite with fewer than two
     *                       spans (no error can be stated)
     */
    public record Estimate(long spans, double meanMicros, double sdMicros, double halfWidthMicros) {

        /** @return whether {@code micros} lies inside the mean's 95 % interval */
        public boolean covers(double micros) {
            return Math.abs(micros - meanMicros) <= halfWidthMicros;
        }
    }

    private record Sums(LongAdder count, DoubleAdder micros, DoubleAdder squares) {
        Sums() {
            this(new LongAdder(), new DoubleAdder(), new DoubleAdder());
        }
    }

    private final Map<String, Sums> byName = new ConcurrentHashMap<>();

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
    }

    @Override
    public boolean isStartRequired() {
        return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {
        double micros = span.getLatencyNanos() / 1_000.0;
        Sums s = byName.computeIfAbsent(span.getName(), n -> new Sums());
        s.count.increment();
        s.micros.add(micros);
        s.squares.add(micros * micros);
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    /** Forgets every span counted so far (the warm-up's). */
    public void reset() {
        byName.clear();
    }

    /**
     * @param population the requests the traces were drawn from (the answered requests of the phase)
     * @return each span name's estimate so far, by name
     */
    public Map<String, Estimate> estimates(long population) {
        Map<String, Estimate> m = new TreeMap<>();
        byName.forEach((name, s) -> m.put(name, estimate(s.count.sum(), s.micros.sum(), s.squares.sum(), population)));
        return m;
    }

    /**
     * @param n          durations
     * @param sum        their sum, µs
     * @param squares    the sum of their squares, µs²
     * @param population the requests they were drawn from (at least {@code n}; fewer is taken as {@code n})
     * @return the estimate of the population's mean
     */
    static Estimate estimate(long n, double sum, double squares, long population) {
        if (n == 0) {
            return new Estimate(0, 0, 0, Double.POSITIVE_INFINITY);
        }
        double mean = sum / n;
        if (n < 2) {
            return new Estimate(n, mean, 0, Double.POSITIVE_INFINITY);
        }
        double sd = Math.sqrt(Math.max(0, (squares - n * mean * mean) / (n - 1)));
        long big = Math.max(population, n);
        double finite = big <= 1 ? 0 : Math.sqrt((big - n) / (double) (big - 1));
        double t = new org.apache.commons.math3.distribution.TDistribution(n - 1).inverseCumulativeProbability(0.975);
        return new Estimate(n, mean, sd, t * sd / Math.sqrt(n) * finite);
    }
}
