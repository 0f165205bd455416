package archlab.claims;

import archlab.downstream.Inventory;
import archlab.downstream.Notifier;
import archlab.downstream.Payments;
import archlab.downstream.remote.DownstreamServer;
import archlab.loopback.LoopbackPort;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A solution judged from outside its process: every attempt of every claim gets a student process of its own
 * ({@link SolutionProcess}, in the {@link SolutionSandbox}); each service the claim opens is opened in it over the
 * claim's stubs, which stay in this JVM and are served to it on loopback ({@link DownstreamServer}); and the claim
 * talks to the service over the wire ({@link RemoteOrderPort}). The claims, the hiccup probe, the stubs' books and the
 * scorecard live only here: whatever the solution does inside its process cannot change a verdict, and a process that
 * dies, hangs or answers garbage fails the claim with the reason.
 *
 * <p>The trap it closes: a grader that loads the student's classes into its own JVM, however carefully, shares a heap
 * with them — one allowed library's reflection reaches the object that holds the verdicts.
 *
 * <p>Thread-safety: {@link #forAttempt()} from any thread; an {@link Attempt} is used by one claim at a time.
 */
final class ServedSolution {

    private final SolutionSandbox sandbox;
    private final List<Path> classPath;

    private ServedSolution(SolutionSandbox sandbox, List<Path> classPath) {
        this.sandbox = sandbox;
        this.classPath = classPath;
    }

    /**
     * @param solutionFirst the solution's classes and its adapter's, put before this JVM's class path (the lab's
     *                      libraries, which the student's process needs to serve)
     */
    static ServedSolution of(List<Path> solutionFirst) {
        List<Path> all = new ArrayList<>(solutionFirst);
        Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator)).filter(s -> !s.isBlank())
                .map(Path::of).filter(Files::exists).filter(p -> !all.contains(p)).forEach(all::add);
        SolutionSandbox sandbox = SolutionSandbox.current();
        try {
            return new ServedSolution(sandbox, sandbox.readable(all));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the class path readable to the student's process", e);
        }
    }

    /** @return how the student's process is kept apart, for the scorecard */
    String describe() {
        return sandbox.describe();
    }

    /** @return a checkpoint for one attempt of one claim; its process starts with the first {@code open} */
    Attempt forAttempt() {
        return new Attempt();
    }

    /** One attempt: one student process, any number of services in it. Close it when the attempt ends. */
    final class Attempt implements Checkpoint, AutoCloseable {
        private final ExecutorService callbacks = Executors.newVirtualThreadPerTaskExecutor();
        private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).executor(callbacks).build();
        private SolutionProcess process;
        private boolean closed;

        private synchronized SolutionProcess process() {
            if (closed) {
                throw new IllegalStateException("the attempt is over");
            }
            if (process == null) {
                process = SolutionProcess.start(sandbox, classPath);
            }
            return process;
        }

        @Override
        public OrderPort open(Inventory inventory, Payments payments, Notifier notifier) {
            SolutionProcess p = process();
            DownstreamServer stubs = DownstreamServer.serve(inventory, payments, notifier, LoopbackPort.ANY);
            try {
                warm(stubs);
                return RemoteOrderPort.open(client, p.baseUri(), stubs.baseUri(), p::state, stubs::close);
            } catch (RuntimeException e) {
                stubs.close();
                throw e;
            }
        }

        /**
         * A few requests of the grader's own to a stubs' server that has just started (to a path no stub answers: no
         * book is touched), so that its first call from the service does not pay for Tomcat's first request — a
         * service with a 20 ms budget per call would see the wire's cold start as the stub's latency.
         */
        private void warm(DownstreamServer stubs) {
            for (int i = 0; i < 3; i++) {
                try {
                    client.send(java.net.http.HttpRequest.newBuilder(stubs.baseUri().resolve("/warm-up")).timeout(Duration.ofSeconds(5))
                            .GET().build(), java.net.http.HttpResponse.BodyHandlers.discarding());
                } catch (IOException e) {
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** @return what the student's processes used in this attempt so far; nothing if none started */
        synchronized StudentMeter.Use use() {
            return process == null ? StudentMeter.Use.NONE : process.use();
        }

        /** Kills the attempt's student process (and everything it started). */
        @Override
        public synchronized void close() {
            closed = true;
            try {
                if (process != null) {
                    process.close();
                }
            } finally {
                client.shutdownNow();
                callbacks.shutdownNow();
            }
        }

        @Override
        public String toString() {
            return "a student process of its own (" + sandbox.describe() + ")";
        }
    }
}
