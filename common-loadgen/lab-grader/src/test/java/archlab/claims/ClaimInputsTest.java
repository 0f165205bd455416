package archlab.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The fixed-inputs attack: a solution that recognises a claim by what it is fed ("cust", "sku-a", 1999 cents, a
 * 200 ms deadline) answers that claim alone. Every attempt draws its inputs from the run's seed, the claim and the
 * attempt; the same three give the same inputs, so a printed seed regrades a solution on what it was fed.
 */
class ClaimInputsTest {

    @Test
    @DisplayName("the same seed, claim and attempt give the same inputs, in whatever order and on whatever thread they are drawn")
    void sameSeedSameInputs() throws Exception {
        ClaimInputs a = ClaimInputs.of(42, "12.2-reads-not-held", 1);
        ClaimInputs b = ClaimInputs.of(42, "12.2-reads-not-held", 1);
        Duration deadlineFirst = a.millis("deadline", 180, 260);
        Duration chargeFirst = a.millis("charge", 280, 360);
        Duration chargeSecond;
        Duration deadlineSecond;
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Duration> charge = threads.submit(() -> b.millis("charge", 280, 360));
            chargeSecond = charge.get();
            deadlineSecond = b.millis("deadline", 180, 260);
        }
        assertThat(List.of(b.customer(), b.sku(), b.otherSku(), b.unitPriceCents(), b.otherUnitPriceCents(), b.twoLines()))
                .isEqualTo(List.of(a.customer(), a.sku(), a.otherSku(), a.unitPriceCents(), a.otherUnitPriceCents(), a.twoLines()));
        assertThat(List.of(deadlineSecond, chargeSecond)).isEqualTo(List.of(deadlineFirst, chargeFirst));
        assertThat(b.faultSeed("lost replies")).isEqualTo(a.faultSeed("lost replies"));
        assertThat(b.describe()).isEqualTo(a.describe());
    }

    @Test
    @DisplayName("another attempt, another claim or another seed draws other inputs")
    void otherAttemptOtherInputs() {
        ClaimInputs first = ClaimInputs.of(42, "12.2-reads-not-held", 1);
        for (ClaimInputs other : List.of(ClaimInputs.of(42, "12.2-reads-not-held", 2), ClaimInputs.of(42, "12.2-notify-off-path", 1),
                ClaimInputs.of(43, "12.2-reads-not-held", 1))) {
            assertThat(other.customer()).isNotEqualTo(first.customer());
            assertThat(other.sku()).isNotEqualTo(first.sku());
            assertThat(other.faultSeed("lost replies")).isNotEqualTo(first.faultSeed("lost replies"));
        }
        Set<Long> charges = new HashSet<>();
        for (int attempt = 1; attempt <= 20; attempt++) {
            charges.add(ClaimInputs.of(42, "12.2-reads-not-held", attempt).millis("charge", 280, 360).toMillis());
        }
        assertThat(charges).as("the charge of 20 attempts").hasSizeGreaterThan(5);
    }

    @Test
    @DisplayName("every input stays in its range: a customer and skus that look random, prices of 500..9999 cents, quantities 1..3, draws within their bounds")
    void rangesHold() {
        Set<String> customers = new HashSet<>();
        for (long seed = -500; seed < 500; seed++) {
            ClaimInputs in = ClaimInputs.of(seed, "12.3-deadline-kept", 1 + (int) Math.floorMod(seed, 3));
            customers.add(in.customer());
            assertThat(in.customer()).matches("c-[0-9a-z]{9}");
            assertThat(in.sku()).matches("s-[0-9a-z]{6}").isNotEqualTo(in.otherSku());
            assertThat(in.otherSku()).matches("s-[0-9a-z]{6}");
            assertThat(in.unitPriceCents()).isBetween(500L, 9_999L);
            assertThat(in.otherUnitPriceCents()).isBetween(500L, 9_999L);
            assertThat(in.bookLines()).singleElement().satisfies(l -> {
                assertThat(l.quantity()).isEqualTo(1);
                assertThat(l.sku()).isEqualTo(in.sku());
                assertThat(l.unitPriceCents()).isEqualTo(in.unitPriceCents());
            });
            assertThat(in.twoLines()).allSatisfy(l -> assertThat(l.quantity()).isBetween(1, 3));
            assertThat(in.millis("deadline", 180, 260)).isBetween(Duration.ofMillis(180), Duration.ofMillis(260));
            assertThat(in.between("pays", 360, 440)).isBetween(360L, 440L);
            assertThat(in.between("fixed", 7, 7)).isEqualTo(7);
        }
        assertThat(customers).as("customers of 1,000 seeds").hasSizeGreaterThan(990);
    }

    @Test
    @DisplayName("what a claim measured is followed by the inputs it used, every named draw with its value")
    void describesWhatWasUsed() {
        ClaimInputs in = ClaimInputs.of(7, "12.2-notify-off-path", 2);
        Duration notify = in.millis("notify", 280, 360);
        ClaimVerdict stated = in.stated(ClaimVerdict.passed("pay answered in 1.0 ms"));
        assertThat(stated.outcome()).isEqualTo(ClaimVerdict.Outcome.PASSED);
        assertThat(stated.measured()).startsWith("pay answered in 1.0 ms [inputs of seed 7 attempt 2: customer " + in.customer())
                .contains(in.sku() + " at " + in.unitPriceCents() + " cents", "notify " + notify.toMillis() + " ms");
    }

    @Test
    @DisplayName("an attempt counts from 1, a range runs from min to max, and a seed that is not a whole number is refused with a clear message")
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> ClaimInputs.of(1, "x", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClaimInputs.of(1, "x", 1).millis("d", 5, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClaimsRun.parseSeed("12a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-Dgrade.seed must be a whole number").hasMessageContaining("'12a'");
        assertThat(ClaimsRun.parseSeed(" -42 ")).isEqualTo(-42L);
    }
}
