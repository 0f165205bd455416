package archlab.order;

import archlab.downstream.Notification;
import archlab.loadgen.LatencySummary;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The outbox: notifications the service has promised to send, recorded in the same atomic step that
 * marks the order PAID, and delivered later by an {@link OutboxRelay}.
 *
 * <p>The trap it fixes: ch12-1 called the notifier inside pay, under the lock, and a slow or failing
 * notifier failed the pay after the money had moved (charged, not PAID). Here pay only <em>appends</em> a
 * notification while it holds the lock that marks the order PAID: both happen, or neither. Delivery is
 * the relay's job, with retries; the notification's message id ({@link Notification#orderPaid}) is the same on
 * every attempt, so a receiver that saw it already recognises a redelivery: exactly once in effect.
 *
 * <p>An entry's life: PENDING (due now) → IN_FLIGHT (a relay is delivering it) → DELIVERED; a failed
 * attempt makes it PENDING again, due after a back-off ({@link #markRetry}). The relay gives up on an entry only
 * by {@link #markParked parking} it: kept, counted, listed with its reason, and never tried again until someone
 * {@link #redrive redrives} it (an operator, or a reconciler), which gives it a fresh retry horizon. The outbox
 * is <b>drained</b> only when nothing is pending, in flight or parked ({@link #isDrained()}): a parked
 * notification is a promise not kept, not a finished one.
 *
 * <p>Two outboxes keep this contract: {@link InMemoryOutbox} (the default, a list in the service's heap, lost with the
 * process) and {@link PostgresOutbox} ({@code -Dlab.store=postgres}: a table the PAID update commits in the same
 * transaction, claimed by relays with {@code FOR UPDATE SKIP LOCKED}, and still there after a crash).
 *
 * <p>Units: instants are readings of the outbox's {@code NanoClock}, in nanoseconds.
 *
 * <p>Thread-safety: every method may be called from any thread, by any number of relays at once: each due entry is
 * claimed by exactly one {@link #claimDue} call.
 */
public interface Outbox {

    /** Segment: a notification appended in the unit of work that marks its order PAID. */
    String OUTBOX_APPEND = "outbox.append";

    /**
     * @return the shortest wait between a relay's empty polls that this outbox can afford: an outbox whose poll is a
     *         statement on a shared database says so, one in the heap needs none ({@code Duration.ZERO}, the default)
     */
    default Duration pollFloor() {
        return Duration.ZERO;
    }

    /** Where an entry is in its life. */
    enum State { PENDING, IN_FLIGHT, DELIVERED, PARKED }

    /**
     * One notification and its delivery so far. Immutable: a change replaces the entry.
     *
     * @param notification       what to deliver; its message id is the entry's identity
     * @param appendedNanos      when pay appended it (time-to-notify counts from here)
     * @param retryingSinceNanos when its current retry horizon began: the append, or the last redrive
     * @param attempts           delivery attempts started so far
     * @param dueNanos           when the next attempt may start (PENDING only)
     * @param state              where it is in its life
     * @param lastError          the last attempt's error (for a parked entry: why it was parked), or {@code null}
     */
    record Entry(Notification notification, long appendedNanos, long retryingSinceNanos, int attempts,
                        long dueNanos, State state, String lastError) {

        public String messageId() {
            return notification.messageId();
        }

        Entry with(State newState, int newAttempts, long newDue, String error) {
            return new Entry(notification, appendedNanos, retryingSinceNanos, newAttempts, newDue, newState, error);
        }
    }

    /**
     * Records {@code notification}, due now. Called by the service while it holds the lock that marks the
     * order PAID.
     *
     * @throws IllegalStateException if a notification with this message id was appended before (nothing changes)
     */
    void append(Notification notification);

    /**
     * Claims up to {@code max} PENDING entries that are due, oldest first: each becomes IN_FLIGHT with one
     * more attempt. The caller must report each back with {@link #markDelivered}, {@link #markRetry} or
     * {@link #markParked}.
     *
     * @return the claimed entries, as claimed (attempts already counted)
     */
    List<Entry> claimDue(int max);

    /** An in-flight entry was delivered: it leaves the outbox, and its time from append to now is recorded. */
    void markDelivered(String messageId);

    /**
     * An in-flight entry's attempt failed and is worth another: it is PENDING again, due after {@code wait}.
     *
     * @return the entry as it is now
     */
    Entry markRetry(String messageId, String error, Duration wait);

    /**
     * An in-flight entry will not be tried again: it is PARKED with {@code reason}, kept and listed until
     * {@link #redrive}.
     *
     * @return the entry as it is now
     */
    Entry markParked(String messageId, String reason);

    /**
     * Makes IN_FLIGHT entries PENDING and due now: what a relay does when it starts, in case one before it
     * stopped mid-delivery. Such a delivery may have arrived; sending it again is a redelivery, recognised by
     * its message id.
     *
     * @return how many entries were recovered
     */
    int recoverInFlight();

    /**
     * Puts a PARKED entry back: PENDING, due now, with a fresh retry horizon from now (its attempts and last error are
     * kept). What an operator does once the cause is fixed, or a reconciler on its rounds.
     *
     * @return {@code true} if it was parked and is pending now, {@code false} if it was not parked
     */
    boolean redrive(String messageId);

    /** @return how many parked entries were put back ({@link #redrive} of each) */
    int redriveParked();

    /** @return entries not delivered: pending, in flight and parked */
    long depth();

    /** @return entries the relay is still trying: pending and in flight (parked ones wait for a redrive) */
    long inDelivery();

    /** @return whether nothing is pending, in flight or parked: every notification appended was delivered */
    boolean isDrained();

    /** @return the parked entries, oldest first */
    List<Entry> parked();

    /** @return every entry not delivered (pending, in flight, parked), oldest first: a snapshot */
    List<Entry> entries();

    /** @return the entry of {@code messageId} if it is still open (pending, in flight, parked) */
    Optional<Entry> entry(String messageId);

    /** @return whether {@code messageId} was delivered (acknowledged by the notifier) */
    boolean isDelivered(String messageId);

    /** @return notifications ever appended */
    long appended();

    /** @return notifications delivered */
    long delivered();

    /** @return how many times an entry was parked (a redriven entry parked again counts again) */
    long parkings();

    /** @return how many times a parked entry was redriven */
    long redrives();

    /** @return the message ids ever redriven, in the order of their first redrive */
    List<String> redrivenIds();

    /** @return time from append to delivery of every delivered notification */
    LatencySummary timeToNotify();
}
