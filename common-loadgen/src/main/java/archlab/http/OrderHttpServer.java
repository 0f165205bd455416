package archlab.http;

import archlab.loadgen.OrderTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.AbstractProtocol;
import org.HdrHistogram.Histogram;

/**
 * One checkpoint's service over HTTP: an embedded Tomcat (NIO connector, HTTP/1.1 keep-alive) bound to 127.0.0.1 on
 * an ephemeral port (or the port asked for), serving {@link OrderServlet} over the given {@link OrderTarget}, with Tomcat's defaults for the
 * connector ({@code acceptCount} {@value ServerThreads#TOMCAT_ACCEPT_COUNT}, keep-alive) and a measured
 * {@link ServerExecutor} for its threads. Errors outside the servlet are JSON too ({@link JsonErrorValve}).
 *
 * <p>Lifecycle: {@link #start} returns a serving server; {@link #close} stops it and deletes its scratch directory.
 * The figures ({@link #executor()}) stay readable after close. Thread-safety: start and close from one thread.
 */
public final class OrderHttpServer implements AutoCloseable {

    /** Tomcat's INFO lines (starting, stopping) are not the run's: kept here so the level holds. */
    private static final List<Logger> QUIET = Stream.of("org.apache.catalina", "org.apache.coyote", "org.apache.tomcat")
            .map(Logger::getLogger).peek(l -> l.setLevel(Level.WARNING)).toList();

    private final Tomcat tomcat;
    private final ServerExecutor executor;
    private final Path baseDir;
    private final int port;

    private OrderHttpServer(Tomcat tomcat, ServerExecutor executor, Path baseDir, int port) {
        this.tomcat = tomcat;
        this.executor = executor;
        this.baseDir = baseDir;
        this.port = port;
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
        // refused here, in one line: Tomcat would log a failed bind at SEVERE with its stack trace and start without a
        // connector
        LoopbackPort.requireFree("port", port);
        if (QUIET.isEmpty()) {
            throw new AssertionError("the loggers are set up");
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("archlab-tomcat");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Tomcat's scratch directory", e);
        }
        ServerExecutor executor = new ServerExecutor(threads);
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(dir.toString());
        Connector connector = new Connector("org.apache.coyote.http11.Http11NioProtocol");
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("acceptCount", Integer.toString(ServerThreads.TOMCAT_ACCEPT_COUNT));
        connector.setXpoweredBy(false);
        ((AbstractProtocol<?>) connector.getProtocolHandler()).setExecutor(executor);
        tomcat.setConnector(connector);
        ((StandardHost) tomcat.getHost()).setErrorReportValveClass(JsonErrorValve.class.getName());
        Context context = tomcat.addContext("", dir.toString());
        if (context instanceof StandardContext standard) {
            // one context, never redeployed: no class loader to leak, and the checks would only warn, at every stop,
            // that they need --add-opens
            standard.setClearReferencesThreadLocals(false);
            standard.setClearReferencesRmiTargets(false);
        }
        Tomcat.addServlet(context, "orders", new OrderServlet(target));
        context.addServletMappingDecoded("/", "orders");
        try {
            tomcat.start();
        } catch (LifecycleException e) {
            executor.shutdown();
            throw new IllegalStateException("Tomcat did not start", e);
        }
        int bound = connector.getLocalPort();
        if (bound <= 0) {
            executor.shutdown();
            throw new IllegalStateException("Tomcat's connector is not listening (local port " + bound + ")"
                    + (port == LoopbackPort.ANY ? "" : ": another socket may have taken 127.0.0.1:" + port + " meanwhile"));
        }
        return new OrderHttpServer(tomcat, executor, dir, bound);
    }

    /** @return the port it listens on, on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return {@code http://127.0.0.1:PORT} */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
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
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat did not stop cleanly", e);
        } finally {
            executor.shutdown();
            deleteQuietly(baseDir);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a scratch directory under the system's temp: left for the OS
        }
    }
}
