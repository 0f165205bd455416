package archlab.order;

import archlab.claims.Checkpoint;
import archlab.claims.OrderPort;
import archlab.claims.OrderPortException;
import archlab.claims.OrderPortException.Kind;
import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import archlab.request.RequestRejectedException;
import java.util.List;
import java.util.function.Supplier;

/**
 * This module's service, as the graders see it: the three-argument constructor over the downstream ports, create /
 * get / pay with the request's context, {@code isPaid}, and {@code close()} if the service is {@link AutoCloseable}
 * (a solution that starts background work in its constructor stops it there). Nothing else of the service is used,
 * so this file is the same in every checkpoint and works unchanged for a student's refactor of ch12-1 that keeps
 * chapter 12.1's interface. Do not edit it: the claims grade through it.
 */
final class GradedCheckpoint implements Checkpoint {

    @Override
    public OrderPort open(Inventory inventory, Payments payments, Notifier notifier) {
        OrderService service = new OrderService(inventory, payments, notifier);
        return new OrderPort() {
            @Override
            public OrderView create(RequestContext ctx, String customerId, List<Line> lines) {
                return answer(() -> view(service.create(ctx, customerId, lines == null ? null
                        : lines.stream().map(l -> l == null ? null : new Item(l.sku(), l.quantity(), l.unitPriceCents())).toList())));
            }

            @Override
            public OrderView get(RequestContext ctx, String orderId) {
                return answer(() -> view(service.get(ctx, orderId)));
            }

            @Override
            public OrderView pay(RequestContext ctx, String orderId) {
                return answer(() -> view(service.pay(ctx, orderId)));
            }

            @Override
            public boolean isPaid(String orderId) {
                return service.isPaid(orderId);
            }

            @Override
            public void close() {
                if ((Object) service instanceof AutoCloseable closeable) {
                    try {
                        closeable.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("closing the service failed", e);
                    }
                }
            }
        };
    }

    private static OrderPort.OrderView view(Order order) {
        return new OrderPort.OrderView(order.id(), order.status().name(), order.totalCents(), order.version());
    }

    /** Runs {@code call}, classifying the service's error answers by the exception types chapter 12.1 defines. */
    private static OrderPort.OrderView answer(Supplier<OrderPort.OrderView> call) {
        try {
            return call.get();
        } catch (OrderNotFoundException e) {
            throw new OrderPortException(Kind.NOT_FOUND, e);
        } catch (InvalidStateException e) {
            throw new OrderPortException(Kind.INVALID_STATE, e);
        } catch (InvalidOrderException | IllegalArgumentException | NullPointerException e) {
            throw new OrderPortException(Kind.INVALID_INPUT, e);
        } catch (RequestRejectedException e) {
            throw new OrderPortException(Kind.REJECTED, e);
        } catch (RuntimeException e) {
            throw new OrderPortException(Kind.FAILED, e);
        }
    }
}
