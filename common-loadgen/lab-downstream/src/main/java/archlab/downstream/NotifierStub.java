package archlab.downstream;

import archlab.request.RequestContext;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-memory {@link Notifier} whose receiver recognises redelivered messages: a message id delivered
 * again is counted as a redelivery, and its effect (the customer is notified) happens once.
 *
 * <p>Follows the package's call rule: a refused call (injected error, or deadline passed on arrival)
 * delivers nothing; an accepted call delivers at once, and the delivery stays even if the caller's
 * deadline passes while the reply is on the way &mdash; so a retry after a timeout is a redelivery. Its one
 * permanent refusal ({@link PermanentDeliveryException}) is a message id reused for another order; every other
 * error it throws is transient.
 *
 * <p>Counts: {@code deliveries = distinctMessages + redeliveries}. Per order, the <em>effective</em>
 * notifications are the distinct messages about it: two distinct message ids for one order notify the
 * customer twice (see {@link #duplicateNotifications()}).
 *
 * <p>Thread-safe and lock-free.
 */
public final class NotifierStub implements Notifier {

    /** The stub's name in messages and counters. */
    public static final String NAME = "notifier";

    private final FaultModel errors;
    private final SimulatedCalls calls;
    private final ConcurrentHashMap<String, String> orderIdByMessageId = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> notificationsByOrder = new ConcurrentHashMap<>();
    private final LongAdder deliveries = new LongAdder();
    private final LongAdder redeliveries = new LongAdder();

    public NotifierStub(StubBehaviour behaviour) {
        Objects.requireNonNull(behaviour, "behaviour");
        this.errors = behaviour.errors();
        this.calls = new SimulatedCalls(NAME, behaviour.latency());
    }

    /**
     * {@inheritDoc}
     *
     * @throws PermanentDeliveryException if the message id was delivered before for a different order: the
     *                                     receiver will never take it (counted as a call, nothing delivered)
     */
    @Override
    public void notify(RequestContext ctx, Notification notification) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(notification, "notification");
        long callIndex = calls.arrive(ctx);
        if (errors.failsCall(callIndex)) {
            calls.countInjectedError();
            throw new DownstreamException(NAME, callIndex,
                    "injected error: message " + notification.messageId() + " refused (nothing delivered)");
        }
        deliver(notification, callIndex);
        calls.replyDelay(ctx, callIndex);
        calls.countSucceeded();
    }

    private void deliver(Notification notification, long callIndex) {
        String orderId = notification.orderId();
        String seenFor = orderIdByMessageId.putIfAbsent(notification.messageId(), orderId);
        if (seenFor != null && !seenFor.equals(orderId)) {
            throw new PermanentDeliveryException(NAME, callIndex, "message id '" + notification.messageId()
                    + "' was delivered for order " + seenFor + " and is now reused for order " + orderId + "; nothing delivered");
        }
        deliveries.increment();
        if (seenFor == null) {
            notificationsByOrder.computeIfAbsent(orderId, id -> new LongAdder()).increment();
        } else {
            redeliveries.increment();
        }
    }

    /** @return messages delivered, redeliveries included */
    public long deliveries() {
        return deliveries.sum();
    }

    /** @return distinct message ids delivered: the notifications that had an effect */
    public long distinctMessages() {
        return orderIdByMessageId.size();
    }

    /** @return deliveries of a message id delivered before (recognised; no second effect) */
    public long redeliveries() {
        return redeliveries.sum();
    }

    /** @return how many distinct messages about {@code orderId} the customer received (0 if none) */
    public long notificationsFor(String orderId) {
        LongAdder count = notificationsByOrder.get(orderId);
        return count == null ? 0 : count.sum();
    }

    /** @return the number of distinct orders with at least one notification */
    public long ordersNotified() {
        return notificationsByOrder.size();
    }

    /** @return effective notifications beyond the first, summed over orders: &Sigma; max(0, n &minus; 1) */
    public long duplicateNotifications() {
        return notificationsByOrder.values().stream().mapToLong(n -> Math.max(0, n.sum() - 1)).sum();
    }

    /** @return a snapshot of this stub's call counters */
    public StubCounters counters() {
        return calls.counters();
    }

    @Override
    public String toString() {
        return NAME + " " + counters() + " deliveries=" + deliveries() + " redeliveries=" + redeliveries();
    }
}
