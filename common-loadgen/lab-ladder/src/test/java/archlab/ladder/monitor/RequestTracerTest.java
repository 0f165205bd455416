package archlab.ladder.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestTracerTest {

    private static final List<String> STAGES = List.of("rows", "map", "tag", "encode", "log");

    @TempDir
    Path dir;

    private static final java.util.concurrent.atomic.AtomicInteger SERIALISED = new java.util.concurrent.atomic.AtomicInteger();

    /** A request whose database read took 100 µs and each stage {@code stageMicros} µs; its answer counts its serialisations. */
    private static RequestTracer.Request request(long customer, long stageMicros) {
        long t = 1_000_000_000L;
        long[] times = new long[3 + STAGES.size() + 1];
        times[0] = t;
        times[1] = t + 10_000;
        times[2] = t + 110_000;
        for (int i = 3; i < times.length; i++) {
            times[i] = times[i - 1] + (i == 3 ? 1_000 : stageMicros * 1_000);
        }
        return new RequestTracer.Request(customer, YearMonth.of(2026, 6), 2, 120, () -> {
            SERIALISED.incrementAndGet();
            return "{\"orders\":[{\"orderId\":7,\"status\":\"PAID\"},{\"orderId\":8,\"status\":\"CREATED\"}]}";
        }, times);
    }

    @Test
    @DisplayName("tracing every request keeps each request's trace — its span, the database's and each stage's, with the times the page measured — and writes the whole answer, serialised, to the trace file; the estimate from every request has no sampling error")
    void everyRequest() throws Exception {
        SERIALISED.set(0);
        Path file = dir.resolve("every.trace.log");
        RequestTracer tracer = new RequestTracer(Tracing.EVERY_REQUEST, file, STAGES);
        try (tracer) {
            for (int i = 0; i < 200; i++) {
                tracer.trace(request(i + 1, 3));
            }
        }
        Map<String, TraceSegments.Estimate> traced = tracer.segments().estimates(200);
        assertThat(SERIALISED).hasValue(200);
        assertThat(traced.keySet()).containsExactlyInAnyOrder("GET /users/{id}/orders", "database", "rows", "map", "tag",
                "encode", "log");
        assertThat(traced.values()).allSatisfy(e -> assertThat(e.spans()).isEqualTo(200));
        assertThat(traced.get("database").meanMicros()).isCloseTo(100, within(0.01));
        assertThat(traced.get("map").meanMicros()).isCloseTo(3, within(0.01));
        assertThat(traced.get("map").halfWidthMicros()).isZero();
        assertThat(traced.get("database").halfWidthMicros()).as("n = N: the traces are every request").isZero();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(200 * 7);
        assertThat(lines).filteredOn(l -> l.contains("'GET /users/{id}/orders'")).hasSize(200)
                .allSatisfy(l -> assertThat(l).contains("PAID").contains("CREATED").contains("app.customer"));
    }

    @Test
    @DisplayName("sampling keeps about one trace in a hundred (by its id), with its key fields only, and writes them when the tracer closes")
    void sampled() throws Exception {
        SERIALISED.set(0);
        Path file = dir.resolve("sampled.trace.log");
        RequestTracer tracer = new RequestTracer(Tracing.SAMPLED, file, STAGES);
        int requests = 20_000;
        try (tracer) {
            for (int i = 0; i < requests; i++) {
                tracer.trace(request(i + 1, 3));
            }
        }
        long kept = tracer.segments().estimates(requests).get("GET /users/{id}/orders").spans();
        assertThat(SERIALISED).as("the answer is never serialised for a sampled trace").hasValue(0);
        // binomial(20,000, 1 %): mean 200, sd 14; five sd either way
        assertThat(kept).isBetween(130L, 270L);
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize((int) kept * 7);
        assertThat(lines).noneMatch(l -> l.contains("PAID")).anyMatch(l -> l.contains("app.orders=2"));
    }

    @Test
    @DisplayName("a second tracer while one is open, or a trace file that cannot be written, is refused with a clear error and leaves no tracer open")
    void refusals() throws Exception {
        try (RequestTracer open = new RequestTracer(Tracing.SAMPLED, dir.resolve("a.trace.log"), STAGES)) {
            assertThatThrownBy(() -> new RequestTracer(Tracing.SAMPLED, dir.resolve("b.trace.log"), STAGES))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("another RequestTracer is open");
        }
        Path notADir = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> new RequestTracer(Tracing.SAMPLED, notADir.resolve("c.trace.log"), STAGES))
                .hasMessageContaining("could not be opened for writing");
        new RequestTracer(Tracing.EVERY_REQUEST, dir.resolve("d.trace.log"), STAGES).close(); // nothing left open
    }

    @Test
    @DisplayName("the estimate from traces is the sample's mean with Student's t (95 %) standard errors either side, shrunk by the finite-population correction (none left when every request is traced); with fewer than two spans no error is stated")
    void estimate() {
        // 2, 4, 6 of a million: mean 4, sd 2, se 2/√3, t(2 degrees of freedom, 97.5 %) = 4.303
        TraceSegments.Estimate e = TraceSegments.estimate(3, 12, 4 + 16 + 36, 1_000_000);
        assertThat(e.meanMicros()).isEqualTo(4);
        assertThat(e.sdMicros()).isCloseTo(2, within(1e-9));
        assertThat(e.halfWidthMicros()).isCloseTo(4.303 * 2 / Math.sqrt(3), within(1e-3));
        assertThat(e.covers(8.9)).isTrue();
        assertThat(e.covers(9.0)).isFalse();
        // 3 of 4: the correction √(1/3)
        assertThat(TraceSegments.estimate(3, 12, 56, 4).halfWidthMicros()).isCloseTo(4.303 * 2 / Math.sqrt(3) * Math.sqrt(1 / 3.0), within(1e-3));
        assertThat(TraceSegments.estimate(3, 12, 56, 3).halfWidthMicros()).isZero();
        assertThat(TraceSegments.estimate(1, 5, 25, 100).halfWidthMicros()).isInfinite();
        assertThat(TraceSegments.estimate(0, 0, 0, 100).spans()).isZero();
    }

    @Test
    @DisplayName("a flush writes what the batch processor holds, so that a phase's file size starts after the warm-up's spans")
    void flush() throws Exception {
        Path file = dir.resolve("flushed.trace.log");
        try (RequestTracer tracer = new RequestTracer(Tracing.SAMPLED, file, STAGES)) {
            for (int i = 0; i < 5_000; i++) {
                tracer.trace(request(i + 1, 3));
            }
            tracer.flush();
            long kept = tracer.segments().estimates(5_000).get("GET /users/{id}/orders").spans();
            assertThat(Files.readAllLines(file)).hasSize((int) kept * 7);
            assertThat(tracer.fileBytes()).isEqualTo(Files.size(file));
        }
    }
}
