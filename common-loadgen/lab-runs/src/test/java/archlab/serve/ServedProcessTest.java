package archlab.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import archlab.loopback.LoopbackPort;
import archlab.loadgen.testing.MultiSecondCheck;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A served main in a child process ({@link ServedProcess}, {@link MemoryServe}): refusals, the start timeout, a clean
 * stop, and a child that outlives nobody. Each starts a JVM (about a second here).
 */
@MultiSecondCheck
class ServedProcessTest {

    private static final Consumer<String> ECHO = line -> System.out.println("[child] " + line);

    static Stream<Arguments> badOptions() {
        return Stream.of(
                Arguments.of("-Dlab.serve.port=70000", "lab.serve.port must be a port 1..65535 (or 0 for a free one the OS picks), was '70000'"),
                Arguments.of("-Dlab.serve.port=eighty", "lab.serve.port must be a whole number, was 'eighty'"),
                Arguments.of("-Dlab.serve.seconds=0", "lab.serve.seconds must be 1..86400 whole seconds, was '0'"),
                Arguments.of("-Dlab.serve.prot=8080", "unknown property -Dlab.serve.prot=8080 (did you mean lab.serve.port?)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOptions")
    @DisplayName("a child given a bad -Dlab.serve.port or -Dlab.serve.seconds exits with code 2 and one line on its output, naming the property and the value, no stack trace")
    void badOptionIsOneLine(String option, String message) {
        assertThatThrownBy(() -> ServedProcess.builder(MemoryServe.class).jvmOptions(List.of(option)).echo(ECHO).start())
                .isInstanceOfSatisfying(ServedProcess.NotServingException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(ServedCheckpoint.EXIT_REFUSED);
                    assertThat(e.lastOutput()).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                            .startsWith("[lab] not serving: " + message);
                });
    }

    @Test
    @DisplayName("a child asked for a port another socket listens on exits with code 2 and one line naming the port, no stack trace")
    void busyPortIsOneLine() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(LoopbackPort.LOOPBACK, 0));
            int port = busy.getLocalPort();
            assertThatThrownBy(() -> ServedProcess.builder(MemoryServe.class).settings(ServeSettings.DEFAULT.withPort(port))
                    .echo(ECHO).start())
                    .isInstanceOfSatisfying(ServedProcess.NotServingException.class, e -> {
                        assertThat(e.exitCode()).isEqualTo(ServedCheckpoint.EXIT_REFUSED);
                        assertThat(e.lastOutput()).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                                .startsWith("[lab] not serving: lab.serve.port=" + port + ": cannot listen on 127.0.0.1:" + port);
                    });
        }
    }

    @Test
    @DisplayName("a child that prints no serving line within the start timeout is killed, and the failure says so with its last output")
    void silentChildTimesOut() {
        assertThatThrownBy(() -> ServedProcess.builder(Silent.class).startTimeout(Duration.ofSeconds(3)).start())
                .isInstanceOfSatisfying(ServedProcess.NotServingException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(-1);
                    assertThat(e.lastOutput()).containsExactly("warming up, slowly");
                })
                .hasMessageContaining("printed no serving line within 3 s (killed)").hasMessageContaining("warming up, slowly");
    }

    @Test
    @DisplayName("stopped (SIGTERM), a child's shutdown hook stops its server and prints what it served; it exits with 143 and its port answers no more")
    void stopIsClean() throws Exception {
        ServedProcess child = ServedProcess.builder(MemoryServe.class).echo(ECHO).start();
        try (child) {
            assertThat(child.pid()).isNotEqualTo(ProcessHandle.current().pid());
            assertThat(LoopbackPort.answers(child.port(), Duration.ofSeconds(2))).isTrue();
            assertThat(child.stop()).isEqualTo(ServedProcess.EXIT_ON_SIGTERM);
        }
        assertThat(child.output().getLast()).startsWith("stopped " + child.baseUri() + " after ")
                .contains("(SIGTERM, Ctrl-C or exit)");
        assertThat(LoopbackPort.answers(child.port(), Duration.ofSeconds(1))).isFalse();
        assertThat(ProcessHandle.of(child.pid()).filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    @DisplayName("with -Dlab.serve.seconds a child stops by itself, cleanly, with exit code 0")
    void servingTimeEnds() throws Exception {
        try (ServedProcess child = ServedProcess.builder(MemoryServe.class)
                .settings(ServeSettings.DEFAULT.withServingTime(Duration.ofSeconds(1))).echo(ECHO).start()) {
            assertThat(child.awaitExit()).isZero();
            assertThat(child.output().getLast()).contains("(lab.serve.seconds=1 passed)");
        }
    }

    @Test
    @DisplayName("a child exits when the process it watches ends, even by SIGKILL (which runs no hook): no child is left behind")
    void childEndsWithItsParent() throws Exception {
        Process parent = new ProcessBuilder("sleep", "60").start();
        try (ServedProcess child = ServedProcess.builder(MemoryServe.class).stopWhenEnds(parent.toHandle()).echo(ECHO).start()) {
            parent.destroyForcibly().waitFor();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(child.isAlive()).as("the child, 20 s after its parent was killed").isFalse();
            assertThat(child.awaitExit()).isZero();
            assertThat(child.output().getLast()).contains("(the process that started it, pid " + parent.pid() + ", ended)");
        }
    }
}
