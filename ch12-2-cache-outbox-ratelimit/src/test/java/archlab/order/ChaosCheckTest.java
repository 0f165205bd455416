package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.chaos.ChaosProperties;
import archlab.chaos.ChaosRun;
import archlab.chaos.ChaosSummary;
import archlab.chaos.Invariant;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Chapter 12.3's randomized fault check against this checkpoint, for the chapter: the same seeds, the same mixes,
 * the same invariants as ch12-3's check ({@link ChaosLab} runs one mix). ch12-2 is not expected to keep them all: it
 * treats a charge without an answer as failed (charged but not PAID, nothing to resolve it) and compensates inside
 * the request. What it does promise is asserted — no double charge (the idempotency key), every PAID order notified
 * exactly once or held while the notifier is down (the outbox and its relay) — and every violation of the rest is
 * printed, seed by seed, with the command that replays it.
 *
 * <p>{@code mvn -pl ch12-2-cache-outbox-ratelimit test -Dchaos}; {@code -Dchaos.seeds=N}, {@code -Dchaos.seed=S}.
 */
@EnabledIfSystemProperty(named = "chaos", matches = ".*",
        disabledReason = "about a minute of seeded runs under random fault mixes: mvn -pl ch12-2-cache-outbox-ratelimit test -Dchaos")
class ChaosCheckTest {

    /** The seeds ch12-3's check runs by default: the same mixes, side by side. */
    static final int DEFAULT_SEEDS = 50;
    /** The bound ch12-3 is held to; ch12-2 is judged against it to show where it stands. */
    static final Duration OVERRUN_BOUND = Duration.ofMillis(5);

    @Test
    @DisplayName("under the same random fault mixes as ch12-3, ch12-2 keeps what it promises: no double charge, and every PAID order notified exactly once (or held while the notifier is still down); its other violations are printed, not asserted")
    void keepsItsOwnPromisesUnderRandomFaultMixes() {
        ChaosSummary summary = ChaosRun.check(BookLab.MODULE, ChaosProperties.fromSystem(DEFAULT_SEEDS), OVERRUN_BOUND,
                ChaosLab::run, System.out::println);

        assertThat(summary.violationsByInvariant().get(Invariant.DOUBLE_CHARGE)).as("seeds with a double charge").isZero();
        assertThat(summary.violationsByInvariant().get(Invariant.PAID_NOTIFIED_ONCE))
                .as("seeds with a PAID order not notified exactly once, or a notification parked").isZero();
    }
}
