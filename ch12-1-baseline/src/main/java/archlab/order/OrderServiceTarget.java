package archlab.order;

import archlab.loadgen.BookWorkload;
import archlab.loadgen.OrderTarget;
import archlab.request.RequestContext;
import java.util.List;
import java.util.Optional;

/** Adapts {@link OrderService} to the shared {@link BookWorkload}: the book's customer and one item. */
public final class OrderServiceTarget implements OrderTarget {

    private static final List<Item> BOOK_ITEMS =
            List.of(new Item(BookWorkload.SKU, BookWorkload.QUANTITY, BookWorkload.UNIT_PRICE_CENTS));

    private final OrderService service;

    public OrderServiceTarget(OrderService service) {
        this.service = service;
    }

    @Override
    public String create(RequestContext ctx) {
        return service.create(ctx, BookWorkload.CUSTOMER, BOOK_ITEMS).id();
    }

    @Override
    public void get(RequestContext ctx, String orderId) {
        service.get(ctx, orderId);
    }

    @Override
    public Optional<OrderSnapshot> order(RequestContext ctx, String orderId) {
        Order order = service.get(ctx, orderId);
        return Optional.of(new OrderSnapshot(order.id(), order.status().name(), order.totalCents(), order.version()));
    }

    @Override
    public void pay(RequestContext ctx, String orderId) {
        service.pay(ctx, orderId);
    }
}
