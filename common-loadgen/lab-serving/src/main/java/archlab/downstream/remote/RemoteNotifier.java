package archlab.downstream.remote;

import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.NotifierStub;
import archlab.request.RequestContext;
import java.util.Objects;

/**
 * {@link Notifier} over HTTP: each call is one POST to a {@link DownstreamServer}; the contract is
 * {@link RemoteDownstream}'s. Thread-safe.
 */
final class RemoteNotifier implements Notifier {

    private final DownstreamCalls calls;

    RemoteNotifier(DownstreamCalls calls) {
        this.calls = calls;
    }

    @Override
    public void notify(RequestContext ctx, Notification notification) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(notification, "notification");
        calls.post(ctx, NotifierStub.NAME, DownstreamWire.NOTIFY, DownstreamWire.JSON.createObjectNode()
                .put("messageId", notification.messageId()).put("orderId", notification.orderId()));
    }

    @Override
    public String toString() {
        return "remote " + NotifierStub.NAME;
    }
}
