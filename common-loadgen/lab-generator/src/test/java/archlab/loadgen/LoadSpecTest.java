package archlab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LoadSpecTest {

    private static final LoadSpec BOOK = LoadSpec.book();

    static Stream<Arguments> badSettings() {
        return Stream.of(
                bad("rate 0", "ratePerSecond", () -> BOOK.withRate(0)),
                bad("rate -1", "ratePerSecond", () -> BOOK.withRate(-1)),
                bad("rate 1,000,001", "ratePerSecond", () -> BOOK.withRate(1_000_001)),
                bad("negative duration", "duration", () -> BOOK.withDuration(Duration.ofSeconds(-1))),
                bad("zero duration", "duration", () -> BOOK.withDuration(Duration.ZERO)),
                bad("null duration", "duration", () -> BOOK.withDuration(null)),
                bad("zero timeout", "timeout", () -> BOOK.withTimeout(Duration.ZERO)),
                bad("negative timeout", "timeout", () -> BOOK.withTimeout(Duration.ofMillis(-1))),
                bad("negative warmup", "warmup", () -> BOOK.withWarmup(Duration.ofNanos(-1))),
                bad("null warmup", "warmup", () -> BOOK.withWarmup(null)),
                bad("traceEvery -1", "traceEvery", () -> BOOK.withTraceEvery(-1)),
                bad("null arrival", "arrival", () -> BOOK.withArrival(null)),
                bad("null threads", "threads", () -> BOOK.withThreads(null)),
                bad("1/s × 999 ms plans 0 requests", "rate × duration",
                        () -> BOOK.withRate(1).withDuration(Duration.ofMillis(999))),
                bad("1,000,000/s × 1 h plans more than an int", "rate × duration",
                        () -> BOOK.withRate(1_000_000).withDuration(Duration.ofHours(1))),
                bad("a duration beyond Duration.toNanos()", "rate × duration",
                        () -> BOOK.withDuration(ChronoUnit.FOREVER.getDuration())),
                bad("a warm-up planning more than an int", "warmup",
                        () -> BOOK.withRate(1_000_000).withWarmup(Duration.ofHours(1))));
    }

    private static Arguments bad(String what, String setting, Supplier<LoadSpec> build) {
        return Arguments.of(what, setting, build);
    }

    @ParameterizedTest(name = "{0} → names \"{1}\"")
    @MethodSource("badSettings")
    @DisplayName("a bad setting is refused with an IllegalArgumentException that names the setting")
    void badSettingIsRefusedNamingIt(String what, String setting, Supplier<LoadSpec> build) {
        assertThatThrownBy(build::get)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(setting);
    }

    @Test
    @DisplayName("the book's load is 1,500/s for 3 s with a 200 ms timeout: 4,500 planned requests, no warm-up, all traced")
    void bookLoadPlans4500Requests() {
        assertThat(BOOK.plannedRequests()).isEqualTo(4_500);
        assertThat(BOOK.ratePerSecond()).isEqualTo(1_500);
        assertThat(BOOK.duration()).isEqualTo(Duration.ofSeconds(3));
        assertThat(BOOK.timeout()).isEqualTo(Duration.ofMillis(200));
        assertThat(BOOK.arrival()).isEqualTo(Arrival.fixed());
        assertThat(BOOK.warmupRequests()).isZero();
        assertThat(BOOK.traceEvery()).isEqualTo(1);
    }

    @Test
    @DisplayName("plannedRequests is floor(rate × duration), and the warm-up plans at the same rate")
    void plannedRequestsIsTheFloorOfRateTimesDuration() {
        LoadSpec spec = BOOK.withRate(3).withDuration(Duration.ofMillis(1_500)).withWarmup(Duration.ofMillis(999));
        assertThat(spec.plannedRequests()).isEqualTo(4);
        assertThat(spec.warmupRequests()).isEqualTo(2);
    }

    @Test
    @DisplayName("the smallest valid load plans exactly one request, and traceEvery 0 (off) is valid")
    void smallestValidLoad() {
        LoadSpec spec = BOOK.withRate(1).withDuration(Duration.ofSeconds(1)).withTraceEvery(0);
        assertThat(spec.plannedRequests()).isEqualTo(1);
        assertThat(spec.traceEvery()).isZero();
    }
}
