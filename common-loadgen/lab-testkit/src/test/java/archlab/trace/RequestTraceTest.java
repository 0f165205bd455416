package archlab.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loadgen.testing.FakeClock;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestTraceTest {

    private static long selfSum(RequestTrace t) {
        long sum = 0;
        for (int i = 0; i < t.segmentCount(); i++) {
            sum += t.selfNanos(i);
        }
        return sum;
    }

    @Test
    @DisplayName("scheduling + segments' self + unmarked = end − planned start, exactly, for a known request")
    void selfTimesAddUpToLatency() {
        FakeClock clock = new FakeClock(10_000);
        RequestTrace t = new RequestTrace(clock, 10_000);
        clock.advance(500);
        t.begin(clock.nanoTime());                 // scheduling 500
        clock.advance(100);                        // unmarked 100
        try (Span a = t.span("db")) {
            clock.advance(2_000);                  // db 2,000
        }
        clock.advance(25);                         // unmarked 25
        try (Span b = t.span("payment")) {
            clock.advance(7_000);                  // payment 7,000
        }
        clock.advance(75);                         // unmarked 75
        t.finish(clock.nanoTime());

        assertThat(t.selfNanos(Segments.SCHEDULING)).isEqualTo(500);
        assertThat(t.selfNanos("db")).isEqualTo(2_000);
        assertThat(t.selfNanos("payment")).isEqualTo(7_000);
        assertThat(t.selfNanos(Segments.UNMARKED)).isEqualTo(200);
        assertThat(t.totalNanos()).isEqualTo(9_700);
        assertThat(selfSum(t)).isEqualTo(t.totalNanos());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    @DisplayName("for random nestings and random durations the self times still add up exactly to the latency")
    void selfTimesAddUpForRandomNestings(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        FakeClock clock = new FakeClock(random.nextLong(1_000_000));
        long planned = clock.nanoTime();
        RequestTrace t = new RequestTrace(clock, planned);
        clock.advance(random.nextLong(100_000));
        t.begin(clock.nanoTime());
        String[] names = {"lock.wait", "db", "payment", "inventory", "notify"};
        int depth = 0;
        for (int step = 0; step < 200; step++) {
            clock.advance(random.nextLong(10_000));
            if (depth < 10 && random.nextBoolean()) {
                t.span(names[random.nextInt(names.length)]);
                depth++;
            } else if (depth > 0) {
                t.close();
                depth--;
            }
        }
        clock.advance(random.nextLong(10_000));
        t.finish(clock.nanoTime()); // closes whatever is still open

        assertThat(selfSum(t)).isEqualTo(t.totalNanos()).isEqualTo(clock.nanoTime() - planned);
    }

    @Test
    @DisplayName("a nested span pauses its parent's self time while the parent's inclusive time covers both")
    void nestedSpanPausesParentSelfTime() {
        FakeClock clock = new FakeClock();
        RequestTrace t = new RequestTrace(clock, 0);
        t.begin(0);
        try (Span outer = t.span("pay")) {
            clock.advance(100);                    // pay self
            try (Span inner = t.span("lock.wait")) {
                clock.advance(300);                // lock.wait self, pay paused
            }
            clock.advance(50);                     // pay self
        }
        t.finish(clock.nanoTime());

        assertThat(t.selfNanos("pay")).isEqualTo(150);
        assertThat(t.inclusiveNanos("pay")).isEqualTo(450);
        assertThat(t.selfNanos("lock.wait")).isEqualTo(300);
        assertThat(t.inclusiveNanos("lock.wait")).isEqualTo(300);
        assertThat(selfSum(t)).isEqualTo(450);
    }

    @Test
    @DisplayName("a span left open at finish is closed at the end, its time counted up to there")
    void openSpanIsClosedAtFinish() {
        FakeClock clock = new FakeClock();
        RequestTrace t = new RequestTrace(clock, 0);
        t.begin(0);
        clock.advance(10);
        t.span("outer");
        clock.advance(20);
        t.span("leaked");
        clock.advance(30);
        t.finish(clock.nanoTime());

        assertThat(t.selfNanos("leaked")).isEqualTo(30);
        assertThat(t.inclusiveNanos("leaked")).isEqualTo(30);
        assertThat(t.selfNanos("outer")).isEqualTo(20);
        assertThat(t.inclusiveNanos("outer")).isEqualTo(50);
        assertThat(t.totalNanos()).isEqualTo(60);

        clock.advance(1_000);
        t.close(); // a late close after finish changes nothing
        assertThat(t.selfNanos("leaked")).isEqualTo(30);
        assertThat(selfSum(t)).isEqualTo(60);
    }

    @Test
    @DisplayName("entering a segment again accumulates its self time and counts each entry")
    void repeatedEntriesAccumulate() {
        FakeClock clock = new FakeClock();
        RequestTrace t = new RequestTrace(clock, 0);
        t.begin(0);
        for (long d : new long[] {10, 20, 30}) {
            try (Span s = t.span("inventory")) {
                clock.advance(d);
            }
            clock.advance(1);
        }
        t.finish(clock.nanoTime());

        int i = indexOf(t, "inventory");
        assertThat(t.entries(i)).isEqualTo(3);
        assertThat(t.selfNanos(i)).isEqualTo(60);
        assertThat(t.inclusiveNanos(i)).isEqualTo(60);
        assertThat(t.selfNanos(Segments.UNMARKED)).isEqualTo(3);
    }

    @Test
    @DisplayName("scheduling is the gap from planned start to begin, and never negative")
    void schedulingIsTheStartGap() {
        FakeClock clock = new FakeClock(1_000);
        RequestTrace late = new RequestTrace(clock, 400);
        late.begin(1_000);
        late.finish(1_000);
        assertThat(late.selfNanos(Segments.SCHEDULING)).isEqualTo(600);

        RequestTrace early = new RequestTrace(clock, 2_000);
        early.begin(1_000);
        assertThat(early.selfNanos(Segments.SCHEDULING)).isZero();
    }

    @Test
    @DisplayName("finish is idempotent: a second finish changes nothing")
    void finishIsIdempotent() {
        FakeClock clock = new FakeClock();
        RequestTrace t = new RequestTrace(clock, 0);
        t.begin(0);
        t.finish(100);
        t.finish(5_000);
        assertThat(t.totalNanos()).isEqualTo(100);
        assertThat(selfSum(t)).isEqualTo(100);
        assertThat(t.entries(indexOf(t, Segments.UNMARKED))).isEqualTo(1);
    }

    @Test
    @DisplayName("totalNanos before finish is refused")
    void totalBeforeFinishIsRefused() {
        RequestTrace t = new RequestTrace(new FakeClock(), 0);
        assertThatThrownBy(t::totalNanos).isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("a segment never entered reads 0")
    void unknownSegmentReadsZero() {
        RequestTrace t = new RequestTrace(new FakeClock(), 0);
        t.finish(0);
        assertThat(t.selfNanos("nope")).isZero();
        assertThat(t.inclusiveNanos("nope")).isZero();
        assertThat(t.isRecording()).isTrue();
    }

    @Test
    @DisplayName("Trace.OFF records nothing, hands out Span.NOOP and never reads a clock")
    void offReturnsNoopAndReadsNoClock() {
        // Trace.OFF holds no clock at all; the context around it holds one that fails if read
        archlab.request.RequestContext ctx = new archlab.request.RequestContext(
                1, 0, archlab.request.Deadline.NONE, FakeClock.throwing(), Trace.OFF);
        assertThat(Trace.OFF.isRecording()).isFalse();
        for (int i = 0; i < 3; i++) {
            try (Span s = ctx.span("payment")) {
                assertThat(s).isSameAs(Span.NOOP);
                try (Span nested = Trace.OFF.span("lock.wait")) {
                    assertThat(nested).isSameAs(Span.NOOP);
                }
            }
        }
    }

    private static int indexOf(RequestTrace t, String name) {
        for (int i = 0; i < t.segmentCount(); i++) {
            if (t.name(i).equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no segment " + name + " in " + t);
    }

    @Test
    @org.junit.jupiter.api.DisplayName("past the nesting limit a span is not recorded and never throws: its time stays with the enclosing segment and still adds up")
    void overflowNeverThrows() {
        FakeClock clock = new FakeClock(100);
        RequestTrace t = new RequestTrace(clock, 100);
        t.begin(100);
        java.util.List<Span> open = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            clock.advance(10);
            open.add(t.span("level-" + i));
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            clock.advance(10);
            open.get(i).close();
        }
        t.finish(clock.nanoTime());
        long sum = 0;
        for (int i = 0; i < t.segmentCount(); i++) {
            sum += t.selfNanos(i);
        }
        org.assertj.core.api.Assertions.assertThat(t.overflows()).isPositive();
        org.assertj.core.api.Assertions.assertThat(sum).isEqualTo(t.totalNanos());
    }
}
