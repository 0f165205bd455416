package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The provider whose money moves late ({@link Downstream#withLateCharges}): the trap a reconciler falls into when it
 * asks too soon — "no charge" about a charge that is on its way — cannot happen here, because until the money moves
 * the provider says "in progress", and after it moves the charge is in the books whether anyone waited or not.
 */
class LateChargesTest {

    private static final Duration LANDING = Duration.ofMillis(150);

    private static Downstream lateBy(Duration landing) {
        return Downstream.withLateCharges(DownstreamSettings.INSTANT, LatencyModel.constant(landing));
    }

    private static RequestContext within(Duration timeout) {
        return RequestContext.withTimeout(NanoClock.SYSTEM, timeout);
    }

    @Test
    @DisplayName("a caller that gives up before the money moves gets a timeout; the key is 'in progress' (ask again), not 'no charge';"
            + " then the money moves anyway, once, and the key finds it and replays it")
    void theMoneyLandsAfterTheCallerGaveUp() {
        Downstream d = lateBy(LANDING);
        ChargeRequest charge = new ChargeRequest("o1", 1999, "pay:o1");
        assertThatThrownBy(() -> d.payments().charge(within(Duration.ofMillis(20)), charge))
                .isInstanceOf(DownstreamTimeoutException.class);
        assertThat(d.ledger().charges()).as("no money moved yet").isZero();
        assertThatThrownBy(() -> d.payments().findByIdempotencyKey("pay:o1"))
                .isInstanceOf(DownstreamTimeoutException.class).hasMessageContaining("in progress");
        assertThatThrownBy(() -> d.payments().charge(within(Duration.ofSeconds(1)), charge)).as("a retry while it lands")
                .isInstanceOf(DownstreamTimeoutException.class).hasMessageContaining("in progress");

        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (d.ledger().charges() == 0 && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(5_000_000L); // the landing is the stub's own thread's, at its instant
        }
        assertThat(d.ledger().charges()).as("the money moved with nobody waiting").isEqualTo(1);
        assertThat(d.payments().findByIdempotencyKey("pay:o1")).get().extracting(ChargeResult::orderId).isEqualTo("o1");
        assertThat(d.payments().charge(within(Duration.ofSeconds(1)), charge).replayed()).as("a retry now").isTrue();
        assertThat(d.ledger().charges()).isEqualTo(1);
    }

    @Test
    @DisplayName("a caller that waits longer than the landing gets the charge, in the books when it is answered")
    void aPatientCallerGetsTheCharge() {
        Downstream d = lateBy(Duration.ofMillis(10));
        ChargeResult r = d.payments().charge(within(Duration.ofSeconds(2)), new ChargeRequest("o2", 500, "pay:o2"));
        assertThat(r.replayed()).isFalse();
        assertThat(d.ledger().chargesFor("o2")).containsExactly(r);
    }

    @Test
    @DisplayName("a request that arrives past its deadline is refused as before: nothing will land, the key finds nothing")
    void pastItsDeadlineNothingLands() {
        Downstream d = lateBy(LANDING);
        RequestContext expired = within(Duration.ofNanos(1));
        LockSupport.parkNanos(1_000_000L);
        assertThatThrownBy(() -> d.payments().charge(expired, new ChargeRequest("o3", 500, "pay:o3")))
                .isInstanceOf(DownstreamTimeoutException.class);
        assertThat(d.payments().findByIdempotencyKey("pay:o3")).isEmpty();
    }

    @Test
    @DisplayName("the per-call landing: a pure function of the seed and the call, within its bounds")
    void uniformLatencyRepeats() {
        UniformLatency a = new UniformLatency(7, Duration.ofMillis(4), Duration.ofMillis(900));
        UniformLatency b = new UniformLatency(7, Duration.ofMillis(4), Duration.ofMillis(900));
        for (long call = 0; call < 1_000; call++) {
            assertThat(a.latencyOf(call)).isEqualTo(b.latencyOf(call)).isBetween(Duration.ofMillis(4), Duration.ofMillis(900));
        }
        assertThatThrownBy(() -> new UniformLatency(1, Duration.ofMillis(5), Duration.ofMillis(5))).isInstanceOf(IllegalArgumentException.class);
    }
}
