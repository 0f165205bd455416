package archlab.downstream;

import archlab.request.RequestContext;
import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-memory payment provider that records every money movement in its {@link PaymentLedger}, and answers
 * a repeated idempotency key the way a real provider does: with the key's first answer.
 *
 * <p>A call goes through these steps, in this order (the lesson depends on it):
 * <ol>
 *   <li>it is numbered and counted;</li>
 *   <li>deadline already passed: {@link DownstreamTimeoutException}, nothing charged;</li>
 *   <li>a provider with a {@link Quota}: a call beyond it is refused ({@link PaymentDeclinedException} saying so),
 *       nothing charged, and the key remembers nothing (a retry later may charge) &mdash; what a real provider's 429
 *       does to a fleet whose token buckets together admit more than the quota;</li>
 *   <li>idempotency check: a key seen before for the same order and amount replays its first answer &mdash; the
 *       first charge ({@code replayed = true}, nothing charged), or the first decline
 *       ({@link PaymentDeclinedException} again, nothing charged); a key reused for another order or amount throws
 *       {@link IdempotencyKeyConflictException};</li>
 *   <li>a new key (or no key): injected decline ({@code behaviour.errors()}): {@link PaymentDeclinedException},
 *       nothing charged, and the key remembers the decline;</li>
 *   <li>the provider <b>accepts</b>: the charge goes into the ledger;</li>
 *   <li>the reply travels back for the call's latency; if the deadline passes meanwhile,
 *       {@link DownstreamTimeoutException} &mdash; the money stays charged;</li>
 *   <li>injected lost reply ({@code lostReplies}): {@link PaymentReplyLostException} &mdash; the money stays charged
 *       (a replay's reply can be lost too: nothing more was charged);</li>
 *   <li>the result is returned.</li>
 * </ol>
 *
 * <p>The trap step 4 avoids: deciding a decline before looking the key up. A retry of a charge whose reply was lost
 * would then be "declined" although the money moved, and a caller that believed the last answer would tell the
 * customer "declined" about money it had taken. A provider with idempotency keys answers a repeated request with its
 * first answer, whatever it would decide about a new one.
 *
 * <p>Thread-safe. Concurrent first uses of one key are answered once: the key's entry is created with
 * {@link ConcurrentHashMap#computeIfAbsent}, which decides the decline or runs the charge at most once per key.
 * A key is visible to {@link #findByIdempotencyKey} only after its charge is in the ledger.
 */
public final class PaymentsStub implements Payments {

    /** The stub's name in messages and counters. */
    public static final String NAME = Payments.NAME;

    /**
     * What a key answered first.
     *
     * @param request   the request the key was first used for
     * @param charge    the charge it made, or {@code null} if it was declined
     * @param firstCall the call that answered first
     */
    private record FirstAnswer(ChargeRequest request, ChargeResult charge, long firstCall, long landsAtNanos,
                               java.util.concurrent.atomic.AtomicBoolean landed) {
        FirstAnswer(ChargeRequest request, ChargeResult charge, long firstCall) {
            this(request, charge, firstCall, 0, new java.util.concurrent.atomic.AtomicBoolean(true));
        }

        boolean declined() {
            return charge == null;
        }
    }

    /** Lands late charges at their instant, whoever is waiting for them or not: one daemon thread for every stub. */
    private static final java.util.concurrent.ScheduledExecutorService LANDINGS =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "payments-landings");
                t.setDaemon(true);
                return t;
            });

    private final FaultModel declines;
    private final FaultModel lostReplies;
    private final SimulatedCalls calls;
    private final PaymentLedger ledger = new PaymentLedger();
    private final ConcurrentHashMap<String, FirstAnswer> firstAnswerByKey = new ConcurrentHashMap<>();
    private final AtomicLong paymentIds = new AtomicLong();
    private final LongAdder declined = new LongAdder();
    private final LongAdder declinesReplayed = new LongAdder();
    private final LongAdder repliesLost = new LongAdder();
    private final ConnectionPool pool;
    private final Bucket quota;
    private final Quota quotaSettings;
    private final LongAdder overQuota = new LongAdder();
    private final boolean landsLate;

    /**
     * The provider's quota: at most {@code chargesPerSecond} calls a second, refilled greedily, bursts of {@code burst}.
     *
     * @param chargesPerSecond at least 1
     * @param burst            at least 1
     */
    public record Quota(long chargesPerSecond, long burst) {
        public Quota {
            if (chargesPerSecond < 1 || burst < 1) {
                throw new IllegalArgumentException("chargesPerSecond and burst must be at least 1, were " + chargesPerSecond
                        + " and " + burst);
            }
        }
    }

    /**
     * @param behaviour   latency of the replies; its {@code errors} are the declines
     * @param lostReplies which calls lose their reply after the charge
     */
    public PaymentsStub(StubBehaviour behaviour, FaultModel lostReplies) {
        this(behaviour, lostReplies, null);
    }

    /**
     * A provider reached through a {@link ConnectionPool}: a call first waits for one of its connections (step 0,
     * before it is numbered), then goes through the steps above holding it, with the deadline the pool hands it.
     *
     * @param pool the connections to the provider; {@code null} for as many calls at once as arrive
     */
    public PaymentsStub(StubBehaviour behaviour, FaultModel lostReplies, ConnectionPool.PoolSettings pool) {
        this(behaviour, lostReplies, pool, null);
    }

    /**
     * A provider with a quota (step 3): calls beyond {@code quota} are refused before anything else.
     *
     * @param pool  the connections to the provider; {@code null} for as many calls at once as arrive
     * @param quota the provider's quota; {@code null} for none
     */
    public PaymentsStub(StubBehaviour behaviour, FaultModel lostReplies, ConnectionPool.PoolSettings pool, Quota quota) {
        this(behaviour, lostReplies, pool, quota, false);
    }

    /**
     * A provider whose money moves late: a keyed charge it accepts takes effect at the end of the call's latency
     * (drawn per call), not when the request arrives — whether the caller still waits or gave up at its deadline. Until
     * then the key's charge is <em>in progress</em>: {@link #findByIdempotencyKey} and a retry of the key throw
     * {@link DownstreamTimeoutException} saying so (ask again), as a real provider's "processing" status does. The
     * reply leaves as the money moves. A request that arrives past its deadline is still refused at step 2.
     *
     * @param landsLate true for this mode; false: the charge is in the books on arrival, its latency on the reply
     */
    public PaymentsStub(StubBehaviour behaviour, FaultModel lostReplies, ConnectionPool.PoolSettings pool, Quota quota,
                        boolean landsLate) {
        Objects.requireNonNull(behaviour, "behaviour");
        this.landsLate = landsLate;
        this.quotaSettings = quota;
        this.quota = quota == null ? null : Bucket.builder()
                .addLimit(l -> l.capacity(quota.burst()).refillGreedy(quota.chargesPerSecond(), Duration.ofSeconds(1)))
                .build();
        this.declines = behaviour.errors();
        this.lostReplies = Objects.requireNonNull(lostReplies, "lostReplies");
        this.calls = new SimulatedCalls(NAME, behaviour.latency());
        this.pool = pool == null ? null : new ConnectionPool(NAME, pool);
    }

    /** A provider whose replies are never lost; {@code behaviour.errors()} are the declines. */
    public PaymentsStub(StubBehaviour behaviour) {
        this(behaviour, ErrorInjection.NONE);
    }

    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(request, "request");
        return pool == null ? chargeHoldingAConnection(ctx, request) : pool.call(ctx, c -> chargeHoldingAConnection(c, request));
    }

    private ChargeResult chargeHoldingAConnection(RequestContext ctx, ChargeRequest request) {
        long callIndex = calls.arrive(ctx);
        if (quota != null && !quota.tryConsume(1)) {
            overQuota.increment();
            calls.countInjectedError();
            throw new PaymentDeclinedException(NAME, callIndex, "over the provider's quota of "
                    + quotaSettings.chargesPerSecond() + " charges/s (call " + callIndex + "): nothing charged");
        }
        if (landsLate && request.idempotencyKey() != null) {
            return chargeLandingLate(ctx, request, callIndex);
        }
        ChargeResult result = answer(request, callIndex);
        calls.replyDelay(ctx, callIndex);
        if (lostReplies.failsCall(callIndex)) {
            calls.countInjectedError();
            repliesLost.increment();
            throw new PaymentReplyLostException(callIndex, request.orderId());
        }
        calls.countSucceeded();
        return result;
    }

    /** A keyed charge in the late mode: the money moves at the end of the call's latency, the reply with it. */
    private ChargeResult chargeLandingLate(RequestContext ctx, ChargeRequest request, long callIndex) {
        long latencyNanos = calls.latencyNanosOf(callIndex);
        long landsAt = System.nanoTime() + latencyNanos;
        FirstAnswer[] answeredNow = new FirstAnswer[1];
        FirstAnswer first = firstAnswerByKey.computeIfAbsent(request.idempotencyKey(), k -> answeredNow[0] = declines.failsCall(callIndex)
                ? new FirstAnswer(request, null, callIndex)
                : new FirstAnswer(request, newCharge(request), callIndex, landsAt, new java.util.concurrent.atomic.AtomicBoolean()));
        if (first != answeredNow[0]) {
            if (!landedIfDue(first)) {
                calls.countInjectedError();
                throw inProgress(request.idempotencyKey(), callIndex);
            }
            ChargeResult replay = answer(request, callIndex); // landed: the key's first answer, replayed
            calls.replyDelay(ctx, callIndex);
            calls.countSucceeded();
            return replay;
        }
        if (first.declined()) {
            throw decline(request, callIndex);
        }
        LANDINGS.schedule(() -> landedIfDue(first), latencyNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        calls.replyDelay(ctx, callIndex); // the caller waits for the money, never past its deadline; it lands regardless
        landedIfDue(first);
        if (lostReplies.failsCall(callIndex)) {
            calls.countInjectedError();
            repliesLost.increment();
            throw new PaymentReplyLostException(callIndex, request.orderId());
        }
        calls.countSucceeded();
        return first.charge();
    }

    /** Records a late charge once its instant has come (once, whoever asks first). @return whether it has landed */
    private boolean landedIfDue(FirstAnswer first) {
        if (first.landed().get()) {
            return true;
        }
        if (System.nanoTime() - first.landsAtNanos() < 0) {
            return false;
        }
        if (first.landed().compareAndSet(false, true)) {
            ledger.recordCharge(first.charge());
        }
        return true;
    }

    private static DownstreamTimeoutException inProgress(String key, long callIndex) {
        return new DownstreamTimeoutException(NAME, callIndex, false, NAME + ": the charge of key " + key
                + " is in progress (its money has not moved yet): ask again");
    }

    /** Steps 4 to 6: the key's first answer replayed, or a new decline, or a new charge. */
    private ChargeResult answer(ChargeRequest request, long callIndex) {
        String key = request.idempotencyKey();
        if (key == null) {
            if (declines.failsCall(callIndex)) {
                throw decline(request, callIndex);
            }
            return ledger.recordCharge(newCharge(request));
        }
        FirstAnswer[] answeredNow = new FirstAnswer[1];
        FirstAnswer first = firstAnswerByKey.computeIfAbsent(key, k -> answeredNow[0] = declines.failsCall(callIndex)
                ? new FirstAnswer(request, null, callIndex)
                : new FirstAnswer(request, ledger.recordCharge(newCharge(request)), callIndex));
        if (first == answeredNow[0]) {
            if (first.declined()) {
                throw decline(request, callIndex);
            }
            return first.charge();
        }
        if (!first.request().orderId().equals(request.orderId()) || first.request().amountCents() != request.amountCents()) {
            throw new IdempotencyKeyConflictException(key, first.request(), request);
        }
        if (first.declined()) {
            calls.countInjectedError();
            declined.increment();
            declinesReplayed.increment();
            throw new PaymentDeclinedException(callIndex, request.orderId(), first.firstCall());
        }
        ledger.recordReplay();
        return first.charge().asReplay();
    }

    private PaymentDeclinedException decline(ChargeRequest request, long callIndex) {
        calls.countInjectedError();
        declined.increment();
        return new PaymentDeclinedException(callIndex, request.orderId());
    }

    private ChargeResult newCharge(ChargeRequest request) {
        return new ChargeResult("pay-" + paymentIds.incrementAndGet(), request.orderId(), request.amountCents(), false);
    }

    @Override
    public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
        if (idempotencyKey == null || idempotencyKey.isBlank()) {
            throw new IllegalArgumentException("idempotencyKey must not be blank, was '" + idempotencyKey + "'");
        }
        FirstAnswer first = firstAnswerByKey.get(idempotencyKey);
        if (first == null || first.declined()) {
            return Optional.empty();
        }
        if (!landedIfDue(first)) {
            throw inProgress(idempotencyKey, -1);
        }
        return Optional.of(first.charge());
    }

    /** @return the provider's books: every charge, replay and refund */
    public PaymentLedger ledger() {
        return ledger;
    }

    /**
     * @return calls answered with a decline (no money moved), first or replayed; part of
     *         {@link StubCounters#injectedErrors()}
     */
    public long declines() {
        return declined.sum();
    }

    /** @return of {@link #declines()}, those that replayed an earlier decline of the same idempotency key */
    public long declinesReplayed() {
        return declinesReplayed.sum();
    }

    /** @return calls refused over the provider's {@link Quota} (nothing charged); part of {@link StubCounters#injectedErrors()} */
    public long refusedOverQuota() {
        return overQuota.sum();
    }

    /** @return the provider's quota, if it has one */
    public Optional<Quota> quota() {
        return Optional.ofNullable(quotaSettings);
    }

    /** @return calls whose reply was lost after the charge; part of {@link StubCounters#injectedErrors()} */
    public long lostReplies() {
        return repliesLost.sum();
    }

    /** @return the pool calls wait for a connection in, if the provider sits behind one */
    public Optional<ConnectionPool> pool() {
        return Optional.ofNullable(pool);
    }

    /** @return a snapshot of this stub's call counters */
    public StubCounters counters() {
        return calls.counters();
    }

    @Override
    public String toString() {
        return NAME + " " + counters() + " " + ledger;
    }
}
