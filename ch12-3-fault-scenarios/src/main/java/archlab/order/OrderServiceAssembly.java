package archlab.order;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.util.concurrent.atomic.LongAdder;
import java.util.Objects;
import java.util.Optional;

/**
 * Puts an {@link OrderService} together as {@link OrderServiceSettings} say, and hands its parts (the outbox and its relay, the cache, the token bucket, the payment bulkhead and breaker, the reconciler) to whoever
 * runs or watches the service (the labs, the tests). The service only uses its parts; building them and handing them
 * out is this class's job. Nothing is started: start {@link #relay()} and {@link #reconciler()} to work in the background;
 * {@link OrderService#close()} stops them.
 *
 * <p>{@code new OrderService(inventory, payments, notifier)}, the constructor the graders use, is this assembly with
 * {@link OrderServiceSettings#DEFAULT}, started.
 */
public final class OrderServiceAssembly {

    final Inventory inventory;
    final Payments payments;
    final Notifier notifier;
    final OrderServiceSettings settings;
    final OrderTable table;
    final OrderCache cache;
    final RateLimiter payLimiter;
    final OutboxRelay relay;
    final PaymentBulkhead paymentBulkhead;
    final CircuitBreaker paymentBreaker;
    final Reconciler reconciler;
    final LongAdder retries = new LongAdder();
    private OrderService service;

    /** A service put together as {@code settings} say, its orders and outbox in memory; nothing started. */
    public static OrderServiceAssembly assemble(Inventory inventory, Payments payments, Notifier notifier,
                                                OrderServiceSettings settings) {
        return assemble(inventory, payments, notifier, settings,
                new InMemoryOrderTable(settings.tableReadLatency(), settings.clock()));
    }

    /**
     * A service put together as {@code settings} say, its orders and outbox in {@code table} (the table's own read
     * latency, not {@link OrderServiceSettings#tableReadLatency()}); nothing started.
     */
    public static OrderServiceAssembly assemble(Inventory inventory, Payments payments, Notifier notifier,
                                                OrderServiceSettings settings, OrderTable table) {
        OrderServiceAssembly parts = new OrderServiceAssembly(inventory, payments, notifier, settings, table);
        parts.service = new OrderService(parts);
        return parts;
    }

    /** The parts alone, for {@link OrderService}'s own constructor: orders in memory. */
    OrderServiceAssembly(Inventory inventory, Payments payments, Notifier notifier, OrderServiceSettings settings) {
        this(inventory, payments, notifier, settings, new InMemoryOrderTable(settings.tableReadLatency(), settings.clock()));
    }

    private OrderServiceAssembly(Inventory inventory, Payments payments, Notifier notifier, OrderServiceSettings settings,
                                 OrderTable table) {
        this.inventory = Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(payments, "payments");
        this.paymentBulkhead = settings.paymentBulkhead() == null ? null : new PaymentBulkhead(payments, settings.paymentBulkhead());
        this.payments = paymentBulkhead == null ? payments : paymentBulkhead;
        this.notifier = Objects.requireNonNull(notifier, "notifier");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.table = Objects.requireNonNull(table, "table");
        this.cache = settings.cache() == null ? null
                : new OrderCache(settings.cache(), settings.clock(), settings.executor(), table::read);
        this.payLimiter = settings.payLimit() == null ? null
                : new RateLimiter("pay", settings.payLimit(), settings.clock(), settings.payBucket());
        if (cache != null) { // another instance's change: drop this instance's copy too (when the table hears of it)
            table.onChangedElsewhere(cache::invalidate);
        }
        this.relay = new OutboxRelay(table.outbox(), notifier, settings.clock(), settings.executor(), settings.relay());
        this.paymentBreaker = settings.paymentBreaker() == null ? null
                : new CircuitBreaker("payment", settings.paymentBreaker(), settings.clock(), DownstreamErrors::providerFailed);
        this.reconciler = new Reconciler(inventory, this.payments, settings.clock(), settings.executor(), settings.reconciler(),
                new PayingOrderResolver(table.writeLock(), table, this::invalidate));
    }

    /** @return the service these parts make up */
    public OrderService service() {
        return service;
    }

    /** @return the outbox pay records notifications in */
    public Outbox outbox() {
        return table.outbox();
    }

    /** @return the relay that delivers the outbox; start it to deliver in the background */
    public OutboxRelay relay() {
        return relay;
    }

    /** @return the read cache, if the service has one */
    public Optional<OrderCache> cache() {
        return Optional.ofNullable(cache);
    }

    /** @return the token bucket in front of pay, if the service has one */
    public Optional<RateLimiter> payLimiter() {
        return Optional.ofNullable(payLimiter);
    }

    /** @return reads that reached the order table (get's reads; a cache hit is not one) */
    public long tableReads() {
        return table.reads();
    }

    /** @return the reconciler of unknown charges and pending releases; start it to work in the background */
    public Reconciler reconciler() {
        return reconciler;
    }

    /** @return the bulkhead in front of payment, if the service has one */
    public Optional<PaymentBulkhead> paymentBulkhead() {
        return Optional.ofNullable(paymentBulkhead);
    }

    /** @return the breaker in front of payment, if the service has one */
    public Optional<CircuitBreaker> paymentBreaker() {
        return Optional.ofNullable(paymentBreaker);
    }

    /** @return attempts of a reserve or a charge after the first */
    public long retries() {
        return retries.sum();
    }

    /** What the reconciler's state changes drop: the order's second-level entry first, then this instance's copy. */
    private void invalidate(String orderId) {
        table.changed(orderId);
        if (cache != null) {
            cache.invalidate(orderId);
        }
    }
}
