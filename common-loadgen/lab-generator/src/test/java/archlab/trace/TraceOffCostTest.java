package archlab.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The article's warning about monitoring on the hot path, as a contract: tracing off costs no allocation. */
class TraceOffCostTest {

    @Test
    @DisplayName("with tracing off, opening and closing spans allocates nothing")
    void traceOffAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Trace off = Trace.OFF;
        for (int i = 0; i < 20_000; i++) { // warm up: let the JIT settle so class loading is not counted
            spans(off);
        }
        // five trials: a one-off (a JIT transition) may allocate a few bytes once; a span that allocated
        // would cost at least 16 bytes × 200,000 spans = 3.2 MB in every trial
        long[] trials = new long[5];
        for (int t = 0; t < trials.length; t++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                spans(off);
            }
            trials[t] = threads.getCurrentThreadAllocatedBytes() - before;
        }
        assertThat(java.util.Arrays.stream(trials).min().orElseThrow())
                .as("bytes allocated by 100,000 requests' worth of spans, best of %s", java.util.Arrays.toString(trials))
                .isZero();
        assertThat(java.util.Arrays.stream(trials).max().orElseThrow()).as("no trial allocates per span").isLessThan(1_024);
    }

    private static void spans(Trace t) {
        try (Span a = t.span("lock.wait")) {
            try (Span b = t.span("payment")) {
                b.close();
            }
        }
    }
}
