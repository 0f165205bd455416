package archlab.order;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.Payments;
import archlab.request.RequestContext;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bulkhead in front of the payment client: at most {@code maxConcurrentCalls} charges at once, and a charge that
 * finds them all busy waits for its turn only as long as its caller's deadline allows.
 *
 * <p>The trap it avoids: a pool that waits to its own clock. The provider sits behind a connection pool as pools ship
 * (HikariCP's {@code connectionTimeout} is 30 s), and that wait knows nothing of the request behind it. When the
 * provider slows, callers whose deadlines passed long ago still stand in the pool's line, each holding its thread, and
 * when their turn comes their charges still go out and hold a connection for the provider's full latency; the callers
 * behind them wait longer still, time out and retry, and the retries join the same line. Sized to the pool, this
 * bulkhead lets no more charges through than the pool has connections, so nobody waits in the pool's line; the line is
 * here instead, and here a caller leaves it at its deadline with a {@link BulkheadFullException}: nothing was sent,
 * and the charge's retries or the request's own caller decide what comes next.
 *
 * <p>The pool hands each call it lets through its own timeout, not the caller's, so the caller's wait for the answer is
 * cut here too: the charge runs on a thread of its own and the caller waits for it at most until its deadline, then
 * leaves with an {@link AnswerNotInTimeException} (sent: the money may have moved). What it cannot do is shorten the
 * call: the connection, and the bulkhead's permit with it, stays busy until the provider answers.
 *
 * <p>Units: waits are measured on the caller's {@link RequestContext#clock()}, and waited for in real time.
 *
 * <p>Thread-safety: safe from any number of threads; the line is a fair {@link Semaphore}, first come first served.
 */
public final class PaymentBulkhead implements Payments {

    /** @param maxConcurrentCalls charges let through at once: the size of the pool behind it; at least 1 */
    public record Settings(int maxConcurrentCalls) {
        public Settings {
            if (maxConcurrentCalls < 1) {
                throw new IllegalArgumentException("maxConcurrentCalls must be at least 1, was " + maxConcurrentCalls);
            }
        }
    }

    private final Payments payments;
    private final Settings settings;
    private final Semaphore permits;
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAccumulator waitingMax = new LongAccumulator(Math::max, 0);
    private final LongAdder admitted = new LongAdder();
    private final LongAdder waited = new LongAdder();
    private final LongAdder turnedAway = new LongAdder();
    private final LongAdder abandoned = new LongAdder();
    /** Where the calls run: a virtual thread each, so a caller can stop waiting for one. */
    private static final ThreadFactory CALLS = Thread.ofVirtual().name("payment-call-", 1).factory();

    public PaymentBulkhead(Payments payments, Settings settings) {
        this.payments = Objects.requireNonNull(payments, "payments");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.permits = new Semaphore(settings.maxConcurrentCalls(), true);
    }

    // tag::bulkhead[]
    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
        acquire(ctx, ctx.clock().nanoTime());
        CompletableFuture<ChargeResult> answer = new CompletableFuture<>();
        RequestContext call = ctx.withoutTrace(); // the request's trace stays on the request's thread
        try {
            CALLS.newThread(() -> {
                try {
                    answer.complete(payments.charge(call, request));
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                } finally {
                    permits.release(); // when the provider answers: until then its connection is busy
                }
            }).start();
        } catch (RuntimeException | Error e) {
            permits.release(); // no thread, no call: nothing was sent
            throw e;
        }
        return awaitAnswer(ctx, answer);
    }
    // end::bulkhead[]

    // tag::waits[]
    /**
     * Waits for the answer at most until the caller's deadline: the pool hands the call its own 30 s instead. Whatever
     * ends this wait early, the call was sent: an error that is not the provider's own answer says "may have charged".
     */
    private ChargeResult awaitAnswer(RequestContext ctx, CompletableFuture<ChargeResult> answer) {
        try {
            return answer.get(Math.max(0, ctx.remainingNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abandoned.increment();
            throw new AnswerNotInTimeException("no answer by the caller's deadline"); // sent: the money may have moved
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new DownstreamException("payments", -1, "the call failed without an answer: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandoned.increment();
            throw new AnswerNotInTimeException("interrupted waiting for the answer");
        }
    }

    /** Waits for a permit at most until the caller's deadline: the pool's own 30 s never comes into it. */
    private void acquire(RequestContext ctx, long begin) {
        boolean admittedNow = false;
        try {
            // a caller whose deadline has passed sends nothing, free permit or not: nobody waits for its answer;
            // not tryAcquire(): that one barges past callers already in line, even on a fair semaphore
            admittedNow = ctx.remainingNanos() > 0 && permits.tryAcquire(0, TimeUnit.NANOSECONDS);
            if (!admittedNow && ctx.remainingNanos() > 0) {
                waitingMax.accumulate(waiting.incrementAndGet());
                try {
                    admittedNow = permits.tryAcquire(ctx.remainingNanos(), TimeUnit.NANOSECONDS);
                } finally {
                    waiting.decrementAndGet();
                }
                if (admittedNow) {
                    waited.increment();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for a payment call", e);
        }
        if (!admittedNow) {
            turnedAway.increment();
            throw new BulkheadFullException(settings.maxConcurrentCalls(), ctx.clock().nanoTime() - begin);
        }
        admitted.increment();
    }
    // end::waits[]

    /**
     * The caller's deadline passed while its charge was with the provider: the caller stops waiting, the call goes on
     * holding its connection until the provider answers. Sent, so the money may have moved ({@link #passedOnArrival()}
     * is {@code false}): the pay hands the order to the reconciler.
     */
    public static final class AnswerNotInTimeException extends DownstreamTimeoutException {
        AnswerNotInTimeException(String why) {
            super("payments", -1, false, "payments bulkhead: " + why + "; the call was sent and goes on holding its connection");
        }
    }

    @Override
    public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
        return payments.findByIdempotencyKey(idempotencyKey);
    }

    /** @return the settings it was built with */
    public Settings settings() {
        return settings;
    }

    /** @return charges let through */
    public long admitted() {
        return admitted.sum();
    }

    /** @return of {@link #admitted()}, those let through after a wait */
    public long waited() {
        return waited.sum();
    }

    /** @return charges turned away at their deadline: nothing sent */
    public long turnedAway() {
        return turnedAway.sum();
    }

    /** @return charges whose caller stopped waiting for the answer (its deadline, or an interrupt): sent, the money may have moved */
    public long abandoned() {
        return abandoned.sum();
    }

    /** @return charges queued on the line's semaphore right now (an estimate, as {@link Semaphore#getQueueLength}) */
    int queued() {
        return permits.getQueueLength();
    }

    /** @return charges waiting for a turn right now */
    public int waiting() {
        return waiting.get();
    }

    /** @return the most charges waiting at once */
    public int waitingMax() {
        return (int) waitingMax.get();
    }
}
