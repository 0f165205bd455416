package archlab.serve;

import archlab.loopback.LoopbackPort;
import archlab.http.ServerThreads;
import archlab.run.LabProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a checkpoint is served on its own: the port on 127.0.0.1 ({@code -Dlab.serve.port}, default
 * {@value LoopbackPort#ANY}: a free one the OS picks), the server's threads ({@code -Dlab.server.threads}, as for runs)
 * and how long it serves ({@code -Dlab.serve.seconds}; unset: until stopped).
 *
 * @param port        1..65535, or {@value LoopbackPort#ANY} for a free one
 * @param threads     the server's threads
 * @param servingTime how long it serves before it stops by itself, whole seconds; empty: until stopped
 */
public record ServeSettings(int port, ServerThreads threads, Optional<Duration> servingTime) {

    /** A free port, Tomcat's platform threads, until stopped. */
    public static final ServeSettings DEFAULT = new ServeSettings(LoopbackPort.ANY, ServerThreads.PLATFORM, Optional.empty());

    public ServeSettings {
        LoopbackPort.checkedPort("port", port, Integer.toString(port));
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(servingTime, "servingTime");
        servingTime.ifPresent(t -> {
            if (t.toSeconds() < 1 || t.toNanos() % 1_000_000_000L != 0) {
                throw new IllegalArgumentException("servingTime must be whole seconds, at least 1, was " + t);
            }
        });
    }

    /** @return the settings the reader's {@code -Dlab.serve.port}, {@code -Dlab.server.threads} and {@code -Dlab.serve.seconds} give */
    public static ServeSettings from(LabProperties lab) {
        return new ServeSettings(lab.get(LabProperties.SERVE_PORT).orElse(LoopbackPort.ANY),
                lab.get(LabProperties.SERVER_THREADS).orElse(ServerThreads.PLATFORM),
                lab.get(LabProperties.SERVE_SECONDS).map(Duration::ofSeconds));
    }

    /** @return these settings on {@code port} */
    public ServeSettings withPort(int port) {
        return new ServeSettings(port, threads, servingTime);
    }

    /** @return these settings with {@code threads} */
    public ServeSettings withThreads(ServerThreads threads) {
        return new ServeSettings(port, threads, servingTime);
    }

    /** @return these settings, serving for {@code time} (whole seconds) and then stopping */
    public ServeSettings withServingTime(Duration time) {
        return new ServeSettings(port, threads, Optional.of(time));
    }

    /** @return {@code -Dlab.serve.port=… -Dlab.server.threads=…} (and {@code -Dlab.serve.seconds=…}): these settings for another JVM */
    public List<String> asSystemProperties() {
        List<String> props = new ArrayList<>(List.of("-D" + LabProperties.SERVE_PORT.property() + "=" + port,
                "-D" + LabProperties.SERVER_THREADS.property() + "=" + threads.label()));
        servingTime.ifPresent(t -> props.add("-D" + LabProperties.SERVE_SECONDS.property() + "=" + t.toSeconds()));
        return List.copyOf(props);
    }
}
