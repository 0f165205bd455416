package archlab.http;

import archlab.loadgen.OrderTarget;
import archlab.loopback.LoopbackPort;
import archlab.loopback.LoopbackTomcat;
import java.net.URI;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * One checkpoint's service over HTTP: an embedded Tomcat (NIO connector, HTTP/1.1 keep-alive) bound to 127.0.0.1 on
 * an ephemeral port (or the port asked for), serving {@link OrderServlet} over the given {@link OrderTarget}, with
 * Tomcat's defaults for the connector ({@code acceptCount} {@value ServerThreads#TOMCAT_ACCEPT_COUNT}, keep-alive) and
 * a measured {@link ServerExecutor} for its threads. Errors outside the servlet are JSON too
 * ({@link archlab.loopback.JsonErrorValve}); the Tomcat plumbing is {@link LoopbackTomcat}'s.
 *
 * <p>Lifecycle: {@link #start} returns a serving server; {@link #close} stops it and deletes its scratch directory.
 * The figures ({@link #executor()}) stay readable after close. Thread-safety: start and close from one thread.
 */
public final class OrderHttpServer implements AutoCloseable {

    /** The path answered 204 without calling the service: what a request costs the server and the client, and nothing else. */
    public static final String NOOP_PATH = OrderServlet.NOOP_PATH;
    /** The longest deadline a caller may ask for in {@code X-Deadline-Ms}, ms. */
    public static final long MAX_DEADLINE_MS = OrderServlet.MAX_DEADLINE_MS;

    private final LoopbackTomcat tomcat;
    private final ServerExecutor executor;

    private OrderHttpServer(LoopbackTomcat tomcat, ServerExecutor executor) {
        this.tomcat = tomcat;
        this.executor = executor;
    }

    /**
     * Starts a server over {@code target} on a free port the OS picks.
     *
     * @throws IllegalStateException when Tomcat cannot start (the scratch directory)
     */
    public static OrderHttpServer start(OrderTarget target, ServerThreads threads) {
        return start(target, threads, LoopbackPort.ANY);
    }

    /**
     * Starts a server over {@code target} on 127.0.0.1:{@code port}.
     *
     * @param port 1..65535, or {@link LoopbackPort#ANY} (0) for a free port the OS picks
     * @throws IllegalArgumentException when {@code port} is out of range or another socket listens on it
     * @throws IllegalStateException    when Tomcat cannot start (the scratch directory)
     */
    public static OrderHttpServer start(OrderTarget target, ServerThreads threads, int port) {
        LoopbackPort.requireFree("port", port); // before the executor's threads exist
        ServerExecutor executor = new ServerExecutor(threads);
        try {
            LoopbackTomcat tomcat = LoopbackTomcat.serving(new OrderServlet(target), HttpErrors::body)
                    .port(port).acceptCount(ServerThreads.TOMCAT_ACCEPT_COUNT).executor(executor).start();
            return new OrderHttpServer(tomcat, executor);
        } catch (RuntimeException e) {
            executor.shutdown();
            throw e;
        }
    }

    /** @return the port it listens on, on 127.0.0.1 */
    public int port() {
        return tomcat.port();
    }

    /** @return {@code http://127.0.0.1:PORT} */
    public URI baseUri() {
        return tomcat.baseUri();
    }

    /** @return the measured executor its requests run on */
    public ServerExecutor executor() {
        return executor;
    }

    /** @return e.g. {@code http server=tomcat threads=platform max=200 accept_queue=100}: the report's transport line */
    public String describe() {
        return "http server=tomcat threads=" + executor.threads().label()
                + (executor.threads() == ServerThreads.PLATFORM ? " max=" + ServerThreads.TOMCAT_MAX_THREADS : " max=unbounded")
                + " accept_queue=" + ServerThreads.TOMCAT_ACCEPT_COUNT;
    }

    /**
     * @return e.g. {@code tomcat busy_threads_max=200 events=4512 queue_wait p50=0.01ms p99=310.2ms max=402.0ms}: the
     *         server's view of the run so far
     */
    public String serverLine() {
        Histogram q = executor.queueWait();
        return String.format(Locale.ROOT, "tomcat busy_threads_max=%d events=%d queue_wait p50=%.2fms p99=%.2fms max=%.2fms"
                        + " (socket events waiting for a server thread)",
                executor.busyMax(), executor.events(), q.getValueAtPercentile(50) / 1e6, q.getValueAtPercentile(99) / 1e6,
                q.getMaxValue() / 1e6);
    }

    @Override
    public void close() {
        try {
            tomcat.close();
        } finally {
            executor.shutdown();
        }
    }
}
