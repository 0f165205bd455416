package archlab.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import archlab.loopback.LoopbackPort;
import archlab.http.ServerThreads;
import archlab.run.LabProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A checkpoint served in this JVM ({@link ServedCheckpoint}), over a map of orders; and the settings it reads. */
class ServedCheckpointTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    @DisplayName("served in this JVM: the first line says where (127.0.0.1, a free port), its pid and threads; create, get and pay answer over HTTP; closed, the port answers no more and a stopped line says what was served")
    void servesUntilClosed() throws Exception {
        MemoryFixture fixture = new MemoryFixture();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        int port;
        try (ServedCheckpoint served = ServedCheckpoint.start(() -> fixture, ServeSettings.DEFAULT, out)) {
            port = served.port();
            List<String> lines = printed.toString(StandardCharsets.UTF_8).lines().toList();
            Matcher first = Pattern.compile(ServedCheckpoint.SERVING_LINE).matcher(lines.getFirst());
            assertThat(first.matches()).as(lines.getFirst()).isTrue();
            assertThat(first.group(1)).isEqualTo(served.baseUri().toString());
            assertThat(Integer.parseInt(first.group(2))).isEqualTo(port).isPositive();
            assertThat(Long.parseLong(first.group(3))).isEqualTo(ProcessHandle.current().pid());
            assertThat(first.group(4)).isEqualTo("platform");
            assertThat(lines.getFirst()).contains(" pool=" + MemoryFixture.POOL).contains("| downstream_latency none (a map)");
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("curl -s -X POST " + served.baseUri() + "/orders"))
                    .anySatisfy(l -> assertThat(l).contains("wrk -t8 -c200 -d10s").contains("book-mix.lua " + served.baseUri()))
                    .anySatisfy(l -> assertThat(l).contains("kill " + ProcessHandle.current().pid()));

            HttpResponse<String> created = send(served.baseUri(), "POST", "/orders", "{\"customer\":\"cust\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String id = JSON.readTree(created.body()).get("id").asText();
            assertThat(fixture.orders).containsEntry(id, false);
            HttpResponse<String> read = send(served.baseUri(), "GET", "/orders/" + id, null);
            assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
            HttpResponse<String> paid = send(served.baseUri(), "POST", "/orders/" + id + "/pay", null);
            assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
            JsonNode answer = JSON.readTree(paid.body());
            assertThat(answer.get("paid").asBoolean()).isTrue();
            assertThat(fixture.orders).containsEntry(id, true);
        }
        assertThat(LoopbackPort.answers(port, Duration.ofSeconds(1))).as("127.0.0.1:%d answers after close", port).isFalse();
        assertThat(fixture.afterRuns).hasValue(1);
        String last = printed.toString(StandardCharsets.UTF_8).lines().toList().getLast();
        assertThat(last).startsWith("stopped http://127.0.0.1:" + port + " after ").contains("(closed)")
                .contains("downstream inventory=" + (MemoryFixture.POOL + 3));
    }

    @Test
    @DisplayName("a start deletes the scratch folders that servers killed before it left behind, and keeps those of servers still running")
    void startSweepsScratchOfKilledServers() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Path left = Files.createDirectory(tmp.resolve(ServedCheckpoint.SCRATCH_PREFIX + ended.pid() + "-killed"));
        Files.writeString(left.resolve("ids.txt"), "m-1\n");
        Path running = Files.createDirectories(tmp.resolve(ServedCheckpoint.SCRATCH_PREFIX + ProcessHandle.current().pid() + "-running"));
        try (ServedCheckpoint served = ServedCheckpoint.start(MemoryFixture::new, ServeSettings.DEFAULT,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
            assertThat(left).as("the folder of pid %d, ended", ended.pid()).doesNotExist();
            assertThat(running).as("the folder of a server still running").isDirectory();
        } finally {
            Files.deleteIfExists(running);
        }
    }

    @Test
    @DisplayName("a port another socket listens on is refused in one line before the service is built, naming lab.serve.port, the port and what to do")
    void busyPortIsRefused() throws Exception {
        AtomicInteger built = new AtomicInteger();
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(LoopbackPort.LOOPBACK, 0));
            int port = busy.getLocalPort();
            assertThatIllegalArgumentException().isThrownBy(() -> ServedCheckpoint.start(() -> {
                built.incrementAndGet();
                return new MemoryFixture();
            }, ServeSettings.DEFAULT.withPort(port), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                    .withMessageStartingWith("lab.serve.port=" + port + ": cannot listen on 127.0.0.1:" + port)
                    .withMessageContaining("choose another port, or leave lab.serve.port out for a free one")
                    .withMessageNotContaining("\n");
        }
        assertThat(built).hasValue(0);
    }

    @Test
    @DisplayName("the settings: a free port, platform threads and no end unless -Dlab.serve.port, -Dlab.server.threads, -Dlab.serve.seconds say otherwise; handed to a child as the same -D options")
    void settingsFromLabProperties() {
        assertThat(ServeSettings.from(LabProperties.read(new Properties()))).isEqualTo(ServeSettings.DEFAULT);
        assertThat(ServeSettings.DEFAULT).isEqualTo(new ServeSettings(0, ServerThreads.PLATFORM, Optional.empty()));
        ServeSettings given = ServeSettings.from(LabProperties.read(props("lab.serve.port", "8080",
                "lab.server.threads", "virtual", "lab.serve.seconds", "30")));
        assertThat(given).isEqualTo(new ServeSettings(8080, ServerThreads.VIRTUAL, Optional.of(Duration.ofSeconds(30))));
        assertThat(given.asSystemProperties())
                .containsExactly("-Dlab.serve.port=8080", "-Dlab.server.threads=virtual", "-Dlab.serve.seconds=30");
        assertThat(ServeSettings.DEFAULT.asSystemProperties()).containsExactly("-Dlab.serve.port=0", "-Dlab.server.threads=platform");
    }

    @ParameterizedTest(name = "-D{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "lab.serve.port    | 70000 | lab.serve.port must be a port 1..65535 (or 0 for a free one the OS picks), was '70000'",
        "lab.serve.port    | -1    | lab.serve.port must be a port 1..65535 (or 0 for a free one the OS picks), was '-1'",
        "lab.serve.port    | http  | lab.serve.port must be a whole number, was 'http'",
        "lab.serve.seconds | 0     | lab.serve.seconds must be 1..86400 whole seconds, was '0'",
        "lab.serve.seconds | 1m    | lab.serve.seconds must be a whole number, was '1m'",
        "lab.serve.prot    | 8080  | unknown property -Dlab.serve.prot=8080 (did you mean lab.serve.port?); known: "})
    @DisplayName("a bad -Dlab.serve.port or -Dlab.serve.seconds is refused with the property, the value as typed and what is wanted; a typo names the key meant")
    void badSettingsAreRefused(String property, String value, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> ServeSettings.from(LabProperties.read(props(property, value))))
                .withMessageStartingWith(message);
    }

    private static Properties props(String... pairs) {
        Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return p;
    }

    private static HttpResponse<String> send(URI base, String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5))
                .header("X-Deadline-Ms", "2000").header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
