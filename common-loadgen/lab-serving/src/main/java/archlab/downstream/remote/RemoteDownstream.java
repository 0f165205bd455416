package archlab.downstream.remote;

import archlab.downstream.DownstreamException;
import archlab.downstream.DownstreamTimeoutException;
import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * The three downstream ports as clients of a {@link DownstreamServer} in another process: what a service takes
 * instead of the stubs when it runs as its own process and the stubs, with their books, stay in the runner's JVM.
 *
 * <h2>The contract of every call</h2>
 * <ul>
 *   <li>It waits for its answer no longer than the caller's remaining deadline ({@link
 *       archlab.request.RequestContext#remainingNanos()}, at most {@link DownstreamWire#LONGEST_CALL} for a context
 *       without one), and hands the server that remaining time, so the stub runs to the same deadline, counted from
 *       the call's arrival.</li>
 *   <li>A deadline already passed: {@link DownstreamTimeoutException} with {@code passedOnArrival} {@code true} at
 *       once, nothing sent (the server never sees the call, as with Go's client and a done context).</li>
 *   <li>The stub's answer, whatever it is, arrives as the stub gave it: its result, or its exception rebuilt with the
 *       same type, message and fields ({@link DownstreamTimeoutException} with its {@code passedOnArrival},
 *       {@link archlab.downstream.PaymentDeclinedException}, {@link archlab.downstream.PaymentReplyLostException},
 *       {@link archlab.downstream.IdempotencyKeyConflictException}, {@link archlab.downstream.PermanentDeliveryException},
 *       {@link DownstreamException}, {@link IllegalArgumentException} for arguments the stub refused).</li>
 *   <li>No answer in time, the connection failing once the call was under way, or an answer that cannot be read:
 *       {@link DownstreamTimeoutException} with {@code passedOnArrival} {@code false} and call index -1. <b>The outcome
 *       is unknown</b>: the call may have reached the stub and taken effect (a charge, a reservation, a delivery),
 *       exactly as a stub's own timeout during its reply delay.</li>
 *   <li>No connection could be made (refused, or not within the time): {@link DownstreamException} with call index -1.
 *       <b>Nothing happened</b>: no byte of the call was sent.</li>
 *   <li>An internal error of the server (a bug, answered 500): {@link DownstreamException} saying that the outcome is
 *       unknown; a path or method the server does not know (client and server of different versions):
 *       {@link IllegalStateException}.</li>
 * </ul>
 * {@link Payments#findByIdempotencyKey(String)} has no deadline in its port: it waits up to {@link #FIND_TIMEOUT}, and
 * fails as above.
 *
 * <p>Thread-safety: the clients are safe from any number of threads; they share one {@link HttpClient} (HTTP/1.1,
 * keep-alive connections reused between calls), which lives as long as they do.
 *
 * @param inventory the inventory client
 * @param payments  the payment client
 * @param notifier  the notifier client
 */
public record RemoteDownstream(Inventory inventory, Payments payments, Notifier notifier) {

    /** How long {@link Payments#findByIdempotencyKey(String)}, out of band, waits for its answer. */
    public static final Duration FIND_TIMEOUT = Duration.ofSeconds(5);
    /** How long making a connection may take at most (a deadline shorter than this cuts it shorter). */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    public RemoteDownstream {
        Objects.requireNonNull(inventory, "inventory");
        Objects.requireNonNull(payments, "payments");
        Objects.requireNonNull(notifier, "notifier");
    }

    /**
     * @param baseUri the server's {@link DownstreamServer#baseUri()}, e.g. {@code http://127.0.0.1:41234}
     * @return clients of the three stubs served there; nothing is sent until the first call
     * @throws IllegalArgumentException if {@code baseUri} is not an {@code http://host:port} address
     */
    public static RemoteDownstream connect(URI baseUri) {
        Objects.requireNonNull(baseUri, "baseUri");
        if (!"http".equals(baseUri.getScheme()) || baseUri.getHost() == null || baseUri.getPort() < 1
                || (baseUri.getRawPath() != null && !baseUri.getRawPath().isEmpty() && !baseUri.getRawPath().equals("/"))
                || baseUri.getRawQuery() != null) {
            throw new IllegalArgumentException("baseUri must be http://host:port, as DownstreamServer.baseUri() gives, was '"
                    + baseUri + "'");
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        DownstreamCalls calls = new DownstreamCalls(client, URI.create("http://" + baseUri.getRawAuthority()));
        return new RemoteDownstream(new RemoteInventory(calls), new RemotePayments(calls), new RemoteNotifier(calls));
    }
}
