package archlab.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event for one wait to acquire a {@link ProfiledLock}: its duration is the wait, its stack
 * trace is the waiter's. It exists because JFR records no {@code jdk.ThreadPark} event when a
 * <em>virtual</em> thread waits on a ReentrantLock (checked on JDK 25), so the lab's lock table would
 * otherwise be empty for the very runs that matter.
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
}
