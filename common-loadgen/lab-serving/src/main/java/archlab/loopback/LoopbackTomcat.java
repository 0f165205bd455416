package archlab.loopback;

import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
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

/**
 * One servlet served by an embedded Tomcat on 127.0.0.1 only (NIO connector, HTTP/1.1 keep-alive), on an ephemeral
 * port or the one asked for: the plumbing the lab's HTTP servers share ({@code archlab.http.OrderHttpServer}, the
 * downstream stubs' {@code archlab.downstream.remote.DownstreamServer}). Tomcat's own errors (a request it refuses
 * before the servlet) are answered with the server's JSON error body ({@link JsonErrorValve}), Tomcat's INFO lines are
 * kept out of the run's output, and its scratch directory is deleted on {@link #close}.
 *
 * <p>Lifecycle: {@link Builder#start()} returns a serving server; {@link #close} stops it. Thread-safety: start and
 * close from one thread; the servlet is called from many.
 */
public final class LoopbackTomcat implements AutoCloseable {

    /** Tomcat's INFO lines (starting, stopping) are not the run's: kept here so the level holds. */
    private static final List<Logger> QUIET = Stream.of("org.apache.catalina", "org.apache.coyote", "org.apache.tomcat")
            .map(Logger::getLogger).peek(l -> l.setLevel(Level.WARNING)).toList();

    private final Tomcat tomcat;
    private final Path baseDir;
    private final int port;

    private LoopbackTomcat(Tomcat tomcat, Path baseDir, int port) {
        this.tomcat = tomcat;
        this.baseDir = baseDir;
        this.port = port;
    }

    /**
     * @param servlet   what answers every path ({@code /} is mapped to it)
     * @param errorBody the JSON body of the errors Tomcat raises itself, shaped as the servlet's own
     * @return a builder of a server of {@code servlet}
     */
    public static Builder serving(HttpServlet servlet, JsonErrorValve.ErrorBody errorBody) {
        return new Builder(servlet, errorBody);
    }

    /** What the server is built with; every setting but the servlet and its error body has Tomcat's default. */
    public static final class Builder {
        private final HttpServlet servlet;
        private final JsonErrorValve.ErrorBody errorBody;
        private int port = LoopbackPort.ANY;
        private Executor executor;
        private Integer acceptCount;
        private Duration keepAliveTimeout;
        private boolean unlimitedKeepAliveRequests;
        private boolean oneRequestPerConnection;
        private boolean nagle;

        private Builder(HttpServlet servlet, JsonErrorValve.ErrorBody errorBody) {
            this.servlet = Objects.requireNonNull(servlet, "servlet");
            this.errorBody = Objects.requireNonNull(errorBody, "errorBody");
        }

        /** @param p 1..65535, or {@link LoopbackPort#ANY} (the default) for a free port the OS picks */
        public Builder port(int p) {
            port = p;
            return this;
        }

        /**
         * @param e the executor the connector hands every socket event to (default: Tomcat's own pool); its owner
         *          shuts it down
         */
        public Builder executor(Executor e) {
            executor = Objects.requireNonNull(e, "executor");
            return this;
        }

        /** @param n the listen backlog (Tomcat's {@code acceptCount}) */
        public Builder acceptCount(int n) {
            acceptCount = n;
            return this;
        }

        /** @param d how long an idle keep-alive connection is kept open (Tomcat's {@code keepAliveTimeout}); positive */
        public Builder keepAliveTimeout(Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("keepAliveTimeout must be positive, was " + d);
            }
            keepAliveTimeout = d;
            return this;
        }

        /** Any number of requests on one keep-alive connection (Tomcat's default closes it after 100). */
        public Builder unlimitedKeepAliveRequests() {
            unlimitedKeepAliveRequests = true;
            return this;
        }

        /**
         * Keep-alive off: Tomcat answers every request with {@code Connection: close} and closes the connection after it
         * ({@code maxKeepAliveRequests=1}), so each request pays a new TCP connection. Overrides
         * {@link #unlimitedKeepAliveRequests()}.
         */
        public Builder oneRequestPerConnection() {
            oneRequestPerConnection = true;
            return this;
        }

        /**
         * Nagle's algorithm on for the accepted sockets ({@code tcpNoDelay=false}; Tomcat's default is {@code true}): a
         * small write waits while an earlier one is unacknowledged, so an answer written in two parts waits for the
         * client's (delayed) ACK of the first.
         */
        public Builder nagle() {
            nagle = true;
            return this;
        }

        /**
         * Starts the server.
         *
         * @throws IllegalArgumentException when the port is out of range or another socket listens on it
         * @throws IllegalStateException    when Tomcat cannot start (the scratch directory) or does not listen
         */
        public LoopbackTomcat start() {
            // refused here, in one line: Tomcat would log a failed bind at SEVERE with its stack trace and start
            // without a connector
            LoopbackPort.requireFree("port", port);
            if (QUIET.isEmpty()) {
                throw new AssertionError("the loggers are set up");
            }
            Path dir;
            try {
                sweepLeftovers(Path.of(System.getProperty("java.io.tmpdir")));
                dir = Files.createTempDirectory(SCRATCH_PREFIX + ProcessHandle.current().pid() + "-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create Tomcat's scratch directory", e);
            }
            // no JMX: Tomcat registers an MBean for every request processor it creates, under one lock per
            // connector, so a burst of new connections queues on it (hundreds at once: about a second). Nothing of
            // the lab reads Tomcat's MBeans; its figures come from the executor and the connector's own counters.
            org.apache.tomcat.util.modeler.Registry.disableRegistry();
            Tomcat tomcat = new Tomcat();
            tomcat.setBaseDir(dir.toString());
            tomcat.setConnector(connector());
            JsonErrorValve valve = new JsonErrorValve(errorBody);
            StandardHost host = (StandardHost) tomcat.getHost();
            // the host adds a valve of this class at start only if its pipeline holds none: this one, with its body
            host.getPipeline().addValve(valve);
            host.setErrorReportValveClass(JsonErrorValve.class.getName());
            Context context = tomcat.addContext("", dir.toString());
            if (context instanceof StandardContext standard) {
                // one context, never redeployed: no class loader to leak, and the checks would only warn, at every
                // stop, that they need --add-opens
                standard.setClearReferencesThreadLocals(false);
                standard.setClearReferencesRmiTargets(false);
            }
            // async supported: a servlet may read a body without holding a thread while its bytes trickle in
            Tomcat.addServlet(context, "servlet", servlet).setAsyncSupported(true);
            context.addServletMappingDecoded("/", "servlet");
            try {
                tomcat.start();
            } catch (LifecycleException e) {
                deleteQuietly(dir);
                throw new IllegalStateException("Tomcat did not start", e);
            }
            int bound = tomcat.getConnector().getLocalPort();
            if (bound <= 0) {
                stopQuietly(tomcat);
                deleteQuietly(dir);
                throw new IllegalStateException("Tomcat's connector is not listening (local port " + bound + ")"
                        + (port == LoopbackPort.ANY ? "" : ": another socket may have taken 127.0.0.1:" + port + " meanwhile"));
            }
            return new LoopbackTomcat(tomcat, dir, bound);
        }

        private Connector connector() {
            Connector connector = new Connector("org.apache.coyote.http11.Http11NioProtocol");
            connector.setPort(port);
            connector.setProperty("address", "127.0.0.1");
            if (acceptCount != null) {
                connector.setProperty("acceptCount", Integer.toString(acceptCount));
            }
            if (keepAliveTimeout != null) {
                connector.setProperty("keepAliveTimeout", Long.toString(keepAliveTimeout.toMillis()));
            }
            if (oneRequestPerConnection) {
                connector.setProperty("maxKeepAliveRequests", "1");
            } else if (unlimitedKeepAliveRequests) {
                connector.setProperty("maxKeepAliveRequests", "-1");
            }
            if (nagle) {
                connector.setProperty("tcpNoDelay", "false");
            }
            // a body the servlet did not read is never read after its answer (Tomcat would otherwise swallow up to 2 MiB of
            // it on the request's thread, for as long as the client trickles it): the connection is closed instead
            connector.setProperty("maxSwallowSize", "0");
            connector.setXpoweredBy(false);
            if (executor != null) {
                ((AbstractProtocol<?>) connector.getProtocolHandler()).setExecutor(executor);
            }
            return connector;
        }
    }

    /** @return the port it listens on, on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return {@code http://127.0.0.1:PORT} */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * Stops serving and deletes the scratch directory. An executor given to the builder is left to its owner.
     *
     * @throws IllegalStateException when Tomcat does not stop cleanly (the directory is deleted all the same)
     */
    @Override
    public void close() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat did not stop cleanly", e);
        } finally {
            deleteQuietly(baseDir);
        }
    }

    /** Tomcat's scratch directories: {@code archlab-tomcat-<pid>-<random>} under the temp directory. */
    static final String SCRATCH_PREFIX = "archlab-tomcat-";

    /**
     * Deletes the scratch directories that processes no longer alive left in {@code tmp}: a server killed with SIGKILL
     * (the crash test's children) never deletes its own. Only directories named by {@link #SCRATCH_PREFIX} and a pid,
     * owned by this process's user, whose pid runs nothing; links are not followed.
     */
    static void sweepLeftovers(Path tmp) {
        java.util.regex.Pattern named = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(SCRATCH_PREFIX) + "(\\d{1,10})-.*");
        String me = System.getProperty("user.name");
        try (Stream<Path> dirs = Files.list(tmp)) {
            dirs.forEach(d -> {
                java.util.regex.Matcher m = named.matcher(d.getFileName().toString());
                try {
                    if (m.matches() && Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                            && Files.getOwner(d, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName().equals(me)
                            && ProcessHandle.of(Long.parseLong(m.group(1))).map(h -> !h.isAlive()).orElse(true)) {
                        deleteQuietly(d);
                    }
                } catch (IOException | NumberFormatException | UnsupportedOperationException e) {
                    // not ours to judge: left as it is
                }
            });
        } catch (IOException e) {
            // a temp directory that cannot be listed: nothing swept
        }
    }

    private static void stopQuietly(Tomcat tomcat) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            // it did not listen: nothing of it serves
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
