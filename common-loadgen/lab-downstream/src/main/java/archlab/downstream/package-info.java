/**
 * The three downstream systems the order service calls on "pay" — inventory, payments, notify —
 * as interfaces, plus in-memory stubs that simulate them: per-call latency, deterministic seeded
 * fault injection, per-call counters, and a {@link archlab.downstream.PaymentLedger} that tells
 * "money charged" apart from "order marked PAID".
 *
 * <h2>The one rule every stub follows</h2>
 * A stub call goes through the same steps, in this order:
 * <ol>
 *   <li><b>arrive</b>: the call is numbered (0-based, in arrival order) and counted;</li>
 *   <li><b>deadline already passed?</b> Then it throws {@link archlab.downstream.DownstreamTimeoutException}
 *       at once, and nothing happens downstream (like Go's {@code select} on a done context);</li>
 *   <li><b>injected error?</b> Then it throws {@link archlab.downstream.DownstreamException} at once:
 *       a clean refusal, nothing happens downstream;</li>
 *   <li><b>the downstream acts</b>: stock is reserved, money is charged, the message is delivered;</li>
 *   <li><b>the reply travels back</b> for the call's latency. If the caller's deadline passes meanwhile,
 *       the call ends <em>at</em> the deadline with {@link archlab.downstream.DownstreamTimeoutException}
 *       &mdash; and the effect of step 4 stays: a client timeout does not undo a charge;</li>
 *   <li>(payments only) <b>lost reply?</b> Then it throws {@link archlab.downstream.PaymentReplyLostException}:
 *       the money was charged, but the caller cannot tell.</li>
 * </ol>
 * A charge with an idempotency key looks its key up before step 3, as a real provider does: a key seen before is
 * answered with its first answer (the charge, or the decline), and no decline is drawn for it.
 *
 * <p>Which calls fail is a pure function of (seed, call index) ({@link archlab.downstream.ErrorInjection}),
 * so the same calls fail on every run, whatever the thread interleaving.
 *
 * <p>Stubs sleep with {@link java.lang.Thread#sleep(java.time.Duration)} and count with atomics and
 * {@link java.util.concurrent.ConcurrentHashMap}: they take no lock of their own that a lock-contention
 * profile would show, so such a profile shows only the service's own locks.
 */
package archlab.downstream;
