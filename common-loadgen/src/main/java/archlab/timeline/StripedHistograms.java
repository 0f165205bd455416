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
 * cache lines and holds one histogram per series, all made by the first thread that writes to it (so they sit in that
 * thread's allocation buffer, on no line another stripe's writer touches, and a warmed stripe allocates nothing
 * whatever series come). A write is one uncontended compare-and-set, plain increments and one release store; two
 * threads on two stripes share no line. The sampler claims each stripe in turn and moves its values out; a writer
 * that finds its stripe claimed writes to another one meanwhile.
 *
 * <p>Memory: as many sets of histograms as stripes in use, each one histogram per series — what one concurrent
 * HdrHistogram {@code Recorder} per series held (two count arrays each, and a spare after its first swap).
 *
 * <p>Thread-safety: {@link #record} from any thread; {@link #drainInto} from one thread at a time.
 */
final class StripedHistograms {

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

    /** @return the stripes for this machine: twice its cores, so that running threads seldom share a home */
    static int defaultStripes() {
        return 2 * Runtime.getRuntime().availableProcessors();
    }

    /** Records {@code value} (already clamped to the histograms' range) in series {@code s}. Allocates only on a stripe's first write. */
    void record(int s, long value) {
        Stripe stripe = claim();
        try {
            Histogram[] h = stripe.histograms;
            if (h == null) {
                h = firstUse(stripe);
            }
            h[s].recordValue(value);
        } finally {
            stripe.release();
        }
    }

    /** A stripe's first write: every series' histogram at once, made by the writing thread. */
    private Histogram[] firstUse(Stripe stripe) {
        Histogram[] h = new Histogram[series];
        for (int i = 0; i < series; i++) {
            h[i] = newHistogram.get();
        }
        stripe.histograms = h;
        return h;
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
                if (other.histograms != null && other.tryClaim()) { // a hint read; under the claim it holds
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
     * {@code s}'s values.
     */
    void drainInto(Histogram[] into) {
        for (Histogram h : into) {
            if (h.getTotalCount() > 0) {
                h.reset();
            }
        }
        for (Stripe stripe : stripes) {
            stripe.claimWaiting();
            try {
                Histogram[] h = stripe.histograms;
                if (h == null) {
                    continue;
                }
                for (int s = 0; s < series; s++) {
                    if (h[s].getTotalCount() > 0) {
                        into[s].add(h[s]);
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
        /** One histogram per series, null before the stripe's first write; read and written by the one claiming it. */
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
