package archlab.downstream;

/**
 * Decides, deterministically, which calls of a stub fail.
 *
 * <p>{@link #failsCall(long)} is a pure function of ({@code seed}, call index): it takes the
 * {@code callIndex}-th output of a SplitMix64 generator started at {@code seed}, maps it to a number
 * in [0, 1) and compares it with {@code rate}. So the same call indices fail on every run with the
 * same seed, whatever the thread interleaving, and about {@code rate} of all calls fail.
 *
 * <p>Immutable and thread-safe.
 *
 * @param seed any value; different seeds give unrelated sets of failing calls
 * @param rate the fraction of calls that fail, in [0, 1]; 0 = never, 1 = always
 */
public record ErrorInjection(long seed, double rate) implements FaultModel {

    /** No call fails. */
    public static final ErrorInjection NONE = new ErrorInjection(0L, 0.0);

    /** SplitMix64's increment: 2^64 divided by the golden ratio, odd. */
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /** 2^-53: turns the top 53 bits of a long into a double in [0, 1). */
    private static final double UNIT = 0x1.0p-53;

    public ErrorInjection {
        if (!(rate >= 0.0 && rate <= 1.0)) { // also rejects NaN
            throw new IllegalArgumentException("error rate must be in [0, 1], was " + rate);
        }
    }

    /**
     * @param callIndex the call's number at its stub, 0-based in arrival order
     * @return whether that call fails
     */
    @Override
    public boolean failsCall(long callIndex) {
        if (rate == 0.0) {
            return false;
        }
        long bits = mix64(seed + GOLDEN_GAMMA * (callIndex + 1));
        double uniform = (bits >>> 11) * UNIT;
        return uniform < rate;
    }

    /**
     * An injection with the same rate for another fault stream, so that two fault kinds of one run
     * (say, declines and lost replies) fail unrelated calls even though they share one run seed.
     *
     * @param seed   the run's seed
     * @param stream a small number naming the fault stream, distinct per stream
     * @param rate   the fraction of calls that fail, in [0, 1]
     */
    public static ErrorInjection forStream(long seed, int stream, double rate) {
        return new ErrorInjection(mix64(seed ^ mix64(stream + GOLDEN_GAMMA)), rate);
    }

    /** SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijective scramble of 64 bits. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
