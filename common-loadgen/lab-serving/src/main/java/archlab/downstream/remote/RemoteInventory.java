package archlab.downstream.remote;

import archlab.downstream.Inventory;
import archlab.downstream.InventoryStub;
import archlab.request.RequestContext;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * {@link Inventory} over HTTP: each call is one POST to a {@link DownstreamServer}; the contract is
 * {@link RemoteDownstream}'s. Thread-safe.
 */
final class RemoteInventory implements Inventory {

    private final DownstreamCalls calls;

    RemoteInventory(DownstreamCalls calls) {
        this.calls = calls;
    }

    @Override
    public void reserve(RequestContext ctx, String sku, int quantity) {
        Objects.requireNonNull(ctx, "ctx");
        calls.post(ctx, InventoryStub.NAME, DownstreamWire.RESERVE, skuAndQuantity(sku, quantity));
    }

    @Override
    public void release(RequestContext ctx, String sku, int quantity) {
        Objects.requireNonNull(ctx, "ctx");
        calls.post(ctx, InventoryStub.NAME, DownstreamWire.RELEASE, skuAndQuantity(sku, quantity));
    }

    @Override
    public void reserve(RequestContext ctx, String reservationKey, String sku, int quantity) {
        Objects.requireNonNull(ctx, "ctx");
        calls.post(ctx, InventoryStub.NAME, DownstreamWire.KEYED_RESERVE,
                skuAndQuantity(sku, quantity).put("reservationKey", reservationKey));
    }

    @Override
    public void release(RequestContext ctx, String reservationKey) {
        Objects.requireNonNull(ctx, "ctx");
        calls.post(ctx, InventoryStub.NAME, DownstreamWire.KEYED_RELEASE,
                DownstreamWire.JSON.createObjectNode().put("reservationKey", reservationKey));
    }

    private static ObjectNode skuAndQuantity(String sku, int quantity) {
        return DownstreamWire.JSON.createObjectNode().put("sku", sku).put("quantity", quantity);
    }

    @Override
    public String toString() {
        return "remote " + InventoryStub.NAME;
    }
}
