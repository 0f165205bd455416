package archlab.order;

/**
 * Pay's answer when its charge went through but its PAID commit was refused because another process had taken the
 * order's claim over: this process's lease session ended mid-pay (the server or the network dropped it), a peer
 * found the lease gone and adopted the PAYING order, and the database now refuses this process's change of it (the claim is the
 * peer's). The peer's reconciler asks the provider by the idempotency key and marks the order PAID; this process
 * cannot, and does not try (its own reconciler is not asked: the database would refuse it too), so neither "paid" nor
 * "failed" would be true yet. Answered as an unknown outcome (504 over HTTP), as a charge
 * without an answer is.
 *
 * <p>The trap it avoids: a refused commit reported as an internal error (an {@code IllegalStateException}, a 500) —
 * the client would read a server bug, and retry a pay whose money has moved.
 */
public final class ClaimTakenOverOutcomeUnknownException extends RuntimeException {

    private final String orderId;

    public ClaimTakenOverOutcomeUnknownException(String orderId) {
        super("order " + orderId + ": charged, but another process took its claim over before the PAID commit; that"
                + " process resolves it with the provider by idempotency key");
        this.orderId = orderId;
    }

    /** @return the order whose PAID commit this process may no longer make */
    public String orderId() {
        return orderId;
    }
}
