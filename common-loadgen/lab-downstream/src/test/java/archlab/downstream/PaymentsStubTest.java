package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.request.RequestContext;
import archlab.loadgen.testing.FakeClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("PaymentsStub: money charged is told apart from what the caller saw")
class PaymentsStubTest {

    private static final RequestContext NO_DEADLINE = RequestContext.background();

    @Test
    @DisplayName("a charge whose reply timed out is in the ledger: the caller got the timeout, the money moved")
    void chargeWhoseReplyTimedOutIsRecorded() {
        FakeClock clock = new FakeClock();
        PaymentsStub payments = new PaymentsStub(StubBehaviour.constant(Duration.ofHours(1)));

        assertThatThrownBy(() -> payments.charge(RequestContext.withTimeout(clock, Duration.ofMillis(1)),
                new ChargeRequest("o-1", 1_000, "key-1")))
                .isInstanceOf(DownstreamTimeoutException.class)
                .hasMessageContaining("payments call #0");

        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.ledger().chargedOrderIds()).containsExactly("o-1");
        assertThat(payments.counters()).isEqualTo(new StubCounters(1, 0, 0, 1));
        assertThat(payments.findByIdempotencyKey("key-1"))
                .as("a reconciler can ask the provider whether the key charged")
                .hasValueSatisfying(r -> assertThat(r.orderId()).isEqualTo("o-1"));
    }

    @Test
    @DisplayName("a retry with the same key after a timed-out reply replays the first charge instead of charging again")
    void retryWithSameKeyAfterTimeoutChargesOnce() {
        FakeClock clock = new FakeClock();
        PaymentsStub payments = new PaymentsStub(StubBehaviour.constant(Duration.ofMillis(5)));
        ChargeRequest request = new ChargeRequest("o-1", 1_000, "key-1");

        assertThatThrownBy(() -> payments.charge(RequestContext.withTimeout(clock, Duration.ofMillis(1)), request))
                .isInstanceOf(DownstreamTimeoutException.class);
        ChargeResult retry = payments.charge(NO_DEADLINE, request);

        assertThat(retry.replayed()).isTrue();
        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.ledger().doubleCharges()).isZero();
        assertThat(payments.ledger().replays()).isEqualTo(1);
    }

    @Test
    @DisplayName("a call arriving after its deadline charges nothing")
    void expiredCallChargesNothing() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);

        assertThatThrownBy(() -> payments.charge(RequestContext.withTimeout(new FakeClock(), Duration.ZERO),
                ChargeRequest.withoutKey("o-1", 1_000)))
                .isInstanceOf(DownstreamTimeoutException.class);

        assertThat(payments.ledger().charges()).isZero();
    }

    @Test
    @DisplayName("same key + same amount charges once; the second answer is the first charge with replayed=true")
    void sameKeySameAmountChargesOnce() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
        ChargeRequest request = new ChargeRequest("o-1", 1_000, "key-1");

        ChargeResult first = payments.charge(NO_DEADLINE, request);
        ChargeResult second = payments.charge(NO_DEADLINE, request);

        assertThat(first.replayed()).isFalse();
        assertThat(second).isEqualTo(first.asReplay());
        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.ledger().replays()).isEqualTo(1);
        assertThat(payments.ledger().totalChargedCents()).isEqualTo(1_000);
        assertThat(payments.counters()).isEqualTo(new StubCounters(2, 2, 0, 0));
    }

    @Test
    @DisplayName("32 threads racing on one key charge once: one fresh result, 31 replays of the same payment")
    void concurrentFirstUsesOfOneKeyChargeOnce() throws Exception {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
        ChargeRequest request = new ChargeRequest("o-1", 1_000, "key-race");
        int threads = 32;
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<ChargeResult> results = new ArrayList<>();
        try {
            List<Future<ChargeResult>> calls = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                calls.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return payments.charge(NO_DEADLINE, request);
                }));
            }
            ready.await();
            go.countDown();
            for (Future<ChargeResult> call : calls) {
                results.add(call.get());
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.ledger().replays()).isEqualTo(threads - 1);
        assertThat(results).filteredOn(r -> !r.replayed()).hasSize(1);
        assertThat(results).extracting(ChargeResult::paymentId).containsOnly(results.get(0).paymentId());
    }

    @Test
    @DisplayName("same key + different amount or order -> IdempotencyKeyConflictException naming the key and both amounts; nothing charged")
    void sameKeyDifferentRequestConflicts() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
        payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_000, "key-1"));

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_200, "key-1")))
                .isInstanceOf(IdempotencyKeyConflictException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key-1")
                .hasMessageContaining("1000 cents")
                .hasMessageContaining("1200 cents");
        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-2", 1_000, "key-1")))
                .isInstanceOf(IdempotencyKeyConflictException.class)
                .hasMessageContaining("o-2");

        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.ledger().replays()).isZero();
        assertThat(payments.ledger().chargedOrderIds()).containsExactly("o-1");
    }

    @Test
    @DisplayName("without a key every call charges: three calls for one order are two double charges")
    void noKeyEveryCallCharges() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);

        for (int i = 0; i < 3; i++) {
            assertThat(payments.charge(NO_DEADLINE, ChargeRequest.withoutKey("o-1", 500)).replayed()).isFalse();
        }

        assertThat(payments.ledger().charges()).isEqualTo(3);
        assertThat(payments.ledger().distinctOrdersCharged()).isEqualTo(1);
        assertThat(payments.ledger().doubleCharges()).isEqualTo(2);
        assertThat(payments.ledger().totalChargedCents()).isEqualTo(1_500);
        assertThat(payments.ledger().chargesFor("o-1")).extracting(ChargeResult::paymentId).doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("a decline is clean: the caller gets PaymentDeclinedException and no money moves")
    void declineChargesNothing() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT.withErrors(new ErrorInjection(1L, 1.0)));

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_000, "key-1")))
                .isInstanceOf(PaymentDeclinedException.class)
                .hasMessageContaining("payments call #0");

        assertThat(payments.ledger().charges()).isZero();
        assertThat(payments.findByIdempotencyKey("key-1")).isEmpty();
        assertThat(payments.declines()).isEqualTo(1);
        assertThat(payments.counters()).isEqualTo(new StubCounters(1, 0, 1, 0));
    }

    @Test
    @DisplayName("a lost reply is dirty: the caller gets PaymentReplyLostException, yet the money moved")
    void lostReplyStillCharges() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT, new ErrorInjection(1L, 1.0));

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, ChargeRequest.withoutKey("o-1", 1_000)))
                .isInstanceOf(PaymentReplyLostException.class)
                .hasMessageContaining("payments call #0");

        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.ledger().chargedButNot(orderId -> false)).isEqualTo(1);
        assertThat(payments.lostReplies()).isEqualTo(1);
        assertThat(payments.counters()).isEqualTo(new StubCounters(1, 0, 1, 0));
    }

    @Test
    @DisplayName("a retry of a charged key is answered with the charge, even on a call a new key would be declined on: the provider looks the key up first")
    void chargedKeyIsReplayedNeverDeclined() {
        // call 0 charges and loses its reply; call 1, the retry, falls on an injected decline
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT.withErrors(call -> call == 1), call -> call == 0);
        ChargeRequest request = new ChargeRequest("o-1", 1_000, "key-1");

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, request)).isInstanceOf(PaymentReplyLostException.class);
        ChargeResult retry = payments.charge(NO_DEADLINE, request);

        assertThat(retry.replayed()).isTrue();
        assertThat(payments.ledger().charges()).isEqualTo(1);
        assertThat(payments.declines()).isZero();
        assertThat(payments.counters()).isEqualTo(new StubCounters(2, 1, 1, 0));
    }

    @Test
    @DisplayName("a declined key is declined again on every retry, even on a call a new key would be charged on: no money moves, the key stays uncharged")
    void declinedKeyIsReplayedAsADecline() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT.withErrors(call -> call == 0));
        ChargeRequest request = new ChargeRequest("o-1", 1_000, "key-1");

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, request)).isInstanceOf(PaymentDeclinedException.class);
        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, request)).isInstanceOf(PaymentDeclinedException.class)
                .hasMessageContaining("payments call #1").hasMessageContaining("call #0").hasMessageContaining("replayed");

        assertThat(payments.ledger().charges()).isZero();
        assertThat(payments.findByIdempotencyKey("key-1")).isEmpty();
        assertThat(payments.declines()).isEqualTo(2);
        assertThat(payments.declinesReplayed()).isEqualTo(1);
        assertThat(payments.counters()).isEqualTo(new StubCounters(2, 0, 2, 0));
        assertThat(payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_000, "key-2")).replayed())
                .as("a new key is a new request").isFalse();
    }

    @Test
    @DisplayName("a declined key reused with another amount is a conflict, as a charged one: nothing charged")
    void declinedKeyWithAnotherAmountConflicts() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT.withErrors(call -> call == 0));
        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_000, "key-1")))
                .isInstanceOf(PaymentDeclinedException.class);

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 1_200, "key-1")))
                .isInstanceOf(IdempotencyKeyConflictException.class).hasMessageContaining("1000 cents").hasMessageContaining("1200 cents");
        assertThat(payments.ledger().charges()).isZero();
    }

    @Test
    @DisplayName("findByIdempotencyKey is empty for a key that never charged")
    void unknownKeyNeverCharged() {
        assertThat(new PaymentsStub(StubBehaviour.INSTANT).findByIdempotencyKey("never-used")).isEmpty();
    }

    @Test
    @DisplayName("a provider with a quota refuses the calls beyond it before anything else: a decline saying so, nothing charged, and the refused call's key remembers nothing")
    void aQuotaRefusesBeyondItAndRemembersNothing() {
        PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT, ErrorInjection.NONE, null, new PaymentsStub.Quota(1, 2));
        payments.charge(NO_DEADLINE, new ChargeRequest("o-1", 100, "k-1"));
        payments.charge(NO_DEADLINE, new ChargeRequest("o-2", 100, "k-2"));

        assertThatThrownBy(() -> payments.charge(NO_DEADLINE, new ChargeRequest("o-3", 100, "k-3")))
                .isInstanceOf(PaymentDeclinedException.class)
                .hasMessageContaining("over the provider's quota of 1 charges/s");
        assertThat(payments.refusedOverQuota()).isEqualTo(1);
        assertThat(payments.ledger().charges()).isEqualTo(2);
        assertThat(payments.findByIdempotencyKey("k-3")).as("the refused key: never charged, nothing remembered").isEmpty();
        assertThat(payments.quota()).contains(new PaymentsStub.Quota(1, 2));
        assertThat(new PaymentsStub(StubBehaviour.INSTANT).quota()).isEmpty();
    }

    @Test
    @DisplayName("a quota below one charge a second, or a burst below one, is refused with a message naming both")
    void aQuotaIsValidated() {
        assertThatThrownBy(() -> new PaymentsStub.Quota(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chargesPerSecond and burst");
        assertThatThrownBy(() -> new PaymentsStub.Quota(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
