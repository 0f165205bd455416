package archlab.order;

import archlab.background.Backoff;
import archlab.background.Durations;
import archlab.background.PollingLoop;
import archlab.downstream.ChargeResult;
import archlab.downstream.Inventory;
import archlab.downstream.Payments;
import archlab.order.ReconcilerQueue.Step;
import archlab.order.ReconcilerQueue.Task;
import archlab.request.Deadline;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Resolves, off the request path, every pay that did not end cleanly: the half of "unknown is not failed"
 * that runs after the caller has been answered.
 *
 * <p>The trap it fixes: ch12-2 treats a charge that timed out, or whose reply was lost, as failed — it
 * releases the stock and makes the order CREATED again while the provider may well have taken the money
 * ("charged but not PAID"). And it compensates inside the request: a release that is slow or fails keeps the
 * caller past its deadline, or leaks the stock. Here pay hands such an order over, still PAYING, and returns:
 * <ul>
 *   <li>{@link #checkCharge CHECK} — the charge's outcome is unknown. Once the request's deadline and a
 *       {@linkplain Settings#settleDelay() settle delay} have passed, ask the provider by idempotency key
 *       ({@link Payments#findByIdempotencyKey}). Charged: complete the order to PAID (its notification goes into
 *       the outbox in the same step). Not charged: go on as a RELEASE.</li>
 *   <li>{@link #release RELEASE} — nothing was charged. Release each reservation by its key (idempotent, so a
 *       retry and a reserve whose reply came late are both safe), retrying with exponential back-off until
 *       every key is released; then make the order CREATED again, payable.</li>
 * </ul>
 * A charged order is always completed, never refunded: the order is still PAYING and nobody else may touch it,
 * so "the customer paid" is the true outcome. A refund would be needed only for an order that changed in the
 * meantime (cancelled, say), which this service has no operation for.
 *
 * <p>One {@linkplain #reconcileDue() pass}: take the due tasks (up to {@link Settings#batchSize()}), work each
 * on the injected executor, wait for all of them. {@link #start()} runs passes on a daemon thread named
 * "reconciler", every {@link Settings#pollInterval()} of real time when nothing was due; {@link #stop()} ends
 * it after the pass in progress, leaving what is pending pending. Tests call {@link #reconcileDue()} on a fake
 * clock with {@code Runnable::run} as the executor, and nothing sleeps. At the end of a load run
 * {@link #reconcileAll(Duration)} works every task now, due or not.
 *
 * <p>What waits, and when it is due, is kept by a {@link ReconcilerQueue}; this class decides what a task does.
 *
 * <p>Thread-safety: every method may be called from any thread; each task is taken by exactly one pass.
 */
public final class Reconciler {

    /**
     * @param pollInterval   how long the loop waits when nothing was due; positive
     * @param settleDelay    how long after the request's deadline an unknown charge is first asked about;
     *                       zero or positive (a real provider may still be settling a charge it received late)
     * @param callTimeout    the deadline of each release call; positive
     * @param backoffBase    the wait after a failed release, doubled after each further one; positive
     * @param backoffMax     the longest wait; at least {@code backoffBase}
     * @param batchSize      tasks worked concurrently in one pass; at least 1
     */
    public record Settings(Duration pollInterval, Duration settleDelay, Duration callTimeout, Duration backoffBase,
                           Duration backoffMax, int batchSize) {

        /**
         * Poll every 10 ms, ask 50 ms after the deadline, 1 s per release call, back-off 5 ms doubling to 500 ms,
         * 64 at a time. Not 1 ms: nothing is due sooner than 50 ms after a deadline, so a platform thread waking
         * 1,000 times a second would wake 990 times for nothing. (Whether 1 ms would buy the book load anything shows in
         * its pay p99, run once with each.)
         */
        public static final Settings DEFAULT = new Settings(Duration.ofMillis(10), Duration.ofMillis(50),
                Duration.ofSeconds(1), Duration.ofMillis(5), Duration.ofMillis(500), 64);

        public Settings {
            Durations.requirePositive("pollInterval", pollInterval);
            if (settleDelay == null || settleDelay.isNegative()) {
                throw new IllegalArgumentException("settleDelay must be zero or positive, was " + settleDelay);
            }
            Durations.requirePositive("callTimeout", callTimeout);
            Durations.requirePositive("backoffBase", backoffBase);
            Durations.requirePositive("backoffMax", backoffMax);
            if (backoffMax.compareTo(backoffBase) < 0) {
                throw new IllegalArgumentException("backoffMax " + backoffMax + " is shorter than backoffBase " + backoffBase);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
            }
        }
    }

    /**
     * What the reconciler may do to an order: the service's own state changes, each under its lock, each only
     * for an order that is PAYING.
     */
    interface Resolver {
        /** PAYING → PAID and its notification into the outbox. @return false if the order was not PAYING */
        boolean markPaid(String orderId);

        /** PAYING → CREATED. @return false if the order was not PAYING */
        boolean markCreated(String orderId);

        /** @return the PAYING orders another process claimed and left (it died mid-pay), with their claims */
        List<PayClaim> orphans();
    }

    /**
     * What one pass did.
     *
     * @param taken    tasks it took
     * @param paid     orders it completed to PAID (the charge was found)
     * @param released orders whose stock it released and made CREATED again
     * @param retrying tasks due again later (a release failed)
     */
    public record Pass(int taken, int paid, int released, int retrying) {
    }

    private final Inventory inventory;
    private final Payments payments;
    private final NanoClock clock;
    private final Settings settings;
    private final Resolver resolver;
    private final Executor work;
    private final ReconcilerQueue queue = new ReconcilerQueue();
    private final LongAdder checked = new LongAdder();
    private final LongAdder completedPaid = new LongAdder();
    private final LongAdder releasedOrders = new LongAdder();
    private final LongAdder releaseFailures = new LongAdder();
    private final LongAdder notPaying = new LongAdder();
    private final LongAdder adopted = new LongAdder();
    private final PollingLoop loop;

    /**
     * @param inventory where reservations are released, by key
     * @param payments  asked by idempotency key whether a charge happened
     * @param clock     the clock of due times and release deadlines, nanoseconds
     * @param work      where each task is worked; {@code Runnable::run} works them on the pass's own thread
     * @param settings  timing, back-off and batching
     * @param resolver  the service's state changes
     */
    Reconciler(Inventory inventory, Payments payments, NanoClock clock, Executor work, Settings settings, Resolver resolver) {
        this.inventory = Objects.requireNonNull(inventory, "inventory");
        this.payments = Objects.requireNonNull(payments, "payments");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.work = Objects.requireNonNull(work, "work");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.loop = new PollingLoop("reconciler", settings.pollInterval(), () -> {
            adoptOrphansEvery(ADOPT_INTERVAL);
            return reconcileDue().taken() > 0;
        });
    }

    /** Hands over a PAYING order whose charge definitively failed, or never ran: release its keys now, then CREATED. */
    void release(String orderId, List<String> reservationKeys) {
        queue.add(new Task(orderId, List.copyOf(reservationKeys), Step.RELEASE, clock.nanoTime()));
    }

    /**
     * Hands over a PAYING order whose charge ended without an answer: ask the provider once {@code deadline} and
     * the settle delay have passed.
     */
    // tag::checkCharge[]
    void checkCharge(String orderId, List<String> reservationKeys, Deadline deadline) {
        long due = deadline.equals(Deadline.NONE) ? clock.nanoTime() : deadline.atNanos() + settings.settleDelay().toNanos();
        queue.add(new Task(orderId, List.copyOf(reservationKeys), Step.CHECK, due));
    }
    // end::checkCharge[]

    /** Runs one pass now over the tasks that are due, on the caller's thread (each task on the executor). */
    public Pass reconcileDue() {
        return pass(false);
    }

    /**
     * Works every task now, due or not, pass after pass, until none is left or {@code limit} of real time has
     * passed: for the end of a load run, so that what the run left unknown is resolved before it is counted.
     *
     * @return whether nothing is pending any more
     */
    public boolean reconcileAll(Duration limit) {
        long until = System.nanoTime() + limit.toNanos();
        while (pending() > 0) {
            if (System.nanoTime() - until > 0) {
                return false;
            }
            if (pass(true).taken() == 0) {
                LockSupport.parkNanos(1_000_000L); // another pass holds the rest
            }
        }
        return true;
    }

    private Pass pass(boolean dueOrNot) {
        List<Task> taken = queue.take(settings.batchSize(), dueOrNot, clock.nanoTime());
        if (taken.isEmpty()) {
            return new Pass(0, 0, 0, 0);
        }
        AtomicInteger paid = new AtomicInteger();
        AtomicInteger released = new AtomicInteger();
        AtomicInteger retrying = new AtomicInteger();
        CompletableFuture<?>[] running = new CompletableFuture<?>[taken.size()];
        for (int i = 0; i < taken.size(); i++) {
            Task task = taken.get(i);
            Runnable job = () -> {
                switch (work(task)) {
                    case PAID -> paid.incrementAndGet();
                    case RELEASED -> released.incrementAndGet();
                    case RETRY -> retrying.incrementAndGet();
                }
            };
            try {
                running[i] = CompletableFuture.runAsync(job, this.work);
            } catch (RuntimeException refused) { // the executor would not take it: try again later
                queue.done();
                retryLater(task);
                retrying.incrementAndGet();
                running[i] = CompletableFuture.completedFuture(null);
            }
        }
        CompletableFuture.allOf(running).exceptionally(t -> null).join();
        return new Pass(taken.size(), paid.get(), released.get(), retrying.get());
    }

    private enum Resolution { PAID, RELEASED, RETRY }

    /** Works one task; never throws. */
    // tag::work[]
    private Resolution work(Task task) {
        try {
            if (task.step == Step.CHECK) {
                checked.increment();
                Optional<ChargeResult> charge = payments.findByIdempotencyKey(ChargeKey.of(task.orderId));
                if (charge.isPresent()) {
                    if (resolver.markPaid(task.orderId)) {
                        completedPaid.increment();
                    } else {
                        notPaying.increment();
                    }
                    return Resolution.PAID;
                }
                task.step = Step.RELEASE; // nothing charged: give the stock back
            }
            for (String key : task.reservationKeys) {
                inventory.release(RequestContext.withTimeout(clock, settings.callTimeout()), key);
            }
            if (resolver.markCreated(task.orderId)) {
                releasedOrders.increment();
            } else {
                notPaying.increment();
            }
            return Resolution.RELEASED;
        } catch (RuntimeException e) {
            releaseFailures.increment();
            retryLater(task);
            return Resolution.RETRY;
        } finally {
            queue.done();
        }
    }
    // end::work[]

    private void retryLater(Task task) {
        task.failures++;
        task.dueNanos = clock.nanoTime() + backoff(task.failures).toNanos();
        queue.add(task);
    }

    /** @return the wait after the {@code failures}-th failed attempt: base × 2^(failures − 1), at most backoffMax */
    public Duration backoff(int failures) {
        return Backoff.exponential(settings.backoffBase(), settings.backoffMax(), failures);
    }

    /**
     * Starts reconciling in the background (a daemon thread named "reconciler"), after {@linkplain #adoptOrphans()
     * adopting} what a dead process left. Does nothing if already running.
     */
    public void start() {
        loop.start(this::adoptOrphans);
    }

    /** How often the background loop looks for orders a dead process left PAYING, besides once at its start. */
    static final Duration ADOPT_INTERVAL = Duration.ofSeconds(1);

    private volatile long lastAdoptionNanos = System.nanoTime();

    private void adoptOrphansEvery(Duration interval) {
        if (System.nanoTime() - lastAdoptionNanos >= interval.toNanos()) {
            adoptOrphans();
        }
    }

    // tag::adopt[]
    /**
     * Takes over every order a dead process left PAYING, as an unknown charge due after the dead pay's own deadline (kept
     * with the claim: {@code OrderTable.Claim#untilDeadline}) and the settle delay — asked sooner, the provider could
     * answer "no charge" about a charge still on its way, and the stock would go back as the money lands: the process
     * that claimed it died between its claim and its commit (its lease is gone: {@code OrderTable#orphanedClaims}), so
     * nobody will ever answer for it but this reconciler. The provider is asked by idempotency key, as after a
     * timeout; charged, it is completed to PAID; not, its reservations are released by their keys and it is CREATED
     * again. In memory there is never an orphan (a crash takes the orders with it). Run at {@link #start()} and then
     * every {@link #ADOPT_INTERVAL} by the background loop.
     *
     * @return how many orders were adopted
     */
    public int adoptOrphans() {
        lastAdoptionNanos = System.nanoTime();
        List<PayClaim> orphans = resolver.orphans();
        for (PayClaim orphan : orphans) {
            // not before the dead pay's own deadline: until then a charge of it can still reach the provider
            checkCharge(orphan.order().id(), orphan.reservationKeys(), Deadline.after(clock, orphan.untilDeadline()));
        }
        adopted.add(orphans.size());
        return orphans.size();
    }
    // end::adopt[]

    /** @return orders adopted from a dead process ({@link #adoptOrphans()}) */
    public long adopted() {
        return adopted.sum();
    }

    /** Stops the background loop after the pass in progress; returns once it has. Pending tasks stay pending. */
    public void stop() {
        loop.stop();
    }

    /** @return whether the background loop runs */
    public boolean isRunning() {
        return loop.isRunning();
    }

    /** @return orders handed over and not yet resolved (queued or being worked) */
    public int pending() {
        return queue.pending();
    }

    /** @return unknown charges asked about (each order once) */
    public long checked() {
        return checked.sum();
    }

    /** @return orders completed to PAID because the provider had charged them */
    public long completedPaid() {
        return completedPaid.sum();
    }

    /** @return orders whose stock was released and that were made CREATED again */
    public long released() {
        return releasedOrders.sum();
    }

    /** @return release attempts that failed and were retried later */
    public long releaseFailures() {
        return releaseFailures.sum();
    }

    /** @return tasks whose order was no longer PAYING when resolved (should be 0: a sign of a bug) */
    public long notPaying() {
        return notPaying.sum();
    }

    public Settings settings() {
        return settings;
    }
}
