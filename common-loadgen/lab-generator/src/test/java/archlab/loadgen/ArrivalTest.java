package archlab.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArrivalTest {

    @ParameterizedTest(name = "{0}/s for {1} ms")
    @CsvSource({"1500, 3000", "1000, 200", "7, 1000", "3, 1500", "999983, 10"})
    @DisplayName("the fixed plan of a load has exactly rate × duration offsets, all inside the duration")
    void fixedPlanHasRateTimesDurationOffsets(int rate, long millis) {
        LoadSpec spec = LoadSpec.book().withRate(rate).withDuration(Duration.ofMillis(millis));
        long expected = rate * millis / 1_000; // floor(rate × duration)

        long[] offsets = Arrival.fixed().plan(spec.plannedRequests(), rate);

        assertThat(offsets).hasSize((int) expected);
        assertThat(offsets[offsets.length - 1]).isLessThan(Duration.ofMillis(millis).toNanos());
    }

    @Test
    @DisplayName("fixed offset(i) is i·1e9/rate exactly, with no accumulated drift: the last of 1500/s × 3 s is 2,999,333,333 ns")
    void fixedOffsetsHaveNoDrift() {
        long[] offsets = Arrival.fixed().plan(4_500, 1_500);

        long[] exact = new long[4_500];
        for (int i = 0; i < exact.length; i++) {
            exact[i] = BigInteger.valueOf(i).multiply(BigInteger.valueOf(1_000_000_000L))
                    .divide(BigInteger.valueOf(1_500)).longValueExact();
        }
        assertThat(offsets).containsExactly(exact);
        assertThat(offsets[4_499]).isEqualTo(2_999_333_333L);
        // summing the rounded interval (666,666 ns) would have drifted by almost 3 µs
        assertThat(4_499 * (1_000_000_000L / 1_500)).isEqualTo(2_999_330_334L);
    }

    @Test
    @DisplayName("poisson with the same seed plans the very same offsets")
    void poissonSameSeedSamePlan() {
        assertThat(Arrival.poisson(7).plan(10_000, 1_500)).isEqualTo(Arrival.poisson(7).plan(10_000, 1_500));
    }

    @Test
    @DisplayName("poisson with a different seed plans different offsets")
    void poissonDifferentSeedDifferentPlan() {
        assertThat(Arrival.poisson(7).plan(10_000, 1_500)).isNotEqualTo(Arrival.poisson(8).plan(10_000, 1_500));
    }

    @Test
    @DisplayName("poisson plans exactly count offsets, starting at 0 and never decreasing")
    void poissonIsNonDecreasing() {
        long[] offsets = Arrival.poisson(1).plan(100_000, 1_000);
        assertThat(offsets).hasSize(100_000);
        assertThat(offsets[0]).isZero();
        assertThat(offsets).isSorted();
    }

    @Test
    @DisplayName("poisson's mean gap over 100k arrivals is 1/rate within 2% (over 6 standard errors)")
    void poissonMeanGapIsOneOverRate() {
        int n = 100_000;
        long[] offsets = Arrival.poisson(12345).plan(n, 1_000);
        double meanGap = (double) offsets[n - 1] / (n - 1);
        // exponential gaps: standard error of the mean = mean / sqrt(n) ≈ 0.32%
        assertThat(meanGap).isCloseTo(1_000_000.0, within(20_000.0));
    }

    @Test
    @DisplayName("poisson's gaps are exponential: their standard deviation equals their mean within 5%")
    void poissonGapsAreExponential() {
        int n = 100_000;
        long[] offsets = Arrival.poisson(99).plan(n, 1_000);
        double sum = 0;
        double sumSq = 0;
        for (int i = 1; i < n; i++) {
            double gap = offsets[i] - offsets[i - 1];
            sum += gap;
            sumSq += gap * gap;
        }
        double mean = sum / (n - 1);
        double sd = Math.sqrt(sumSq / (n - 1) - mean * mean);
        assertThat(sd / mean).isCloseTo(1.0, within(0.05));
    }

    @Test
    @DisplayName("describe names the process, and poisson its seed")
    void describeNamesTheProcess() {
        assertThat(Arrival.fixed().describe()).isEqualTo("fixed");
        assertThat(Arrival.poisson(42).describe()).isEqualTo("poisson(seed=42)");
    }
}
