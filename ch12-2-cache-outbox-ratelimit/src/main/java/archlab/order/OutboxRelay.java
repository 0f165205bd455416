package archlab.order;

import archlab.background.Backoff;
import archlab.background.Durations;
import archlab.background.PollingLoop;
import archlab.downstream.Notifier;
import archlab.downstream.PermanentDeliveryException;
import archlab.clock.NanoClock;
import archlab.request.RequestContext;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Delivers the {@link Outbox} to the {@link Notifier} in the background: the other half of "notify
 * after PAID, never inside pay".
 *
 * <p>The trap it fixes: a notification sent inside the request either slows the request down (ch12-1:
 * +2 ms under the lock) or is lost when the notifier fails. The relay takes it off the request path
 * and delivers it <em>at least once</em>: a failed attempt is retried after a capped exponential back-off with
 * full jitter ({@link #backoffCap}); a delivery whose acknowledgement was lost is sent again with the same message
 * id, which the receiver recognises (a redelivery, no second effect). At least once plus a receiver that
 * de-duplicates is exactly once in effect.
 *
 * <p>The second trap: giving up by counting attempts. A relay that parks an entry after, say, 8 attempts of
 * 10 ms doubling to 1 s gives up after about 1.3 s, and every notification that came due during a notifier outage
 * a little longer than that is parked for good: "PAID, never notified". An attempt count says nothing about how long
 * the notifier has been down. So an entry is retried for a {@linkplain Settings#retryHorizon() horizon of time},
 * however many attempts that takes; only two things park it: the notifier saying it will never take the message
 * ({@link PermanentDeliveryException}), or the horizon passing with the entry still undelivered. A parked entry is
 * kept and listed, and {@link Outbox#redrive} puts it back.
 *
 * <p>One {@link #deliverDue() pass}: claim the due entries (up to {@link Settings#batchSize()}), deliver
 * each on the injected executor, wait for all of them, record each outcome. {@link #start()} runs passes
 * on a thread of its own, back to back while there is work and every {@link Settings#pollInterval()} of
 * real time otherwise (or the outbox's {@link Outbox#pollFloor()}, if longer); {@link #stop()} ends the loop after the pass in progress, so nothing is lost: what
 * was not delivered is still in the outbox for the next start. Tests call {@link #deliverDue()} directly
 * on a fake clock with {@code Runnable::run} as the executor, and nothing sleeps.
 *
 * <p>Thread-safety: every method may be called from any thread. Passes may overlap (a test's pass while
 * the loop runs): each entry is claimed by exactly one of them.
 */
public final class OutboxRelay {

    /**
     * @param pollInterval  how long the loop waits when nothing was due; positive
     * @param notifyTimeout the deadline of each delivery attempt; positive
     * @param retryHorizon  how long an entry is retried after transient failures before it is parked, counted from
     *                      its append (or its last redrive); positive
     * @param backoffBase   the cap of the wait after the first failed attempt, doubled after each further one; positive
     * @param backoffMax    the largest cap; at least {@code backoffBase}
     * @param batchSize     entries delivered concurrently in one pass; at least 1
     */
    public record Settings(Duration pollInterval, Duration notifyTimeout, Duration retryHorizon, Duration backoffBase,
                           Duration backoffMax, int batchSize) {

        /**
         * Poll every 1 ms, 1 s per attempt, retry for 10 minutes, back-off 10 ms doubling to 1 s with full jitter,
         * 64 at a time.
         *
         * <p>Why 10 minutes: a notifier outage shorter than the horizon is ridden out with no one looking (the
         * catalogue's longest is 3.5 s; a provider's deploy, failover or rolled-back bad config lasts minutes), and a
         * notification that could not go out in 10 minutes is parked where a person sees it (the report lists it)
         * while "your order is paid" still means something to the customer. A longer horizon would hide the outage
         * rather than survive it: this outbox lives in memory, and every second of the horizon holds another second's
         * pays, each tried about twice a second under the 1 s cap.
         *
         * <p>Why 1 s: once the notifier is back every held entry is tried again within a second, and the retries of
         * entries that failed together are spread over that second (full jitter) instead of arriving in one wave.
         */
        public static final Settings DEFAULT = new Settings(Duration.ofMillis(1), Duration.ofSeconds(1),
                Duration.ofMinutes(10), Duration.ofMillis(10), Duration.ofSeconds(1), 64);

        public Settings {
            Durations.requirePositive("pollInterval", pollInterval);
            Durations.requirePositive("notifyTimeout", notifyTimeout);
            Durations.requirePositive("retryHorizon", retryHorizon);
            Durations.requirePositive("backoffBase", backoffBase);
            Durations.requirePositive("backoffMax", backoffMax);
            if (backoffMax.compareTo(backoffBase) < 0) {
                throw new IllegalArgumentException("backoffMax " + backoffMax + " is shorter than backoffBase " + backoffBase);
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
            }
        }

        public Settings withRetryHorizon(Duration horizon) {
            return new Settings(pollInterval, notifyTimeout, horizon, backoffBase, backoffMax, batchSize);
        }

        public Settings withBackoff(Duration base, Duration max) {
            return new Settings(pollInterval, notifyTimeout, retryHorizon, base, max, batchSize);
        }
    }

    /**
     * What one pass did.
     *
     * @param claimed   entries it claimed
     * @param delivered of those, delivered
     * @param retrying  failed, due again after a back-off
     * @param parked    failed for good (a permanent refusal, or the retry horizon passed), parked
     */
    public record Pass(int claimed, int delivered, int retrying, int parked) {
    }

    private final Outbox outbox;
    private final Notifier notifier;
    private final NanoClock clock;
    private final Executor deliveries;
    private final Settings settings;
    private final PollingLoop loop;
    private final Duration poll;

    /**
     * @param outbox     what to deliver
     * @param notifier   where to
     * @param clock      the clock of deadlines, back-offs and the retry horizon, nanoseconds
     * @param deliveries where each delivery attempt runs; {@code Runnable::run} delivers on the pass's own thread
     * @param settings   retry horizon, back-off and batching
     */
    public OutboxRelay(Outbox outbox, Notifier notifier, NanoClock clock, Executor deliveries, Settings settings) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.notifier = Objects.requireNonNull(notifier, "notifier");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.poll = settings.pollInterval().compareTo(outbox.pollFloor()) >= 0 ? settings.pollInterval() : outbox.pollFloor();
        this.loop = new PollingLoop("outbox-relay", poll, () -> deliverDue().claimed() > 0);
    }

    /** @return how long the loop waits when nothing was due: the settings' interval, or the outbox's floor if longer */
    Duration pollInterval() {
        return poll;
    }

    /** Runs one pass now, on the caller's thread (deliveries on the executor); returns when all of them ended. */
    public Pass deliverDue() {
        List<Outbox.Entry> due = outbox.claimDue(settings.batchSize());
        if (due.isEmpty()) {
            return new Pass(0, 0, 0, 0);
        }
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger retrying = new AtomicInteger();
        AtomicInteger parked = new AtomicInteger();
        CompletableFuture<?>[] attempts = new CompletableFuture<?>[due.size()];
        for (int i = 0; i < due.size(); i++) {
            Outbox.Entry entry = due.get(i);
            Runnable attempt = () -> {
                switch (attemptDelivery(entry)) {
                    case DELIVERED -> delivered.incrementAndGet();
                    case PARKED -> parked.incrementAndGet();
                    default -> retrying.incrementAndGet();
                }
            };
            try {
                attempts[i] = CompletableFuture.runAsync(attempt, deliveries);
            } catch (RuntimeException refused) { // the executor would not take it: this attempt failed
                Outbox.State after = fail(entry, "executor refused the delivery: " + refused);
                (after == Outbox.State.PARKED ? parked : retrying).incrementAndGet();
                attempts[i] = CompletableFuture.completedFuture(null);
            }
        }
        CompletableFuture.allOf(attempts).exceptionally(t -> null).join();
        return new Pass(due.size(), delivered.get(), retrying.get(), parked.get());
    }

    // tag::attempt[]
    /**
     * One attempt: deliver, then record the outcome. Throws only when the outbox cannot record it (a database error):
     * the entry stays IN_FLIGHT, and a PostgreSQL outbox claims it again later. @return the entry's state afterwards
     */
    private Outbox.State attemptDelivery(Outbox.Entry entry) {
        try {
            notifier.notify(RequestContext.withTimeout(clock, settings.notifyTimeout()), entry.notification());
        } catch (PermanentDeliveryException never) { // the notifier will never take it: retrying cannot help
            return outbox.markParked(entry.messageId(), "refused for good: " + never.getMessage()).state();
        } catch (RuntimeException e) { // down, slow, refused this call: a later attempt may deliver
            return fail(entry, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        outbox.markDelivered(entry.messageId());
        return Outbox.State.DELIVERED;
    }

    /** A transient failure: retry after a jittered back-off, unless the entry has been retried for the whole horizon. */
    private Outbox.State fail(Outbox.Entry entry, String error) {
        Duration retrying = Duration.ofNanos(clock.nanoTime() - entry.retryingSinceNanos());
        if (retrying.compareTo(settings.retryHorizon()) >= 0) {
            return outbox.markParked(entry.messageId(), "still failing after " + retrying + " of retries (horizon "
                    + settings.retryHorizon() + ", " + entry.attempts() + " attempts); last: " + error).state();
        }
        // the same entry and attempt draw the same wait on every run: seeded by the message id
        SplittableRandom jitter = new SplittableRandom(entry.messageId().hashCode() * 0x9E3779B97F4A7C15L + entry.attempts());
        return outbox.markRetry(entry.messageId(), error, Backoff.fullJitter(backoffCap(entry.attempts()), jitter)).state();
    }

    /** @return the longest wait after the {@code attempts}-th failed attempt: base × 2^(attempts − 1), at most backoffMax */
    public Duration backoffCap(int attempts) {
        return Backoff.exponential(settings.backoffBase(), settings.backoffMax(), attempts);
    }
    // end::attempt[]

    /**
     * Starts delivering in the background (a daemon thread named "outbox-relay"). Entries left IN_FLIGHT by a
     * relay that stopped mid-delivery are recovered first. Does nothing if already running.
     */
    public void start() {
        loop.start(outbox::recoverInFlight);
    }

    /**
     * Stops the background loop after the pass in progress has ended (each delivery is bounded by
     * {@link Settings#notifyTimeout()}); returns once it has. Undelivered entries stay in the outbox.
     */
    public void stop() {
        loop.stop();
    }

    /** @return whether the background loop runs */
    public boolean isRunning() {
        return loop.isRunning();
    }

    /**
     * Waits, in real time, while the relay still has something to try (pending or in flight) and {@code timeout}
     * has not passed; then says whether the outbox is drained: nothing pending, in flight <em>or parked</em>. A
     * parked entry is not waited for (nothing will try it before a redrive) and keeps the answer {@code false}.
     * Meaningful while the relay runs.
     *
     * @return whether every notification appended was delivered
     */
    public boolean awaitDrained(Duration timeout) {
        long until = System.nanoTime() + timeout.toNanos();
        while (outbox.inDelivery() > 0) {
            if (System.nanoTime() - until > 0 || Thread.currentThread().isInterrupted()) {
                return outbox.isDrained();
            }
            LockSupport.parkNanos(1_000_000L);
        }
        return outbox.isDrained();
    }

    public Settings settings() {
        return settings;
    }
}
