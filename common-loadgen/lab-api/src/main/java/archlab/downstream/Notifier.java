package archlab.downstream;

import archlab.request.RequestContext;

/**
 * The notification system: tells the customer their order was paid.
 *
 * <p>Delivery is at-least-once: a message sent again (same {@link Notification#messageId()}) after a
 * timeout is recognised by the receiver, so its effect happens once.
 *
 * <p>Implementations must be safe to call from any number of threads.
 */
public interface Notifier {

    /**
     * Delivers {@code notification}.
     *
     * @throws DownstreamTimeoutException when the deadline passes before the reply arrives
     *                                    (the message may have been delivered)
     * @throws PermanentDeliveryException when the notifier refuses this message for good: no later attempt can
     *                                    deliver it (nothing delivered)
     * @throws DownstreamException        when the notifier refuses the call (nothing delivered); any error other
     *                                    than {@link PermanentDeliveryException} is transient: a later attempt may deliver
     */
    void notify(RequestContext ctx, Notification notification);
}
