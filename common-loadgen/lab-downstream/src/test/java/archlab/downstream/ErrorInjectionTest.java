package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.data.Offset.offset;

import archlab.request.RequestContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("ErrorInjection: which calls fail is a pure function of (seed, call index)")
class ErrorInjectionTest {

    private static Set<Long> failingIndices(ErrorInjection injection, long count) {
        Set<Long> failing = new TreeSet<>();
        for (long i = 0; i < count; i++) {
            if (injection.failsCall(i)) {
                failing.add(i);
            }
        }
        return failing;
    }

    @Test
    @DisplayName("the same seed fails the same indices, whether computed in order or shuffled across threads")
    void sameSeedSameFailingIndicesInAnyThreadOrder() throws Exception {
        ErrorInjection injection = new ErrorInjection(12345L, 0.1);
        Set<Long> inOrder = failingIndices(injection, 20_000);

        List<Long> shuffled = new ArrayList<>(LongStream.range(0, 20_000).boxed().toList());
        Collections.shuffle(shuffled, new Random(7));
        Set<Long> concurrently = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int part = 0; part < 4; part++) {
                List<Long> slice = shuffled.subList(part * 5_000, (part + 1) * 5_000);
                parts.add(pool.submit(() -> slice.forEach(i -> {
                    if (new ErrorInjection(12345L, 0.1).failsCall(i)) {
                        concurrently.add(i);
                    }
                })));
            }
            for (Future<?> part : parts) {
                part.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(inOrder).isNotEmpty();
        assertThat(new TreeSet<>(concurrently)).isEqualTo(inOrder);
    }

    @Test
    @DisplayName("a stub called from 8 threads fails exactly the call indices the injection names")
    void stubFailsExactlyTheInjectedCallIndices() throws Exception {
        ErrorInjection injection = new ErrorInjection(99L, 0.2);
        InventoryStub inventory = new InventoryStub(StubBehaviour.INSTANT.withErrors(injection));
        Set<Long> failedAtStub = ConcurrentHashMap.newKeySet();
        int threads = 8;
        int callsPerThread = 500;

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    for (int c = 0; c < callsPerThread; c++) {
                        DownstreamException e = catchThrowableOfType(DownstreamException.class,
                                () -> inventory.reserve(RequestContext.background(), "sku-1", 1));
                        if (e != null) {
                            failedAtStub.add(e.callIndex());
                        }
                    }
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }

        Set<Long> expected = failingIndices(injection, threads * callsPerThread);
        assertThat(new TreeSet<>(failedAtStub)).isEqualTo(expected);
        assertThat(inventory.counters().injectedErrors()).isEqualTo(expected.size());
        assertThat(inventory.counters().succeeded()).isEqualTo(threads * callsPerThread - expected.size());
    }

    @ParameterizedTest(name = "rate {0}")
    @ValueSource(doubles = {0.001, 0.01, 0.1, 0.5, 0.9})
    @DisplayName("over 100_000 indices the observed failure rate is within 0.01 of the configured rate")
    void observedRateMatchesConfiguredRate(double rate) {
        int n = 100_000;
        long failures = failingIndices(new ErrorInjection(2024L, rate), n).size();
        assertThat((double) failures / n).isCloseTo(rate, offset(0.01));
    }

    @Test
    @DisplayName("rate 0 never fails, rate 1 always fails, and NONE never fails")
    void extremesAreExact() {
        assertThat(failingIndices(new ErrorInjection(5L, 0.0), 10_000)).isEmpty();
        assertThat(failingIndices(ErrorInjection.NONE, 10_000)).isEmpty();
        assertThat(failingIndices(new ErrorInjection(5L, 1.0), 10_000)).hasSize(10_000);
    }

    @Test
    @DisplayName("different seeds, and different fault streams of one seed, fail different calls")
    void differentSeedsAndStreamsFailDifferentCalls() {
        Set<Long> seed1 = failingIndices(new ErrorInjection(1L, 0.1), 10_000);
        Set<Long> seed2 = failingIndices(new ErrorInjection(2L, 0.1), 10_000);
        Set<Long> stream1 = failingIndices(ErrorInjection.forStream(42L, 1, 0.1), 10_000);
        Set<Long> stream2 = failingIndices(ErrorInjection.forStream(42L, 2, 0.1), 10_000);

        assertThat(seed1).isNotEqualTo(seed2);
        assertThat(stream1).isNotEqualTo(stream2);
        assertThat(ErrorInjection.forStream(42L, 1, 0.1)).isEqualTo(ErrorInjection.forStream(42L, 1, 0.1));
    }
}
