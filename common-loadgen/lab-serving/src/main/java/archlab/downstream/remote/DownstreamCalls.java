package archlab.downstream.remote;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.request.RequestContext;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * The HTTP side of the three clients: one shared {@link HttpClient} (HTTP/1.1, keep-alive) to one
 * {@link DownstreamServer}, and the one place where what happened on the wire becomes the ports' exceptions (the
 * contract is {@link RemoteDownstream}'s).
 *
 * <p>Thread-safety: safe from any number of threads, as {@link HttpClient} is.
 */
final class DownstreamCalls {

    private final HttpClient client;
    private final URI base;

    DownstreamCalls(HttpClient client, URI base) {
        this.client = client;
        this.base = base;
    }

    /**
     * POSTs {@code body} to {@code path} with the caller's remaining deadline, waiting for the answer no longer.
     *
     * @param stub the stub called, named in the client's own errors
     * @return the answer's body; {@code null} for 204
     */
    JsonNode post(RequestContext ctx, String stub, String path, JsonNode body) {
        long remaining = ctx.remainingNanos();
        if (remaining <= 0) {
            // as Go's client with a done context: nothing is sent, the server never sees the call
            throw new DownstreamTimeoutException(stub, -1, true, stub + " over HTTP: the deadline had passed before the"
                    + " call was sent (" + (-remaining / 1_000) + " µs ago); nothing sent");
        }
        long waitNanos = Math.min(remaining, DownstreamWire.LONGEST_CALL.toNanos());
        byte[] bytes;
        try {
            bytes = DownstreamWire.JSON.writeValueAsBytes(body);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write the request of " + path, e);
        }
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofNanos(waitNanos))
                .header(DownstreamWire.DEADLINE_HEADER, Long.toString(waitNanos))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build();
        return send(request, stub, Duration.ofNanos(waitNanos));
    }

    /** GETs {@code pathAndQuery}, out of band (no deadline header), waiting up to {@code timeout}. */
    JsonNode get(String stub, String pathAndQuery, Duration timeout) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(timeout).GET().build();
        return send(request, stub, timeout);
    }

    private JsonNode send(HttpRequest request, String stub, Duration waited) {
        String target = request.method() + " " + request.uri();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw notConnected(stub, target, e);
        } catch (HttpTimeoutException e) {
            throw new DownstreamTimeoutException(stub, -1, false, String.format(Locale.ROOT,
                    "%s over HTTP: no answer to %s within %.1f ms (the caller's deadline); the call may have taken effect",
                    stub, target, waited.toNanos() / 1e6));
        } catch (IOException e) {
            if (causedByConnect(e)) {
                throw notConnected(stub, target, e);
            }
            throw new DownstreamTimeoutException(stub, -1, false, stub + " over HTTP: the connection failed during "
                    + target + " (" + e + "); the call may have taken effect");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DownstreamException(stub, -1, "interrupted waiting for the answer to " + target
                    + "; the call may have taken effect", e);
        }
        JsonNode body = parse(response.body());
        int status = response.statusCode();
        if (status == 204) {
            return null;
        }
        if (status == 200 && body != null) {
            return body;
        }
        if (status >= 400) {
            throw WireError.read(status, body).toException();
        }
        throw new DownstreamTimeoutException(stub, -1, false, stub + " over HTTP: an unreadable answer to " + target
                + " (status " + status + "); the call may have taken effect");
    }

    private static DownstreamException notConnected(String stub, String target, IOException e) {
        return new DownstreamException(stub, -1, "could not connect for " + target + " (" + e + "); nothing sent", e);
    }

    private static boolean causedByConnect(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    /** @return the body as JSON; {@code null} if empty or not JSON */
    private static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return DownstreamWire.JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }
}
