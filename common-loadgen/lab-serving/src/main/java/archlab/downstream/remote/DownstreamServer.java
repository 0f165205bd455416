package archlab.downstream.remote;

import archlab.downstream.Downstream;
import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.loopback.LoopbackPort;
import archlab.loopback.LoopbackTomcat;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One run's downstream stubs served over loopback HTTP, so that they and their books (the payment ledger, the
 * notifier's per-message counts, the inventory's keyed reservations) live in this JVM while the service that calls
 * them runs, and dies, in another process, reaching them through {@link RemoteDownstream}. The endpoints, the deadline
 * header and the error body are {@link DownstreamWire}'s.
 *
 * <p>An embedded Tomcat ({@link LoopbackTomcat}) on 127.0.0.1 only, one virtual thread per request (a stub sleeps its
 * latency: no pool of server threads caps how many calls sleep at once, so the stubs' latencies are what a caller
 * sees), keep-alive with no limit on requests per connection and an idle timeout ({@value #KEEP_ALIVE_SECONDS} s)
 * longer than the JDK client's own (30 s), so that the client closes an idle connection first and never sends on one
 * the server is closing. Each call runs with a deadline of the caller's remaining time from its arrival.
 *
 * <p>Lifecycle: {@link #start} returns a serving server; {@link #close} stops it (calls in flight are cut off). The
 * stubs are the caller's, readable before and after. Thread-safety: start and close from one thread.
 */
public final class DownstreamServer implements AutoCloseable {

    /** How long the server keeps an idle keep-alive connection open: longer than the JDK client keeps one (30 s). */
    static final long KEEP_ALIVE_SECONDS = 120;
    /**
     * The listen backlog: a burst of calls from a service that opens a connection per concurrent call (hundreds at once)
     * must not overflow it — an overflowed backlog drops the connection attempt, and the kernel retries it a second
     * later, a delay that would be the wire's, not the stub's latency. Tomcat's default is 100.
     */
    static final int ACCEPT_COUNT = 2048;

    private final LoopbackTomcat tomcat;
    private final ExecutorService threads;

    private DownstreamServer(LoopbackTomcat tomcat, ExecutorService threads) {
        this.tomcat = tomcat;
        this.threads = threads;
    }

    /**
     * Serves {@code downstream}'s three stubs on 127.0.0.1, on a free port the OS picks.
     *
     * @throws IllegalStateException when Tomcat cannot start
     */
    public static DownstreamServer start(Downstream downstream) {
        return start(downstream, LoopbackPort.ANY);
    }

    /**
     * Serves {@code downstream}'s three stubs on 127.0.0.1:{@code port}.
     *
     * @param port 1..65535, or {@link LoopbackPort#ANY} (0) for a free port the OS picks
     * @throws IllegalArgumentException when {@code port} is out of range or another socket listens on it
     * @throws IllegalStateException    when Tomcat cannot start
     */
    public static DownstreamServer start(Downstream downstream, int port) {
        Objects.requireNonNull(downstream, "downstream");
        return serve(downstream.inventory(), downstream.payments(), downstream.notifier(), port);
    }

    /**
     * Serves any three ports on 127.0.0.1:{@code port} ({@link LoopbackPort#ANY}: one the OS picks): the tests' fakes,
     * which throw what a stub only throws in rare states, and the grader's stubs wrapped in its gauges.
     */
    public static DownstreamServer serve(Inventory inventory, Payments payments, Notifier notifier, int port) {
        LoopbackPort.requireFree("port", port); // before a thread exists
        ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("downstream-v-", 0).factory());
        try {
            LoopbackTomcat tomcat = LoopbackTomcat.serving(new DownstreamServlet(inventory, payments, notifier),
                            (status, message) -> WireError.refusal(WireError.Kind.ofStatus(status), message))
                    .port(port).executor(threads).acceptCount(ACCEPT_COUNT).keepAliveTimeout(Duration.ofSeconds(KEEP_ALIVE_SECONDS))
                    .unlimitedKeepAliveRequests().start();
            return new DownstreamServer(tomcat, threads);
        } catch (RuntimeException e) {
            threads.shutdownNow();
            throw e;
        }
    }

    /** @return {@code http://127.0.0.1:PORT}, what {@link RemoteDownstream#connect(URI)} takes */
    public URI baseUri() {
        return tomcat.baseUri();
    }

    /** @return the port it listens on, on 127.0.0.1 */
    public int port() {
        return tomcat.port();
    }

    /** Stops serving; calls still running get at most a second to end. */
    @Override
    public void close() {
        try {
            tomcat.close();
        } finally {
            threads.shutdown();
            try {
                if (!threads.awaitTermination(1, TimeUnit.SECONDS)) {
                    threads.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                threads.shutdownNow();
            }
        }
    }
}
