package archlab.downstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.request.RequestContext;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("PaymentLedger: charged orders compared with what the service marked PAID")
class PaymentLedgerTest {

    private final PaymentsStub payments = new PaymentsStub(StubBehaviour.INSTANT);
    private final PaymentLedger ledger = payments.ledger();

    private ChargeResult charge(String orderId) {
        return payments.charge(RequestContext.background(), ChargeRequest.withoutKey(orderId, 1_000));
    }

    @Test
    @DisplayName("chargedButNot counts the distinct charged orders the service does not consider paid")
    void chargedButNotCountsChargedOrdersThatAreNotPaid() {
        charge("o-3");
        charge("o-1");
        charge("o-1");
        charge("o-2");
        Set<String> paid = Set.of("o-2");

        assertThat(ledger.chargedButNot(paid::contains)).isEqualTo(2);
        assertThat(ledger.ordersChargedButNot(paid::contains)).containsExactly("o-1", "o-3");
        assertThat(ledger.chargedButNot(orderId -> true)).isZero();
        assertThat(ledger.chargedOrderIds()).containsExactly("o-1", "o-2", "o-3");
        assertThat(ledger.distinctOrdersCharged()).isEqualTo(3);
        assertThat(ledger.doubleCharges()).isEqualTo(1);
    }

    @Test
    @DisplayName("an order whose charges were all refunded no longer counts as charged-but-not-paid; a partly refunded one does")
    void fullyRefundedOrdersAreNotChargedButNotPaid() {
        ChargeResult onlyCharge = charge("o-1");
        ChargeResult firstOfTwo = charge("o-2");
        charge("o-2");

        assertThat(ledger.refund(onlyCharge.paymentId())).isTrue();
        assertThat(ledger.refund(firstOfTwo.paymentId())).isTrue();

        assertThat(ledger.ordersChargedButNot(orderId -> false)).containsExactly("o-2");
        assertThat(ledger.refunds()).isEqualTo(2);
        assertThat(ledger.refundedCents()).isEqualTo(2_000);
        assertThat(ledger.charges()).as("a refund does not erase the charge").isEqualTo(3);
        assertThat(ledger.doubleCharges()).isEqualTo(1);
    }

    @Test
    @DisplayName("refunding twice refunds once; refunding an unknown payment id is an IllegalArgumentException")
    void refundIsOncePerPayment() {
        ChargeResult charge = charge("o-1");

        assertThat(ledger.refund(charge.paymentId())).isTrue();
        assertThat(ledger.refund(charge.paymentId())).isFalse();
        assertThat(ledger.refunds()).isEqualTo(1);
        assertThatThrownBy(() -> ledger.refund("pay-999"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pay-999");
    }
}
