package archlab.order;

import archlab.downstream.Notification;
import archlab.loadgen.LatencyHistogram;
import archlab.loadgen.LatencySummary;
import archlab.clock.NanoClock;
import archlab.profile.ProfiledLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The book's outbox: the {@link Outbox} in the service's heap — the default store. It keeps the outbox's promise
 * within one process (the PAID mark and the notification under one lock), and loses every undelivered notification
 * with the process: what {@link PostgresOutbox} is for.
 *
 * <p>Units: instants are readings of the injected {@link NanoClock}, in nanoseconds.
 *
 * <p>Thread-safety: every method may be called from any thread; one small lock (a {@link ProfiledLock}
 * named "outbox", visible in the lock profile) guards the entries. The service takes it inside its own
 * lock; the relay takes only this one, so the two cannot deadlock.
 */
public final class InMemoryOutbox implements Outbox {

    private final NanoClock clock;
    private final ReentrantLock lock = new ProfiledLock("outbox");
    /** Entries not delivered yet (pending, in flight, parked), in append order. */
    private final LinkedHashMap<String, Entry> open = new LinkedHashMap<>();
    private final Set<String> deliveredIds = new HashSet<>();
    private final Set<String> redrivenIds = new LinkedHashSet<>();
    private final LatencyHistogram timeToNotify = new LatencyHistogram();
    private long appended;
    private long parkings;
    private long redrives;

    /** @param clock the clock of every instant in the outbox */
    public InMemoryOutbox(NanoClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Records {@code notification}, due now. Called by the service while it holds the lock that marks the
     * order PAID.
     *
     * @throws IllegalStateException if a notification with this message id was appended before (nothing changes)
     */
    public void append(Notification notification) {
        Objects.requireNonNull(notification, "notification");
        lock.lock();
        try {
            String id = notification.messageId();
            if (open.containsKey(id) || deliveredIds.contains(id)) {
                throw new IllegalStateException("message " + id + " is already in the outbox");
            }
            long now = clock.nanoTime();
            open.put(id, new Entry(notification, now, now, 0, now, State.PENDING, null));
            appended++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Claims up to {@code max} PENDING entries that are due, oldest first: each becomes IN_FLIGHT with one
     * more attempt. The caller must report each back with {@link #markDelivered}, {@link #markRetry} or
     * {@link #markParked}.
     *
     * @return the claimed entries, as claimed (attempts already counted)
     */
    public List<Entry> claimDue(int max) {
        List<Entry> claimed = new ArrayList<>();
        lock.lock();
        try {
            long now = clock.nanoTime();
            for (var e : open.entrySet()) {
                if (claimed.size() >= max) {
                    break;
                }
                Entry entry = e.getValue();
                if (entry.state() == State.PENDING && entry.dueNanos() - now <= 0) {
                    Entry inFlight = entry.with(State.IN_FLIGHT, entry.attempts() + 1, entry.dueNanos(), entry.lastError());
                    e.setValue(inFlight);
                    claimed.add(inFlight);
                }
            }
        } finally {
            lock.unlock();
        }
        return claimed;
    }

    /** An in-flight entry was delivered: it leaves the outbox, and its time from append to now is recorded. */
    public void markDelivered(String messageId) {
        lock.lock();
        try {
            Entry entry = inFlight(messageId);
            open.remove(messageId);
            deliveredIds.add(messageId);
            timeToNotify.record(clock.nanoTime() - entry.appendedNanos());
        } finally {
            lock.unlock();
        }
    }

    /**
     * An in-flight entry's attempt failed and is worth another: it is PENDING again, due after {@code wait}.
     *
     * @return the entry as it is now
     */
    public Entry markRetry(String messageId, String error, Duration wait) {
        lock.lock();
        try {
            Entry entry = inFlight(messageId);
            Entry next = entry.with(State.PENDING, entry.attempts(), clock.nanoTime() + wait.toNanos(), error);
            open.put(messageId, next);
            return next;
        } finally {
            lock.unlock();
        }
    }

    /**
     * An in-flight entry will not be tried again: it is PARKED with {@code reason}, kept and listed until
     * {@link #redrive}.
     *
     * @return the entry as it is now
     */
    public Entry markParked(String messageId, String reason) {
        lock.lock();
        try {
            Entry entry = inFlight(messageId);
            Entry next = entry.with(State.PARKED, entry.attempts(), entry.dueNanos(), reason);
            open.put(messageId, next);
            parkings++;
            return next;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes IN_FLIGHT entries PENDING and due now: what a relay does when it starts, in case one before it
     * stopped mid-delivery. Such a delivery may have arrived; sending it again is a redelivery, recognised by
     * its message id.
     *
     * @return how many entries were recovered
     */
    public int recoverInFlight() {
        lock.lock();
        try {
            int recovered = 0;
            long now = clock.nanoTime();
            for (var e : open.entrySet()) {
                if (e.getValue().state() == State.IN_FLIGHT) {
                    e.setValue(e.getValue().with(State.PENDING, e.getValue().attempts(), now, e.getValue().lastError()));
                    recovered++;
                }
            }
            return recovered;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Puts a PARKED entry back: PENDING, due now, with a fresh retry horizon from now (its attempts and last error are
     * kept). What an operator does once the cause is fixed, or a reconciler on its rounds.
     *
     * @return {@code true} if it was parked and is pending now, {@code false} if it was not parked
     */
    public boolean redrive(String messageId) {
        lock.lock();
        try {
            Entry entry = open.get(messageId);
            if (entry == null || entry.state() != State.PARKED) {
                return false;
            }
            long now = clock.nanoTime();
            open.put(messageId, new Entry(entry.notification(), entry.appendedNanos(), now, entry.attempts(), now,
                    State.PENDING, entry.lastError()));
            redrives++;
            redrivenIds.add(messageId);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** @return how many parked entries were put back ({@link #redrive} of each) */
    public int redriveParked() {
        int count = 0;
        for (Entry e : parked()) {
            if (redrive(e.messageId())) {
                count++;
            }
        }
        return count;
    }

    /** @return entries not delivered: pending, in flight and parked */
    public long depth() {
        return locked(() -> open.size());
    }

    /** @return entries the relay is still trying: pending and in flight (parked ones wait for a redrive) */
    public long inDelivery() {
        return locked(() -> open.values().stream().filter(e -> e.state() != State.PARKED).count());
    }

    /** @return whether nothing is pending, in flight or parked: every notification appended was delivered */
    public boolean isDrained() {
        return depth() == 0;
    }

    /** @return the parked entries, oldest first */
    public List<Entry> parked() {
        return locked(() -> open.values().stream().filter(e -> e.state() == State.PARKED).toList());
    }

    /** @return every entry not delivered (pending, in flight, parked), oldest first: a snapshot */
    public List<Entry> entries() {
        return locked(() -> List.copyOf(open.values()));
    }

    /** @return the entry of {@code messageId} if it is still open (pending, in flight, parked) */
    public Optional<Entry> entry(String messageId) {
        return locked(() -> Optional.ofNullable(open.get(messageId)));
    }

    /** @return whether {@code messageId} was delivered (acknowledged by the notifier) */
    public boolean isDelivered(String messageId) {
        return locked(() -> deliveredIds.contains(messageId));
    }

    /** @return notifications ever appended */
    public long appended() {
        return locked(() -> appended);
    }

    /** @return notifications delivered */
    public long delivered() {
        return locked(() -> deliveredIds.size());
    }

    /** @return how many times an entry was parked (a redriven entry parked again counts again) */
    public long parkings() {
        return locked(() -> parkings);
    }

    /** @return how many times a parked entry was redriven */
    public long redrives() {
        return locked(() -> redrives);
    }

    /** @return the message ids ever redriven, in the order of their first redrive */
    public List<String> redrivenIds() {
        return locked(() -> List.copyOf(redrivenIds));
    }

    /** @return time from append to delivery of every delivered notification */
    public LatencySummary timeToNotify() {
        return timeToNotify.summary();
    }

    private Entry inFlight(String messageId) {
        Entry entry = open.get(messageId);
        if (entry == null || entry.state() != State.IN_FLIGHT) {
            throw new IllegalStateException("message " + messageId + " is not in flight: " + entry);
        }
        return entry;
    }

    /** @return {@code read}'s answer, computed under the outbox's lock */
    private <T> T locked(Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }
}
