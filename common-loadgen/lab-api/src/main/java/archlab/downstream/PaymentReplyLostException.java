package archlab.downstream;

/**
 * The payment provider charged the money, and then its reply was lost: the caller sees an error, yet
 * the {@link PaymentLedger} holds the charge. An injected fault ({@link DownstreamSettings#paymentLostReplyRate()});
 * the case idempotency keys and reconcilers exist for.
 */
public class PaymentReplyLostException extends DownstreamException {

    public PaymentReplyLostException(long callIndex, String orderId) {
        super(Payments.NAME, callIndex, "reply lost for order " + orderId + " (the provider did charge)");
    }

    /**
     * A lost reply rebuilt from its fields, e.g. by a remote client re-throwing the server's: the message is
     * {@code "<stub> call #<callIndex>: <problem>"}, as the original's.
     */
    public PaymentReplyLostException(String stub, long callIndex, String problem) {
        super(stub, callIndex, problem);
    }
}
