package archlab.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event for one wait to acquire a {@link ProfiledLock}: its duration is the wait, its stack
 * trace is the waiter's, starting at the acquiring method ({@code lock}, {@code lockInterruptibly},
 * {@code tryLock}). It exists because JFR records no {@code jdk.ThreadPark} event when a
 * <em>virtual</em> thread waits on a ReentrantLock (checked on JDK 25), so the lab's lock table would
 * otherwise be empty for the very runs that matter.
 *
 * <p>A wait that gave up (a timed {@code tryLock} that timed out, an interrupted {@code lockInterruptibly} or
 * {@code tryLock}) is an event too, with {@link #acquired} false: the time was still spent queueing.
 */
@Name(LockWaitEvent.NAME)
@Label("Lock Wait")
@Category({"arch-lab", "Locks"})
@Description("A thread waited to acquire a ProfiledLock")
@StackTrace(true)
public final class LockWaitEvent extends jdk.jfr.Event {

    /** The event's JFR name. */
    public static final String NAME = "archlab.LockWait";

    @Label("Lock")
    @Description("The lock's name, as given to ProfiledLock")
    String lockName;

    @Label("Virtual Thread")
    boolean virtualThread;

    @Label("Acquired")
    @Description("Whether the wait ended with the lock held; false if a timed tryLock timed out or the waiting"
            + " thread was interrupted")
    boolean acquired;
}
