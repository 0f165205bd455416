package archlab.downstream;

import archlab.loadgen.RequestContext;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-memory payment provider that records every money movement in its {@link PaymentLedger}.
 *
 * <p>A call goes through these steps, in this order (the lesson depends on it):
 * <ol>
 *   <li>it is numbered and counted;</li>
 *   <li>deadline already passed: {@link DownstreamTimeoutException}, nothing charged;</li>
 *   <li>injected decline ({@code behaviour.errors()}): {@link PaymentDeclinedException}, nothing charged;</li>
 *   <li>idempotency check: a repeated key returns the first result ({@code replayed = true}) and charges
 *       nothing; a key reused for another order or amount throws {@link IdempotencyKeyConflictException};</li>
 *   <li>the provider <b>accepts</b>: the charge goes into the ledger;</li>
 *   <li>the reply travels back for the call's latency; if the deadline passes meanwhile,
 *       {@link DownstreamTimeoutException} &mdash; the money stays charged;</li>
 *   <li>injected lost reply ({@code lostReplies}): {@link PaymentReplyLostException} &mdash; the money stays charged;</li>
 *   <li>the result is returned.</li>
 * </ol>
 *
 * <p>Thread-safe. Concurrent first uses of one key charge once: the key's entry is created with
 * {@link ConcurrentHashMap#computeIfAbsent}, which runs the charge at most once per key. A key is
 * visible to {@link #findByIdempotencyKey} only after its charge is in the ledger.
 */
public final class PaymentsStub implements Payments {

    /** The stub's name in messages and counters. */
    public static final String NAME = "payments";

    private final FaultModel declines;
    private final FaultModel lostReplies;
    private final SimulatedCalls calls;
    private final PaymentLedger ledger = new PaymentLedger();
    private final ConcurrentHashMap<String, ChargeResult> firstChargeByKey = new ConcurrentHashMap<>();
    private final AtomicLong paymentIds = new AtomicLong();
    private final LongAdder declined = new LongAdder();
    private final LongAdder repliesLost = new LongAdder();

    /**
     * @param behaviour   latency of the replies; its {@code errors} are the declines
     * @param lostReplies which calls lose their reply after the charge
     */
    public PaymentsStub(StubBehaviour behaviour, FaultModel lostReplies) {
        Objects.requireNonNull(behaviour, "behaviour");
        this.declines = behaviour.errors();
        this.lostReplies = Objects.requireNonNull(lostReplies, "lostReplies");
        this.calls = new SimulatedCalls(NAME, behaviour.latency());
    }

    /** A provider whose replies are never lost; {@code behaviour.errors()} are the declines. */
    public PaymentsStub(StubBehaviour behaviour) {
        this(behaviour, ErrorInjection.NONE);
    }

    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(request, "request");
        long callIndex = calls.arrive(ctx);
        if (declines.failsCall(callIndex)) {
            calls.countInjectedError();
            declined.increment();
            throw new PaymentDeclinedException(callIndex, request.orderId());
        }
        ChargeResult result = accept(request);
        calls.replyDelay(ctx, callIndex);
        if (lostReplies.failsCall(callIndex)) {
            calls.countInjectedError();
            repliesLost.increment();
            throw new PaymentReplyLostException(callIndex, request.orderId());
        }
        calls.countSucceeded();
        return result;
    }

    /** Steps 4 and 5: the idempotency check, then the charge. */
    private ChargeResult accept(ChargeRequest request) {
        String key = request.idempotencyKey();
        if (key == null) {
            return ledger.recordCharge(newCharge(request));
        }
        ChargeResult[] chargedNow = new ChargeResult[1];
        ChargeResult first = firstChargeByKey.computeIfAbsent(key,
                k -> chargedNow[0] = ledger.recordCharge(newCharge(request)));
        if (first == chargedNow[0]) {
            return first;
        }
        if (!first.orderId().equals(request.orderId()) || first.amountCents() != request.amountCents()) {
            throw new IdempotencyKeyConflictException(key, first, request);
        }
        ledger.recordReplay();
        return first.asReplay();
    }

    private ChargeResult newCharge(ChargeRequest request) {
        return new ChargeResult("pay-" + paymentIds.incrementAndGet(), request.orderId(), request.amountCents(), false);
    }

    @Override
    public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
        if (idempotencyKey == null || idempotencyKey.isBlank()) {
            throw new IllegalArgumentException("idempotencyKey must not be blank, was '" + idempotencyKey + "'");
        }
        return Optional.ofNullable(firstChargeByKey.get(idempotencyKey));
    }

    /** @return the provider's books: every charge, replay and refund */
    public PaymentLedger ledger() {
        return ledger;
    }

    /** @return calls declined by injection (no money moved); part of {@link StubCounters#injectedErrors()} */
    public long declines() {
        return declined.sum();
    }

    /** @return calls whose reply was lost after the charge; part of {@link StubCounters#injectedErrors()} */
    public long lostReplies() {
        return repliesLost.sum();
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
