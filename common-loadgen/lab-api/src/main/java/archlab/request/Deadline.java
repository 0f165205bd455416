package archlab.request;

import archlab.clock.NanoClock;
import java.time.Duration;

/**
 * The instant by which a request must be finished: the Java counterpart of the deadline a Go
 * {@code context.Context} carries. The open-loop runner sets it to <em>planned start + timeout</em>
 * and hands it to the service, which passes it on to every downstream call.
 *
 * @param atNanos the deadline as a {@link NanoClock} reading, in nanoseconds
 */
public record Deadline(long atNanos) {

    /** A deadline far enough away never to pass in a test or a load run (about 146 years). */
    public static final Deadline NONE = new Deadline(Long.MAX_VALUE);

    /**
     * @param clock   the clock the deadline is measured on
     * @param timeout how long from now; must not be negative
     * @return the deadline {@code timeout} after the clock's current reading
     */
    public static Deadline after(NanoClock clock, Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return new Deadline(saturatedAdd(clock.nanoTime(), saturatedNanos(timeout)));
    }

    /** @return nanoseconds left before the deadline on {@code clock}; zero or negative once it passed */
    public long remainingNanos(NanoClock clock) {
        if (atNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        long now = clock.nanoTime();
        long remaining = atNanos - now;
        if (((atNanos ^ now) & (atNanos ^ remaining)) < 0) {
            // overflowed: the true difference is beyond the long range on the side of atNanos's sign
            return atNanos < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return remaining;
    }

    /** @return whether the deadline has passed on {@code clock} */
    public boolean isExpired(NanoClock clock) {
        return remainingNanos(clock) <= 0;
    }

    /** @return the earlier of this deadline and {@code budget} from now: a per-call timeout carved out of this one */
    public Deadline within(NanoClock clock, Duration budget) {
        Deadline perCall = after(clock, budget);
        return perCall.atNanos < atNanos ? perCall : this;
    }

    /** {@link Duration#toNanos()} throws beyond about 292 years; a deadline that far away is as good as none. */
    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
