package archlab.loadgen;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A retry budget shared by the callers of one phase of a run (the measured run and a runner warm-up have one each): retries may add at most {@code ratio} of the first attempts, plus
 * a small reserve so a quiet service still gets its odd retry (the idea of Finagle's and gRPC's retry budgets).
 *
 * <p>The trap it avoids: "3 attempts" is a per-request limit, and a per-request limit does not bound the load. When
 * every request times out, every request retries, and 3 attempts triple the load on a service that is already
 * drowning. A budget bounds the total: at 10 %, however many attempts time out, the run sends at most 1.1× its
 * requests (plus the reserve).
 *
 * <p>Accounting, in thousandths of a retry: the balance starts full at {@code reserve}; each first attempt deposits
 * {@code ratio}, never above {@code reserve}; each retry withdraws one, and a retry that finds less than one is not
 * sent.
 *
 * <p>Thread-safe, lock-free.
 */
public final class RetryBudget {

    /**
     * @param ratio   retries earned per first attempt, in [0, 1]
     * @param reserve retries the balance holds at most (and starts with); at least 1
     */
    public record BudgetSettings(double ratio, int reserve) {
        public BudgetSettings {
            if (!(ratio >= 0 && ratio <= 1)) {
                throw new IllegalArgumentException("a retry budget's ratio must be in [0, 1], was " + ratio);
            }
            if (reserve < 1) {
                throw new IllegalArgumentException("a retry budget's reserve must be at least 1, was " + reserve);
            }
        }

        /** @return e.g. {@code 10%+10} */
        public String describe() {
            return String.format(Locale.ROOT, "%.0f%%+%d", ratio * 100, reserve);
        }
    }

    private static final long MILLI = 1_000L;

    private final long depositMilli;
    private final long capacityMilli;
    private final AtomicLong balanceMilli;
    private final LongAdder granted = new LongAdder();
    private final LongAdder denied = new LongAdder();

    public RetryBudget(BudgetSettings settings) {
        this.depositMilli = Math.round(settings.ratio() * MILLI);
        this.capacityMilli = settings.reserve() * MILLI;
        this.balanceMilli = new AtomicLong(capacityMilli);
    }

    /** A first attempt was sent: earns {@code ratio} of a retry. */
    public void firstAttempt() {
        balanceMilli.getAndUpdate(b -> Math.min(capacityMilli, b + depositMilli));
    }

    /** @return whether a retry may be sent now; if so, it is paid for */
    public boolean tryRetry() {
        while (true) {
            long b = balanceMilli.get();
            if (b < MILLI) {
                denied.increment();
                return false;
            }
            if (balanceMilli.compareAndSet(b, b - MILLI)) {
                granted.increment();
                return true;
            }
        }
    }

    /** @return the balance now, in retries (fractional) */
    public double balance() {
        return balanceMilli.get() / (double) MILLI;
    }

    /** @return retries the budget allowed */
    public long granted() {
        return granted.sum();
    }

    /** @return retries the budget refused */
    public long denied() {
        return denied.sum();
    }
}
