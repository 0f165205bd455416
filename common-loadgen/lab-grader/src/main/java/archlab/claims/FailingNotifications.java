package archlab.claims;

import archlab.downstream.DownstreamException;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.request.RequestContext;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The notifier as a solution sees it, refusing the first {@code failing} notifications of each order (nothing is
 * delivered; a later attempt may deliver): an outbox retries them, fire-and-forget never does. Counted per order
 * ({@link OrderFaults}), so a solution cannot use the failures up with notifications of orders no one placed.
 * Thread-safe; every other call goes to the notifier unchanged.
 */
final class FailingNotifications implements Notifier {

    private final Notifier notifier;
    private final int failing;
    private final ConcurrentHashMap<String, AtomicInteger> callsByOrder = new ConcurrentHashMap<>();

    FailingNotifications(Notifier notifier, int failing) {
        this.notifier = notifier;
        this.failing = failing;
    }

    @Override
    public void notify(RequestContext ctx, Notification notification) {
        String order = notification == null ? null : notification.orderId();
        if (order != null && callsByOrder.computeIfAbsent(order, id -> new AtomicInteger()).getAndIncrement() < failing) {
            throw new DownstreamException("notify", -1, "the notifier refused the call (injected, for this order's first "
                    + failing + " notification(s)); nothing was delivered");
        }
        notifier.notify(ctx, notification);
    }
}
