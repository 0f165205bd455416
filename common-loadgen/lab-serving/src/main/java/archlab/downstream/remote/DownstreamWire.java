package archlab.downstream.remote;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;

/**
 * What {@link DownstreamServer} and {@link RemoteDownstream} agree on: the paths, the deadline header, the body limit.
 * Every body is JSON; every call but the out-of-band look-up carries {@value #DEADLINE_HEADER}.
 *
 * <table>
 *   <caption>The endpoints</caption>
 *   <tr><th>call</th><th>request</th><th>answer</th></tr>
 *   <tr><td>{@code Inventory.reserve(ctx, sku, quantity)}</td>
 *       <td>{@code POST /inventory/reserve {"sku", "quantity"}}</td><td>204</td></tr>
 *   <tr><td>{@code Inventory.release(ctx, sku, quantity)}</td>
 *       <td>{@code POST /inventory/release {"sku", "quantity"}}</td><td>204</td></tr>
 *   <tr><td>{@code Inventory.reserve(ctx, key, sku, quantity)}</td>
 *       <td>{@code POST /inventory/keyed/reserve {"reservationKey", "sku", "quantity"}}</td><td>204</td></tr>
 *   <tr><td>{@code Inventory.release(ctx, key)}</td>
 *       <td>{@code POST /inventory/keyed/release {"reservationKey"}}</td><td>204</td></tr>
 *   <tr><td>{@code Payments.charge(ctx, request)}</td>
 *       <td>{@code POST /payments/charge {"orderId", "amountCents", "idempotencyKey" (null: none)}}</td>
 *       <td>200 {@code {"paymentId", "orderId", "amountCents", "replayed"}}</td></tr>
 *   <tr><td>{@code Payments.findByIdempotencyKey(key)}</td>
 *       <td>{@code GET /payments/charges?idempotencyKey=KEY} (no deadline header)</td>
 *       <td>200 {@code {"charge": {…} or null}}</td></tr>
 *   <tr><td>{@code Notifier.notify(ctx, notification)}</td>
 *       <td>{@code POST /notifier/notify {"messageId", "orderId"}}</td><td>204</td></tr>
 * </table>
 *
 * <p>An error is {@code {"error": KIND, "message": …, "status": N}} plus, when the exception has them, {@code stub},
 * {@code callIndex}, {@code passedOnArrival}, {@code idempotencyKey} ({@link WireError}). Stateless.
 */
final class DownstreamWire {

    /**
     * The caller's remaining deadline, in nanoseconds (a signed decimal {@code long}; zero or less: already passed). The
     * server counts it from the request's arrival.
     */
    static final String DEADLINE_HEADER = "X-Deadline-Remaining-Nanos";
    /** The largest request body read: 16 KiB; a larger one is refused with 413, unread. */
    static final int MAX_BODY_BYTES = 16 * 1024;
    /**
     * The longest a call waits for its answer, whatever the caller's deadline: a context without a deadline
     * ({@link archlab.request.Deadline#NONE}) waits this long, and the server is handed this much too.
     */
    static final Duration LONGEST_CALL = Duration.ofMinutes(10);

    static final String RESERVE = "/inventory/reserve";
    static final String RELEASE = "/inventory/release";
    static final String KEYED_RESERVE = "/inventory/keyed/reserve";
    static final String KEYED_RELEASE = "/inventory/keyed/release";
    static final String CHARGE = "/payments/charge";
    static final String FIND_CHARGE = "/payments/charges";
    static final String NOTIFY = "/notifier/notify";

    static final ObjectMapper JSON = new ObjectMapper();

    private DownstreamWire() {
    }
}
