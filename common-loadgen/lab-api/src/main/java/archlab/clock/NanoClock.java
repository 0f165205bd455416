package archlab.clock;

/**
 * A monotonic clock in nanoseconds, injectable so that tests can advance time instead of sleeping.
 *
 * <p>Contract: {@link #nanoTime()} never goes backwards for one clock instance. The value has no
 * relation to wall-clock time; only differences between two readings mean anything.
 *
 * <p>Thread-safety: implementations must be safe to read from any number of threads.
 */
@FunctionalInterface
public interface NanoClock {

    /** The JVM's monotonic clock, {@link System#nanoTime()}. */
    NanoClock SYSTEM = System::nanoTime;

    /** @return the current reading, in nanoseconds */
    long nanoTime();
}
