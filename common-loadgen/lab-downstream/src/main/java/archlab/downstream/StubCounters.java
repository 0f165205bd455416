package archlab.downstream;

/**
 * A snapshot of one stub's call counters.
 *
 * <p>Every call is counted in {@code calls} when it arrives (after its arguments were validated), and in
 * at most one of the others when it ends. A snapshot taken while calls run may count calls that have not
 * ended yet; the few calls that end otherwise (idempotency-key conflict, interrupted sleep) are in
 * {@code calls} only.
 *
 * @param calls          calls that arrived
 * @param succeeded      calls that returned normally
 * @param injectedErrors calls that ended with an injected error (refusal, decline, lost reply)
 * @param timeouts       calls that ended with {@link DownstreamTimeoutException}
 */
public record StubCounters(long calls, long succeeded, long injectedErrors, long timeouts) {
}
