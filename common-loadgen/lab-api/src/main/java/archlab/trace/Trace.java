package archlab.trace;

/**
 * The segment recorder of one request: a service marks where the request's time goes with
 * {@link #span(String)}, and the harness adds the segments up per operation ("where the time went").
 *
 * <p>Two kinds: {@link #OFF}, which allocates nothing and reads no clock, and {@link RequestTrace},
 * which the open-loop runner creates for every request it samples. Service code never needs to know
 * which one it holds.
 *
 * <p>Thread-safety: a trace belongs to one request and is confined to the thread running it.
 */
public sealed interface Trace permits Trace.Off, RequestTrace {

    /** The trace of a request that is not recorded. */
    Trace OFF = new Off();

    /**
     * Starts segment {@code segment}; the returned span ends it. Segments nest: while a child is open,
     * time goes to the child (its parent's <em>self</em> time pauses), and the parent's
     * <em>inclusive</em> time covers both.
     *
     * @param segment a short stable name, such as {@code "lock.wait"} or {@code "payment"}
     */
    Span span(String segment);

    /** @return whether this trace records anything */
    boolean isRecording();

    /** The trace that records nothing. */
    final class Off implements Trace {
        private Off() {
        }

        @Override
        public Span span(String segment) {
            return Span.NOOP;
        }

        @Override
        public boolean isRecording() {
            return false;
        }

        @Override
        public String toString() {
            return "Trace.OFF";
        }
    }
}
