package archlab.order;

import archlab.downstream.Inventory;
import archlab.downstream.Notification;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.request.Deadline;
import archlab.request.DeadlineExceededException;
import archlab.request.RequestContext;
import archlab.trace.Span;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;

/**
 * The book's in-memory order service hardened for chapter 12.3's faults — ch12-2 plus what a slow or
 * failing downstream asks for.
 *
 * <p>The trap it fixes: ch12-2 is fast while its downstream is healthy, but a charge that times out or
 * whose reply is lost leaves money taken for an order it makes CREATED again ("charged but not PAID"), a
 * release that fails leaks stock, and its compensation keeps the caller past the deadline. Here:
 * <ol>
 *   <li><b>Per-call timeouts.</b> Every reserve and charge gets a budget of its own ({@link RetryPolicy#perCallBudget()})
 *       carved out of the request's deadline, so one slow call cannot eat the whole request.</li>
 *   <li><b>Bounded, keyed retries.</b> Only idempotent calls are retried — the keyed reserve (one
 *       {@link PayClaim#reservationKey} per claim) and the keyed charge — with exponential backoff and full jitter,
 *       never past the deadline, and only when another attempt may help ({@link DownstreamErrors#worthRetrying}).</li>
 *   <li><b>Fail fast.</b> A {@link CircuitBreaker} in front of payment refuses pays at once while the provider
 *       keeps timing out (counted as rejected, nothing claimed or reserved); every charge attempt goes through
 *       it ({@link ChargeAttempts}), and a pay it refuses once under way is answered with
 *       {@link CircuitOpenMidPayException}, a failure with its latency, not a rejection.</li>
 *   <li><b>Unknown is not failed.</b> A charge with an attempt that reached the provider and ended without an
 *       answer (a timeout during the reply, a lost reply) may have moved money: the order stays PAYING and goes
 *       to the {@link Reconciler}, which asks the provider by idempotency key and completes it to PAID
 *       (notification in the outbox) or, if nothing was charged, releases the stock and makes it CREATED again
 *       — changing the order only through {@link PayingOrderResolver}, under the table's write lock. A pay whose PAID
 *       commit fails after its charge goes to the reconciler too, and so do the PAYING orders of a process that
 *       died ({@link Reconciler#adoptOrphans()}).</li>
 *   <li><b>Compensation off the request path.</b> A definitive failure (a decline, a refused reserve, an open
 *       breaker) hands the release to the reconciler, which retries it (keyed, idempotent) until it is done; the
 *       caller is answered at once, never held past its deadline.</li>
 * </ol>
 * What ch12-2 already did stays: short critical sections (claim CREATED → PAYING, call with nothing held, commit), the
 * idempotent charge ({@link ChargeKey}), the outbox (PAID and its notification as one unit of the
 * table's, {@link OrderTable#commitPaid}, delivered by an {@link OutboxRelay}), the read cache, the token bucket and
 * immutable snapshots. The lock is the table's ({@link OrderTable#writeLock()}): the rows' lock in memory, none on
 * PostgreSQL, whose statements check and write at once.
 *
 * <p>Segments marked for "where the time went": {@value RateLimiter#LIMITER}, {@value OrderTable#LOCK_WAIT}, {@value OrderTable#LOCK_HELD}
 * (inclusive of {@value Outbox#OUTBOX_APPEND}, its only nested segment), {@value #INVENTORY}, {@value #PAYMENT},
 * {@value #INVENTORY_RELEASE}, {@value OrderCache#CACHE_LOOKUP} (inclusive of a load's {@value OrderTable#TABLE_READ}),
 * {@value OrderTable#TABLE_READ}, {@value OrderCache#CACHE_INVALIDATE} ({@value RedisCachedOrderTable#CACHE_L2_INVALIDATE} with a second level in Redis), and ch12-3's {@value #RETRY_BACKOFF} (the waits between attempts).
 *
 * <p>Thread-safety: all methods are safe to call from any number of threads.
 */
public final class OrderService implements AutoCloseable {

    public static final String INVENTORY = "inventory";
    public static final String PAYMENT = "payment";
    public static final String INVENTORY_RELEASE = "inventory.release";
    public static final String RETRY_BACKOFF = "retry.backoff";

    // tag::lock[]
    // It guards state changes only, and is the table's (in memory the rows' lock; in PostgreSQL
    // none, null here: the database checks and writes in one statement). Reads take no lock.
    private final Lock lock;
    private final OrderTable table;
    // end::lock[]

    private final Inventory inventory;
    private final Payments payments;
    private final OrderCache cache;
    private final RateLimiter payLimiter;
    private final OutboxRelay relay;
    private final RetryPolicy reserveRetry;
    private final RetryPolicy chargeRetry;
    private final RetryPolicy.Sleeper sleeper;
    private final CircuitBreaker paymentBreaker;
    private final Reconciler reconciler;
    private final LongAdder retries;

    /**
     * The chapter's service as it runs: {@link OrderServiceSettings#DEFAULT}, its relay and its reconciler started; {@link #close()} stops
     * them. This is the constructor chapter 12.1 defines, the one the graders use. Any other service is put together by
     * {@link OrderServiceAssembly}, which also hands out its parts.
     */
    public OrderService(Inventory inventory, Payments payments, Notifier notifier) {
        this(new OrderServiceAssembly(inventory, payments, notifier, OrderServiceSettings.DEFAULT));
        relay.start();
        reconciler.start();
    }

    /** The service {@code parts} make up (payment behind the bulkhead, if there is one); nothing started. */
    OrderService(OrderServiceAssembly parts) {
        this.inventory = parts.inventory;
        this.payments = parts.payments;
        this.table = parts.table;
        this.lock = table.writeLock().orElse(null);
        this.cache = parts.cache;
        this.payLimiter = parts.payLimiter;
        this.relay = parts.relay;
        this.reserveRetry = parts.settings.reserveRetry();
        this.chargeRetry = parts.settings.chargeRetry();
        this.sleeper = parts.settings.sleeper();
        this.paymentBreaker = parts.paymentBreaker;
        this.reconciler = parts.reconciler;
        this.retries = parts.retries;
    }

    /**
     * Creates an order in status CREATED with version 0.
     *
     * @throws InvalidOrderException for a blank customer, no items, a blank SKU, a quantity ≤ 0, a
     *                               negative price or a total that overflows a long; nothing is stored
     */
    public Order create(RequestContext ctx, String customerId, List<Item> items) {
        long total = validatedTotal(customerId, items);
        Order order;
        lock(ctx);
        try (Span held = heldSpan(ctx)) {
            order = table.insert(customerId, items, total);
        } finally {
            unlock();
        }
        invalidate(ctx, order.id()); // a remembered "not found" for this id must not outlive the create
        return order;
    }

    /** @throws OrderNotFoundException if no order has this id */
    public Order get(RequestContext ctx, String orderId) {
        if (orderId == null) {
            throw new OrderNotFoundException(null);
        }
        Order order = cache == null ? table.read(ctx, orderId) : cache.get(ctx, orderId).orElse(null);
        if (order == null) {
            throw new OrderNotFoundException(orderId);
        }
        return order;
    }

    /**
     * Claims the order (CREATED → PAYING), reserves stock and charges — keyed calls, each on a budget of its
     * own, retried with backoff while the deadline allows, no lock held — then marks it PAID and records its
     * notification in the outbox, in one unit of the table's. Whatever fails, the caller is answered by its
     * deadline: a definitive failure (nothing charged) hands the release of the stock to the reconciler and is
     * rethrown; a charge without an answer leaves the order PAYING for the reconciler.
     *
     * @throws RateLimitedException   if pay is over its quota; nothing was read, changed or called
     * @throws CircuitOpenException   if the payment breaker is open; nothing was changed or called
     * @throws CircuitOpenMidPayException if the breaker opened while this pay was under way and refused its charge
     *                                attempt, no attempt having gone unanswered: nothing was charged, the stock goes
     *                                back through the reconciler
     * @throws PaymentOutcomeUnknownException if an attempt went unanswered and none answered after it: the
     *                                order stays PAYING until the reconciler resolves it (when the last attempt
     *                                timed out, the timeout is thrown instead: it says "unknown" already)
     * @throws ClaimTakenOverOutcomeUnknownException if the charge went through but another process took the claim
     *                                over before the PAID commit (this one's lease lapsed): that process completes it
     * @throws OrderNotFoundException if no order has this id
     * @throws InvalidStateException  if the order is not CREATED (PAYING: another pay, or the reconciler, has it)
     */
    // tag::pay[]
    public Order pay(RequestContext ctx, String orderId) {
        if (payLimiter != null) {
            payLimiter.acquire(ctx);
        }
        if (paymentBreaker != null) {
            paymentBreaker.check(); // fail fast before anything is claimed
        }
        PayClaim claim = claim(ctx, orderId);
        Order paying = claim.order();
        try {
            for (int i = 0; i < paying.items().size(); i++) {
                Item item = paying.items().get(i);
                String key = claim.reservationKeys().get(i);
                try (Span s = ctx.span(INVENTORY)) {
                    reserveRetry.runVoid(ctx, c -> inventory.reserve(c, key, item.sku(), item.quantity()),
                            DownstreamErrors::worthRetrying, backoff(ctx), retries);
                }
            }
        } catch (RuntimeException e) {
            reconciler.release(paying.id(), claim.reservationKeys()); // keyed: also undoes a reserve whose reply was late
            throw e;
        }
        ChargeAttempts charge = new ChargeAttempts(payments, paymentBreaker, paying);
        try (Span s = ctx.span(PAYMENT)) {
            chargeRetry.run(ctx, charge::attempt, DownstreamErrors::worthRetrying, backoff(ctx), retries);
        } catch (RuntimeException e) {
            if (!charge.mayHaveCharged()) {
                reconciler.release(paying.id(), claim.reservationKeys());
                throw e; // definitive: nothing was charged
            }
            reconciler.checkCharge(paying.id(), claim.reservationKeys(), ctx.deadline()); // unknown, not failed
            if (e instanceof DeadlineExceededException) {
                throw e; // "timed out" already says "we do not know"; it claims no failure
            }
            throw new PaymentOutcomeUnknownException(paying.id(), e); // not the last attempt's "declined"
        }
        try {
            return commit(ctx, paying);
        } catch (ClaimTakenOverOutcomeUnknownException e) {
            throw e; // the claim is a peer's: its reconciler completes the order, this one's would be refused
        } catch (RuntimeException e) {
            reconciler.checkCharge(paying.id(), claim.reservationKeys(), Deadline.NONE); // charged: the PAID commit is owed
            throw e;
        }
    }
    // end::pay[]

    private RetryPolicy.Sleeper backoff(RequestContext ctx) {
        return nanos -> {
            try (Span s = ctx.span(RETRY_BACKOFF)) {
                sleeper.sleepNanos(nanos);
            }
        };
    }

    /** @return whether order {@code orderId} exists and is PAID (for the ledger's charged-but-not-PAID count) */
    public boolean isPaid(String orderId) {
        Order order = table.current(orderId);
        return order != null && order.status() == OrderStatus.PAID;
    }

    /** Stops the reconciler and the relay (after their passes in progress); what is pending stays pending. */
    @Override
    public void close() {
        reconciler.stop();
        relay.stop();
    }

    /** @return how long until the request's deadline; {@code null} without one */
    private static java.time.Duration untilDeadline(RequestContext ctx) {
        return ctx.deadline().equals(Deadline.NONE) ? null : java.time.Duration.ofNanos(Math.max(0, ctx.remainingNanos()));
    }

    /** CREATED → PAYING under the lock; the claim that makes a concurrent second pay fail at once. */
    private PayClaim claim(RequestContext ctx, String orderId) {
        OrderTable.Claim claimed;
        lock(ctx);
        try (Span held = heldSpan(ctx)) {
            Order order = find(orderId);
            if (order.status() != OrderStatus.CREATED) {
                throw new InvalidStateException(orderId, order.status(), "pay");
            }
            claimed = table.claim(order.markPaying(), untilDeadline(ctx)) // another process may have claimed it first
                    .orElseThrow(() -> new InvalidStateException(orderId, OrderStatus.PAYING, "pay"));
        } finally {
            unlock();
        }
        invalidate(ctx, orderId);
        return PayClaim.of(claimed.order(), claimed.number());
    }

    // tag::commit[]
    /** PAYING → PAID and the notification into the outbox: one unit of the table's, under its write lock if it has one. */
    private Order commit(RequestContext ctx, Order paying) {
        Order paid = paying.markPaid();
        lock(ctx);
        try (Span held = heldSpan(ctx)) {
            try (Span s = ctx.span(Outbox.OUTBOX_APPEND)) {
                if (!table.commitPaid(paid, Notification.orderPaid(paid.id()))) { // no longer ours: a peer adopted it
                    throw new ClaimTakenOverOutcomeUnknownException(paid.id());
                }
            }
        } finally {
            unlock();
        }
        invalidate(ctx, paid.id());
        return paid;
    }
    // end::commit[]

    private void invalidate(RequestContext ctx, String orderId) {
        table.changed(ctx, orderId); // a second level first: an L1 miss after this must not refill from it
        if (cache != null) {
            try (Span s = ctx.span(OrderCache.CACHE_INVALIDATE)) {
                cache.invalidate(orderId);
            }
        }
    }

    /** Takes the table's write lock, if it has one, marking the wait {@value OrderTable#LOCK_WAIT}; pair it with {@link #unlock()}. */
    private void lock(RequestContext ctx) {
        if (lock != null) {
            try (Span wait = ctx.span(OrderTable.LOCK_WAIT)) {
                lock.lock();
            }
        }
    }

    /** @return the span of a step under the lock: {@value OrderTable#LOCK_HELD}, or {@value OrderTable#STORE_WRITE} on a table without one */
    private Span heldSpan(RequestContext ctx) {
        return ctx.span(lock == null ? OrderTable.STORE_WRITE : OrderTable.LOCK_HELD);
    }

    private void unlock() {
        if (lock != null) {
            lock.unlock();
        }
    }

    private Order find(String orderId) {
        Order order = table.current(orderId);
        if (order == null) {
            throw new OrderNotFoundException(orderId);
        }
        return order;
    }

    private static long validatedTotal(String customerId, List<Item> items) {
        if (customerId == null || customerId.isBlank()) {
            throw new InvalidOrderException("customer id is blank");
        }
        if (items == null || items.isEmpty()) {
            throw new InvalidOrderException("an order needs at least one item");
        }
        long total = 0;
        for (Item item : items) {
            if (item == null || item.sku() == null || item.sku().isBlank()) {
                throw new InvalidOrderException("every item needs a SKU, got " + item);
            }
            if (item.quantity() <= 0) {
                throw new InvalidOrderException("quantity must be at least 1, got " + item.quantity() + " for " + item.sku());
            }
            if (item.unitPriceCents() < 0) {
                throw new InvalidOrderException("unit price must not be negative, got " + item.unitPriceCents() + " for " + item.sku());
            }
            try {
                total = Math.addExact(total, Math.multiplyExact(item.quantity(), item.unitPriceCents()));
            } catch (ArithmeticException e) {
                throw new InvalidOrderException("total overflows a long (" + items.size() + " items)");
            }
        }
        return total;
    }
}
