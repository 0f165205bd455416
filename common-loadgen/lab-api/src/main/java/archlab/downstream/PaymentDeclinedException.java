package archlab.downstream;

/**
 * The payment provider declined the charge, cleanly, before any money moved. An injected fault
 * ({@link DownstreamSettings#paymentDeclineRate()}), or its replay: a charge with an idempotency key the provider
 * declined before is declined again, as a real provider answers a repeated key with its first answer.
 */
public class PaymentDeclinedException extends DownstreamException {

    public PaymentDeclinedException(long callIndex, String orderId) {
        super(Payments.NAME, callIndex, "payment declined for order " + orderId + " (no money moved)");
    }

    /**
     * The replay of an earlier decline of the same idempotency key.
     *
     * @param firstCall the call that was declined first
     */
    public PaymentDeclinedException(long callIndex, String orderId, long firstCall) {
        super(Payments.NAME, callIndex, "payment declined for order " + orderId + " (the key's first answer, call #"
                + firstCall + ", replayed; no money moved)");
    }

    /**
     * A decline rebuilt from its fields, e.g. by a remote client re-throwing the server's: the message is
     * {@code "<stub> call #<callIndex>: <problem>"}, as the original's.
     */
    public PaymentDeclinedException(String stub, long callIndex, String problem) {
        super(stub, callIndex, problem);
    }
}
