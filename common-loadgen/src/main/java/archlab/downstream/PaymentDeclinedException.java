package archlab.downstream;

/**
 * The payment provider declined the charge, cleanly, before any money moved. An injected fault
 * ({@link DownstreamSettings#paymentDeclineRate()}).
 */
public class PaymentDeclinedException extends DownstreamException {

    public PaymentDeclinedException(long callIndex, String orderId) {
        super(PaymentsStub.NAME, callIndex, "payment declined for order " + orderId + " (no money moved)");
    }
}
