package archlab.downstream;

/**
 * The notifier refused a message for good: sending it again can never deliver it (a message id already used for
 * another order, a recipient that does not exist). Nothing was delivered.
 *
 * <p>The trap it marks: a sender that cannot tell "not now" from "never". Every other notifier error
 * ({@link DownstreamException}, {@link DownstreamTimeoutException}) is transient: the notifier is down, slow or
 * refused this call, and a later attempt may deliver. A sender that parks a message after some number of transient
 * failures loses it to an outage that lasted a little longer than its patience; a sender that retries a permanent
 * refusal retries for ever. This type is the notifier saying "never", so the sender can park the message at once
 * and keep retrying everything else.
 */
public class PermanentDeliveryException extends DownstreamException {

    /**
     * @param stub      the notifier's name
     * @param callIndex the refused call's number at that stub, 0-based
     * @param problem   why the message can never be delivered, for the message
     */
    public PermanentDeliveryException(String stub, long callIndex, String problem) {
        super(stub, callIndex, "permanent: " + problem);
    }
}
