package archlab.order;

import static org.assertj.core.api.Assertions.assertThat;

import archlab.http.HttpOrderTarget;
import archlab.loopback.LoopbackPort;
import archlab.loadgen.testing.MultiSecondCheck;
import archlab.request.RequestContext;
import archlab.serve.ServeSettings;
import archlab.serve.ServedProcess;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * This checkpoint served in a JVM of its own ({@link Serve}, started by {@link ServedProcess}), crashed and started
 * again: what a crash test does to it, at a chosen moment instead of a random one.
 */
@MultiSecondCheck
class ServeOnItsOwnTest {

    @Test
    @DisplayName("served in a JVM of its own, the checkpoint creates and pays an order over HTTP; SIGKILLed, its port stops answering and its pid is gone; started again on the same port, it serves again")
    void killedAndStartedAgain() throws Exception {
        int port;
        long pid;
        try (ServedProcess first = ServedProcess.builder(Serve.class).echo(line -> System.out.println("[first] " + line)).start();
             HttpOrderTarget client = new HttpOrderTarget(first.baseUri())) {
            port = first.port();
            pid = first.pid();
            assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
            createAndPay(client);
            // killed with the client's keep-alive connection open, as a crash finds it: the server's side of it is
            // closed by the kernel, and its port must still be free to listen on again
            assertThat(first.kill()).as("exit code of a JVM killed by SIGKILL").isEqualTo(128 + 9);
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("pid %d after SIGKILL", pid).isEmpty();
            assertThat(LoopbackPort.answers(port, Duration.ofSeconds(1))).as("127.0.0.1:%d after SIGKILL", port).isFalse();
            assertThat(first.output()).noneSatisfy(line -> assertThat(line).startsWith("stopped"));
        }
        try (ServedProcess second = ServedProcess.builder(Serve.class).settings(ServeSettings.DEFAULT.withPort(port))
                .echo(line -> System.out.println("[second] " + line)).start();
             HttpOrderTarget client = new HttpOrderTarget(second.baseUri())) {
            assertThat(second.port()).isEqualTo(port);
            assertThat(second.pid()).isNotEqualTo(pid);
            createAndPay(client);
            assertThat(second.stop()).as("exit code after SIGTERM").isEqualTo(ServedProcess.EXIT_ON_SIGTERM);
            assertThat(second.output().getLast()).startsWith("stopped " + second.baseUri());
        }
    }

    /** Creates an order over HTTP, reads it and pays it: each answered 2xx, or this throws. */
    private static void createAndPay(HttpOrderTarget client) throws Exception {
        String id = client.create(RequestContext.background());
        assertThat(id).isNotBlank();
        client.get(RequestContext.background(), id);
        client.pay(RequestContext.background(), id);
    }
}
