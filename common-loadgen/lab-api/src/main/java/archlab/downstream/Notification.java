package archlab.downstream;

/**
 * One message to the customer about an order.
 *
 * @param messageId the message's identity, the same for every redelivery of it, so the receiver can
 *                  recognise a message it has already seen; not blank
 * @param orderId   the order the message is about; not blank
 */
public record Notification(String messageId, String orderId) {

    public Notification {
        if (messageId == null || messageId.isBlank()) {
            throw new IllegalArgumentException("messageId must not be blank, was '" + messageId + "'");
        }
        if (orderId == null || orderId.isBlank()) {
            throw new IllegalArgumentException("orderId must not be blank, was '" + orderId + "'");
        }
    }

    /** The "order paid" message of {@code orderId}: one message id per order, {@code "paid:<orderId>"}. */
    public static Notification orderPaid(String orderId) {
        return new Notification("paid:" + orderId, orderId);
    }
}
