package archlab.timeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * A few series of histograms written from any number of threads at once, read by one sampler. The trap it fixes is
 * the article's contended cache line, in the lab's own instrument: one HdrHistogram {@code Recorder} per series,
 * written by every request's thread, means every write increments the same few counters (the recorder's phaser, the
 * histogram's phaser and total count) and neighbouring buckets share lines too (the article's false sharing) — lines
 * that two cores take from each other on every request, so two threads each paid many times what one thread paid
 * alone.
 *
 * <p>Here each thread writes to one of a few <em>stripes</em>: its home stripe (picked by its thread id) or, when that
 * one is busy, another stripe already in use that is free. Each stripe is guarded by a claim flag padded to its own
 * cache lines and holds, per series, a buffer of the raw values recorded since the sampler last came ({@value #BUFFER}
 * of them) — made by the first thread that writes to the stripe, so they sit in that thread's allocation buffer, on no
 * line another stripe's writer touches. A write is one uncontended compare-and-set, one plain store of the value and
 * of the count, and one release store; two threads on two stripes share no line. A full buffer is folded into the
 * stripe's own histograms (made then, every series at once: a warmed stripe allocates nothing whatever series come).
 *
 * <p>The sampler claims each stripe in turn and records its buffered values into one histogram per series, so that
 * an interval costs it what was recorded in it (at the book's rate, a hundred or so values a series), not a walk over
 * every count of a one-hour histogram; only a stripe whose buffers overflowed has histograms to add as well. A writer
 * that finds its stripe claimed writes to another one meanwhile.
 *
 * <p>Memory: per stripe in use, {@value #BUFFER} values a series; the histograms only once a buffer overflowed (a rate
 * of tens of thousands of requests a second per stripe, or a test that never lets the sampler in).
 *
 * <p>Thread-safety: {@link #record} from any thread; {@link #drainInto} from one thread at a time.
 */
final class StripedHistograms {

    /** Values a stripe buffers per series between two drains before it folds them into its histograms. */
    static final int BUFFER = 4_096;

    private final int series;
    private final Supplier<Histogram> newHistogram;
    private final Stripe[] stripes;
    private final int mask;

    /**
     * @param series       how many series (indices {@code 0 .. series-1})
     * @param stripes      how many stripes; rounded up to a power of two
     * @param newHistogram makes an empty histogram; all must be alike (the sampler adds them up)
     */
    StripedHistograms(int series, int stripes, Supplier<Histogram> newHistogram) {
        this.series = series;
        this.newHistogram = newHistogram;
        int n = Integer.highestOneBit(Math.max(1, stripes) * 2 - 1);
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            this.stripes[i] = new Stripe();
        }
        this.mask = n - 1;
    }

    /**
     * @return the stripes for this machine: one per core (at least two), as at most that many threads write at once;
     *         every stripe in use is one more the sampler visits each interval, so no more than that
     */
    static int defaultStripes() {
        return Math.max(2, Runtime.getRuntime().availableProcessors());
    }

    /** Records {@code value} (already clamped to the histograms' range) in series {@code s}. Allocates only on a stripe's first write and first overflow. */
    void record(int s, long value) {
        Stripe stripe = claim();
        try {
            long[][] values = stripe.values;
            if (values == null) {
                values = firstUse(stripe);
            }
            int n = stripe.counts[s];
            if (n == BUFFER) {
                fold(stripe, s);
                n = 0;
            }
            values[s][n] = value;
            stripe.counts[s] = n + 1;
        } finally {
            stripe.release();
        }
    }

    /** A stripe's first write: every series' buffer at once, made by the writing thread. */
    private long[][] firstUse(Stripe stripe) {
        long[][] values = new long[series][BUFFER];
        stripe.counts = new int[series];
        stripe.values = values;
        return values;
    }

    /** A full buffer: its values into the stripe's histogram of series {@code s} (every series' made on the first). */
    private void fold(Stripe stripe, int s) {
        Histogram[] h = stripe.histograms;
        if (h == null) {
            h = new Histogram[series];
            for (int i = 0; i < series; i++) {
                h[i] = newHistogram.get();
            }
            stripe.histograms = h;
        }
        long[] buffered = stripe.values[s];
        for (int i = 0; i < BUFFER; i++) {
            h[s].recordValue(buffered[i]);
        }
        stripe.counts[s] = 0;
    }

    /** @return a stripe this thread now holds: its home, else a free stripe in use, else its home once free */
    private Stripe claim() {
        int home = (int) Thread.currentThread().threadId() & mask;
        Stripe own = stripes[home];
        if (own.tryClaim()) {
            return own;
        }
        while (true) {
            for (int k = 1; k <= mask; k++) {
                Stripe other = stripes[(home + k) & mask];
                if (other.values != null && other.tryClaim()) { // a hint read; under the claim it holds
                    return other;
                }
            }
            if (own.tryClaim()) {
                return own;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Moves every value recorded since the last call into {@code into}: {@code into[s]} is reset, then holds series
     * {@code s}'s values; each is also recorded in {@code alsoInto[s]} where that is not null (not reset here).
     */
    void drainInto(Histogram[] into, Histogram[] alsoInto) {
        for (Histogram h : into) {
            if (h.getTotalCount() > 0) {
                h.reset();
            }
        }
        for (Stripe stripe : stripes) {
            stripe.claimWaiting();
            try {
                long[][] values = stripe.values;
                if (values == null) {
                    continue;
                }
                Histogram[] h = stripe.histograms;
                for (int s = 0; s < series; s++) {
                    int n = stripe.counts[s];
                    long[] buffered = values[s];
                    Histogram also = alsoInto[s];
                    for (int i = 0; i < n; i++) {
                        into[s].recordValue(buffered[i]);
                        if (also != null) {
                            also.recordValue(buffered[i]);
                        }
                    }
                    stripe.counts[s] = 0;
                    if (h != null && h[s].getTotalCount() > 0) { // the buffer overflowed since the last drain
                        into[s].add(h[s]);
                        if (also != null) {
                            also.add(h[s]);
                        }
                        h[s].reset();
                    }
                }
            } finally {
                stripe.release();
            }
        }
    }

    /** Padding before the claim: the claim's cache line holds nothing another stripe writes. */
    @SuppressWarnings("unused")
    private abstract static class LeftPad {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    private abstract static class Claim extends LeftPad {
        static final VarHandle CLAIMED;

        static {
            try {
                CLAIMED = MethodHandles.lookup().findVarHandle(Claim.class, "claimed", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** 1 while one thread writes this stripe (or the sampler swaps it). */
        volatile int claimed;
        /** Per series, the values buffered since the last drain and how many; null before the stripe's first write. */
        long[][] values;
        int[] counts;
        /** Per series, where full buffers were folded; null until one overflowed. All read and written by the one claiming it. */
        Histogram[] histograms;

        boolean tryClaim() {
            return claimed == 0 && CLAIMED.compareAndSet(this, 0, 1);
        }

        void claimWaiting() {
            while (!tryClaim()) {
                Thread.onSpinWait();
            }
        }

        void release() {
            CLAIMED.setRelease(this, 0);
        }
    }

    /** One stripe: its claim, padded on both sides to two cache lines (adjacent-line prefetch) from any neighbour. */
    @SuppressWarnings("unused")
    private static final class Stripe extends Claim {
        long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }
}
