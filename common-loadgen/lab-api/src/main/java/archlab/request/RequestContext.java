package archlab.request;

import archlab.clock.NanoClock;
import archlab.trace.Span;
import archlab.trace.Trace;
import java.time.Duration;

/**
 * What one request carries through the service and on to every downstream call: its deadline
 * (the counterpart of Go's {@code context.Context}), the clock that deadline is measured on, and
 * its segment {@link Trace}.
 *
 * <p>Immutable and safe to share; the trace inside it is confined to the request's thread.
 *
 * @param sequence          the request's sequence number in the run (1-based; 0 outside a run)
 * @param plannedStartNanos when the request was planned to start, on {@code clock}
 * @param deadline          planned start + timeout
 * @param clock             the clock of the run
 * @param trace             where the service marks its segments; {@link Trace#OFF} when not sampled
 */
public record RequestContext(long sequence, long plannedStartNanos, Deadline deadline, NanoClock clock, Trace trace) {

    public RequestContext {
        if (deadline == null || clock == null || trace == null) {
            throw new IllegalArgumentException("deadline, clock and trace are required");
        }
    }

    /** A context for calls outside a load run (tests, setup): deadline {@code timeout} from now, no trace. */
    public static RequestContext withTimeout(NanoClock clock, Duration timeout) {
        long now = clock.nanoTime();
        // one reading for both, so that deadline == planned start + timeout exactly
        return new RequestContext(0, now, Deadline.after(() -> now, timeout), clock, Trace.OFF);
    }

    /** A context with no deadline and no trace, on the system clock: for setup code such as pre-creating orders. */
    public static RequestContext background() {
        return new RequestContext(0, System.nanoTime(), Deadline.NONE, NanoClock.SYSTEM, Trace.OFF);
    }

    /**
     * A per-call timeout carved out of the request's deadline: the same request with the earlier of its
     * own deadline and {@code budget} from now, for one downstream call.
     */
    public RequestContext withCallBudget(Duration budget) {
        Deadline call = deadline.within(clock, budget);
        return call.equals(deadline) ? this : new RequestContext(sequence, plannedStartNanos, call, clock, trace);
    }

    /**
     * The same request with {@code other} as its deadline, later or earlier: what a client library that knows nothing
     * of the request's deadline hands a call (its own timeout instead).
     */
    public RequestContext withDeadline(Deadline other) {
        return new RequestContext(sequence, plannedStartNanos, other, clock, trace);
    }

    /**
     * The same request without its trace: for a call handed to another thread, since the trace is confined to the
     * request's own thread.
     */
    public RequestContext withoutTrace() {
        return trace == Trace.OFF ? this : new RequestContext(sequence, plannedStartNanos, deadline, clock, Trace.OFF);
    }

    /** Shortcut for {@code trace().span(segment)}. */
    public Span span(String segment) {
        return trace.span(segment);
    }

    /** @return nanoseconds left before the deadline; zero or negative once it passed */
    public long remainingNanos() {
        return deadline.remainingNanos(clock);
    }

    /** @throws DeadlineExceededException if the deadline has passed */
    public void checkDeadline(String what) {
        if (deadline.isExpired(clock)) {
            throw new DeadlineExceededException(what);
        }
    }
}
