package archlab.downstream.remote;

import archlab.downstream.ChargeRequest;
import archlab.downstream.ChargeResult;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.Payments;
import archlab.downstream.PaymentsStub;
import archlab.request.RequestContext;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/** {@link Payments} over HTTP to a {@link DownstreamServer}; the contract is {@link RemoteDownstream}'s. Thread-safe. */
final class RemotePayments implements Payments {

    private final DownstreamCalls calls;

    RemotePayments(DownstreamCalls calls) {
        this.calls = calls;
    }

    @Override
    public ChargeResult charge(RequestContext ctx, ChargeRequest request) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(request, "request");
        JsonNode answer = calls.post(ctx, PaymentsStub.NAME, DownstreamWire.CHARGE, DownstreamWire.JSON.createObjectNode()
                .put("orderId", request.orderId()).put("amountCents", request.amountCents())
                .put("idempotencyKey", request.idempotencyKey()));
        ChargeResult result = chargeOf(answer);
        if (result == null) {
            throw unreadable("the charge of order " + request.orderId());
        }
        return result;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Waits up to {@link RemoteDownstream#FIND_TIMEOUT} for the answer.
     *
     * @throws DownstreamTimeoutException if no answer came in time (ask again)
     * @throws archlab.downstream.DownstreamException if the server could not be reached
     */
    @Override
    public Optional<ChargeResult> findByIdempotencyKey(String idempotencyKey) {
        if (idempotencyKey == null || idempotencyKey.isBlank()) {
            throw new IllegalArgumentException("idempotencyKey must not be blank, was '" + idempotencyKey + "'");
        }
        JsonNode answer = calls.get(PaymentsStub.NAME, DownstreamWire.FIND_CHARGE + "?idempotencyKey="
                + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8), RemoteDownstream.FIND_TIMEOUT);
        JsonNode charge = answer == null ? null : answer.get("charge");
        if (charge == null) {
            throw unreadable("the look-up of key " + idempotencyKey);
        }
        if (charge.isNull()) {
            return Optional.empty();
        }
        ChargeResult result = chargeOf(charge);
        if (result == null) {
            throw unreadable("the look-up of key " + idempotencyKey);
        }
        return Optional.of(result);
    }

    /** @return the result a 200 carries; {@code null} if it is not one */
    private static ChargeResult chargeOf(JsonNode n) {
        if (n == null || !n.path("paymentId").isTextual() || !n.path("orderId").isTextual()
                || !n.path("amountCents").canConvertToLong() || !n.path("replayed").isBoolean()) {
            return null;
        }
        try {
            return new ChargeResult(n.get("paymentId").asText(), n.get("orderId").asText(), n.get("amountCents").asLong(),
                    n.get("replayed").asBoolean());
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }

    private static DownstreamTimeoutException unreadable(String what) {
        return new DownstreamTimeoutException(PaymentsStub.NAME, -1, false, PaymentsStub.NAME
                + " over HTTP: an unreadable answer to " + what + "; the call may have taken effect");
    }

    @Override
    public String toString() {
        return "remote " + PaymentsStub.NAME;
    }
}
