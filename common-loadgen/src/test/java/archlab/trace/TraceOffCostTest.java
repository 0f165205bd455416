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
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            spans(off);
        }
        long after = threads.getCurrentThreadAllocatedBytes();
        assertThat(after - before).as("bytes allocated by 100,000 requests' worth of spans").isZero();
    }

    private static void spans(Trace t) {
        try (Span a = t.span("lock.wait")) {
            try (Span b = t.span("payment")) {
                b.close();
            }
        }
    }
}
