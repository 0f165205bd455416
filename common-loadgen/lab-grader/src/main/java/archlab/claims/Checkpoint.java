package archlab.claims;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;

/**
 * A solution under grading: how to build one fresh service over the given downstreams. Each checkpoint module — and
 * a student's copy of ch12-1 — has exactly one, {@code archlab.order.GradedCheckpoint}, which adapts its
 * {@code OrderService} to the {@link OrderPort} with the three-argument constructor and nothing else.
 */
public interface Checkpoint {

    /**
     * @return a new service over these downstreams, its background work (if any) started; the caller closes it
     */
    OrderPort open(Inventory inventory, Payments payments, Notifier notifier);
}
