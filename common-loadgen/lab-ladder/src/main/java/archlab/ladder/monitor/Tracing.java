package archlab.ladder.monitor;

/**
 * How the interface traces its requests: the source article's monitoring trap (its section 4.3) and its fix, on
 * OpenTelemetry's SDK ({@link RequestTracer}). A trace is a span for the request and one per stage (the pool's wait and
 * the database's time, the rows, the mapping, the tag, the body, the request log).
 *
 * <ul>
 * <li>{@link #EVERY_REQUEST} — WRONG: every request traced, the request's parameters and its whole answer (serialised)
 *     captured as attributes, and each span exported as it ends, by the request's own thread (OpenTelemetry's simple span
 *     processor: its exporter writes one line per span to the trace file, flushed at each).</li>
 * <li>{@link #SAMPLED} — RIGHT: one trace in {@value RequestTracer#SAMPLE_ONE_IN} kept (by its trace id), key fields
 *     only, the ended spans queued in memory and exported in batches by the processor's own thread (OpenTelemetry's
 *     batch span processor). A request not sampled builds no span beyond the sampler's decision.</li>
 * </ul>
 */
public enum Tracing {
    /** Every request, its whole answer as an attribute, each span exported on the request's thread. */
    EVERY_REQUEST,
    /** One in {@value RequestTracer#SAMPLE_ONE_IN}, key fields only, exported in batches off the request's thread. */
    SAMPLED
}
